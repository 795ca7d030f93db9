#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
bool p(int x) { return d[x] > 0; }
void main() {
  int n = 0;
  for (int i = 0; i < 10 && (p(i) || p(i+1)) && !(d[i] == 3 && p(i+2)); i++) n++;
  while (n > 0 && p(n)) n--;
  d[0] = (p(1) && p(2)) ? n : -n;
}
