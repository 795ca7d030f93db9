//go:build linux

package gpu

import "syscall"

// diesWithParent has the server killed when cfgfuzz dies, even by SIGKILL
// (PR_SET_PDEATHSIG). Go sends it when the thread that started the server
// ends, which the runtime does only for a goroutine that exits locked to
// its thread; cfgfuzz locks none.
func diesWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
