#version 450
// glslang: --target-env vulkan1.3
// val: vulkan1.3
#extension GL_EXT_demote_to_helper_invocation : require
layout(location=0) in vec4 c;
layout(location=0) out vec4 o;
void main() {
  vec4 a = c;
  for (int i = 0; i < 3; i++) {
    if (a.x > 0.5) demote;
    if (helperInvocationEXT()) { a.y += 1.0; continue; }
    a.x += 0.25;
  }
  o = a;
}
