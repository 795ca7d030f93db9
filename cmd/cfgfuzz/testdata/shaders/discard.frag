#version 450
layout(location=0) in vec4 c;
layout(location=0) out vec4 o;
void main() {
  vec4 a = c;
  for (int i = 0; i < 4; i++) {
    if (a.x > 0.5) discard;
    a = a * 1.5;
    if (a.y < 0.1) break;
  }
  if (a.z > 2.0) discard;
  o = a;
}
