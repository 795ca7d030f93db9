#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int r = 0;
  for (int i = 0; i < d[0]; i++) {
    switch (d[i]) {
    case 0: continue;
    case 1: r++; break;
    case 2:
      switch (d[i+1]) { case 0: r += 5; break; case 1: continue; default: r--; }
      break;
    case 3: if (r > 4) break; r += 7;
    default: r *= 2;
    }
    if (r > 100) break;
  }
  d[1] = r;
}
