#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  int acc = 0;
  for (int a = 0; a < d[0]; a++)
    for (int b = 0; b < d[1]; b++) {
      while (acc < d[2]) {
        acc++;
        for (int c = 0; c < 3; c++) {
          if (d[c] == a) break;
          if (d[c] == b) continue;
          do { acc += 2; if (acc > 77) break; } while (acc % 5 != 0);
        }
        if (acc > 200) break;
      }
      if (acc > 500) { d[0] = acc; return; }
    }
  d[3] = acc;
}
