#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
int f(int x) {
  if (x < 0) return -x;
  for (int i = 0; i < x; i++) { if (d[i] == x) return i; }
  return 0;
}
int g(int x) {
  int r = 0;
  while (true) { r += f(x); if (r > 10) return r; x--; if (x < -5) break; }
  return -1;
}
void h(inout int y) { if (y == 3) { y = g(y); return; } y += 1; }
void main() { int v = d[0]; h(v); d[1] = g(v) + f(v); }
