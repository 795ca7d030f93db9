#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int a = d[0], b = d[1], c = d[2];
  for (int i = 0; i < 8; i++) {
    int t = a; a = b; b = c; c = t + ((i & 1) == 0 ? a : b);
    if (c > 50) { a = 0; continue; }
    if (b < -50) { b = 1; break; }
    c = c ^ a;
  }
  d[3] = a + b + c;
}
