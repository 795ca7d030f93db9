// glslang: -D -e main -S frag --target-env vulkan1.0
// val: vulkan1.0
Texture2D t : register(t0);
SamplerState s : register(s0);
float4 main(float2 uv : TEXCOORD0) : SV_Target {
  float4 c = t.Sample(s, uv);
  [loop] for (int i = 0; i < 4; i++) { clip(c.a - 0.5); if (c.r > 0.9) break; c *= 1.1; }
  if (c.g < 0.1) discard;
  return c;
}
