#version 450
layout(local_size_x=64) in;
shared int s[64];
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  uint id = gl_LocalInvocationIndex;
  s[id] = d[id];
  for (uint stride = 32; stride > 0; stride >>= 1) {
    barrier();
    if (id < stride) s[id] += s[id + stride];
  }
  if (id == 0) d[0] = s[0];
}
