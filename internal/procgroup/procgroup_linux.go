//go:build linux

package procgroup

import "syscall"

// diesWithParent has the child killed when its parent dies, even by
// SIGKILL (PR_SET_PDEATHSIG, kept across its exec). Go sends it when the
// thread that started the child ends, which the runtime does only for a
// goroutine that exits locked to its thread; cfgfuzz locks none. What the
// child starts does not get it.
func diesWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
