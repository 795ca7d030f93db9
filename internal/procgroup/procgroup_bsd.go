//go:build unix && !linux

package procgroup

import "syscall"

// diesWithParent does nothing outside Linux, which has no such setting.
func diesWithParent(*syscall.SysProcAttr) {}
