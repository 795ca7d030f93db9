#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int i = 0; int acc = 0;
  do {
    acc += d[i];
    if (acc == 5) { i += 2; continue; }
    if (acc == 6) break;
    i++;
  } while (i < d[0]);
  int k = 0;
  do { k++; } while (k < acc);
  d[1] = acc + k;
}
