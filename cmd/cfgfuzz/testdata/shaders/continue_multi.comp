#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int acc = 0;
  for (int i = 0; i < d[0]; i += (d[i] > 3 ? 2 : (d[i] < 0 ? 3 : 1))) {
    if (d[i] == 2) continue;
    acc += i;
  }
  int j = 0;
  while (j < d[1]) {
    acc++;
    if (acc > 9) { j += 3; continue; }
    j++;
  }
  d[2] = acc;
}
