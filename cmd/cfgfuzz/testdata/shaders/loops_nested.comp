#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int acc = 0;
  for (int i = 0; i < d[0]; i++) {
    if (d[i] == 3) continue;
    for (int j = 0; j < d[1]; j++) {
      if (d[j] == 7) break;
      if (d[j] == 9) continue;
      acc += d[i+j];
      if (acc > 1000) return;
    }
    if (d[i] < 0) break;
  }
  d[2] = acc;
}
