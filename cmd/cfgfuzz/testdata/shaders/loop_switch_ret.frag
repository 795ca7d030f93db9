#version 450
layout(location=0) flat in int k;
layout(location=0) out vec4 o;
vec4 pick(int n) {
  vec4 r = vec4(0);
  for (int i = 0; i < n; i++) {
    switch (i % 4) {
      case 0: r.x += 1.0; break;
      case 1: if (r.x > 3.0) return r; r.y += 1.0; break;
      case 2: r.z += 1.0;
      case 3: r.w += 1.0; continue;
    }
    r *= 0.5;
  }
  return r;
}
void main() { o = pick(k); if (o.x > 1.0) discard; }
