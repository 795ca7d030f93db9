#version 450
layout(local_size_x=1) in;
layout(std430, binding=0) buffer B { int d[]; };
void main() {
  switch (d[0]) { case 1: d[1] = 2; break; case 2: d[1] = 3; break; }
  switch (d[2]) { default: d[3] = 1; }
  switch (d[4]) { case 1: case 2: case 3: d[5] = 0; }
  switch (d[6]) { }
}
