#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int i = 0;
  for (;;) {
    i++;
    if (d[i] == 0) break;
    if (d[i] == 1) return;
  }
  while (true) { i--; if (i < 0) { d[0] = i; return; } }
}
