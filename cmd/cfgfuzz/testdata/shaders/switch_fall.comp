#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int r = 0;
  switch (d[0]) {
  case 0: r += 1;
  case 1: r += 2; break;
  default: r += 10;
  case 5: r += 3;
  case 6: r += 4; break;
  case 7: return;
  case 8: break;
  }
  d[1] = r;
}
