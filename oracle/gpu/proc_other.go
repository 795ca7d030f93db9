//go:build unix && !linux

package gpu

import "syscall"

// diesWithParent does nothing outside Linux: a server there ends at the
// end of its input, when cfgfuzz closes it or dies.
func diesWithParent(*syscall.SysProcAttr) {}
