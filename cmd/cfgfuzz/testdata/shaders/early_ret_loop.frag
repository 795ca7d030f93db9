#version 450
layout(location=0) in vec2 uv;
layout(location=0) out vec4 o;
layout(binding=0) uniform sampler2D t;
float march(vec2 p) {
  float d = 0.0;
  for (int i = 0; i < 64; i++) {
    float s = texture(t, p + d).r;
    if (s < 0.001) return d;
    d += s;
    if (d > 100.0) break;
  }
  return -1.0;
}
void main() { float d = march(uv); if (d < 0.0) { o = vec4(0); return; } o = vec4(d); }
