#version 450
layout(location=0) in vec4 c;
layout(location=0) out vec4 o;
void main() {
  vec4 r = vec4(0);
  if (c.x > 0.0) {
    if (c.y > 0.0) { r.x = 1.0; if (c.z > 0.0) r.y = 2.0; else r.y = 3.0; }
    else if (c.w > 0.0) r.z = 4.0;
  } else {
    r = c.x < -1.0 ? c : c.wzyx;
    if (c.y < 0.0 && c.z < 0.0 || c.w > 5.0) r.w = 9.0;
  }
  o = r;
}
