#version 450
// glslang: --target-env vulkan1.3
// val: vulkan1.3
#extension GL_EXT_terminate_invocation : require
layout(location=0) in vec4 c;
layout(location=0) out vec4 o;
void main() {
  vec4 a = c;
  while (a.x < 10.0) {
    if (a.y > 3.0) terminateInvocation;
    a.x += 1.0;
  }
  o = a;
}
