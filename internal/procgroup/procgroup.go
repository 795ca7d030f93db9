// Package procgroup starts a child process so that it can be ended whole:
// in a process group of its own (Own), so one kill (Kill) ends it and what
// it started, and, on Linux, killed when its parent dies, even by SIGKILL
// (PR_SET_PDEATHSIG). cfgfuzz's structurizer servers (package fuzz) and
// driver servers (oracle/gpu) are started this way. Outside Unix a child
// stays in its parent's group and Kill ends it alone.
package procgroup
