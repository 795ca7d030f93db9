// glslang: -D -e main -S comp --target-env vulkan1.0
// val: vulkan1.0
RWStructuredBuffer<int> d : register(u0);
int f(int x) {
  [loop] for (int i = 0; i < x; i++) { if (d[i] == 4) return i; if (d[i] == 5) break; }
  return -1;
}
[numthreads(1,1,1)]
void main(uint3 id : SV_DispatchThreadID) {
  int r = 0;
  [unroll] for (int k = 0; k < 3; k++) r += f(k);
  switch (d[1]) { case 0: r++; break; case 1: case 2: r--; break; default: r = 0; break; }
  [branch] if (r > 3) { d[0] = r; return; }
  while (r < 10) { r += 3; if (r == 7) continue; d[r] = 1; }
}
