// servers.go keeps the registry of running structurizer servers and
// defines KillAllServers and StopServers, the exit path's guarantee that
// none outlives cfgfuzz, nor a stray of one (stray_linux.go). Every server gets a token in its environment (serverEnv), which
// its descendants inherit: descend_linux.go uses it to recognize the
// orphans a server leaves behind.

package fuzz

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/cfgfuzz/cfgfuzz/internal/procgroup"
)

// serverEnv is the environment variable that names a server's token,
// PID.N: this process's pid and the server's serial number.
const serverEnv = "CFGFUZZ_SERVER"

var (
	serverSerial atomic.Int64
	serversMu    sync.Mutex
	servers      = map[int]string{} // pid -> token of each running server

	// startMu is held for reading while a server starts (until it is
	// registered) and for writing by StopServers to close the gate:
	// no server starts once stopped is set.
	startMu sync.RWMutex
	stopped bool

	// straysMu guards the strays (stray_linux.go) and strayKills, what
	// StopServers killed of them (KilledStrays).
	straysMu   sync.Mutex
	strayKills []Orphan
)

// errServersStopped is what starting a server says after StopServers.
var errServersStopped = errors.New("cfgfuzz is ending: no structurizer server starts now")

// beginStart lets one server start unless StopServers ran; the returned
// function ends the start (after the server is registered, or failed).
func beginStart() (end func(), err error) {
	startMu.RLock()
	if stopped {
		startMu.RUnlock()
		return nil, errServersStopped
	}
	return startMu.RUnlock, nil
}

// serversStopped says whether StopServers has run: the process is ending,
// and a graph judged since may have lost its server to the kill.
func serversStopped() bool {
	startMu.RLock()
	defer startMu.RUnlock()
	return stopped
}

// StopServers ends every server for good, for an exit path that may race
// with workers still at work (a second signal, the end of main): it closes
// the gate of Process.start, waiting for the starts in progress, so that a
// worker restarting the server it just lost cannot start one that outlives
// the kill; then KillAllServers, and killBuilds for the revisions being
// built.
func StopServers() {
	startMu.Lock()
	stopped = true
	startMu.Unlock()
	KillAllServers()
	killBuilds()
	killed := killStrays()
	straysMu.Lock()
	strayKills = append(strayKills, killed...)
	straysMu.Unlock()
}

// KilledStrays is what StopServers killed of the strays (stray_linux.go):
// processes a server's descendant left running with an empty environment,
// outside the server's session, which no graph's judgement could charge.
func KilledStrays() []Orphan {
	straysMu.Lock()
	defer straysMu.Unlock()
	return append([]Orphan(nil), strayKills...)
}

// newServerToken names the next server.
func newServerToken() string {
	return fmt.Sprintf("%d.%d", os.Getpid(), serverSerial.Add(1))
}

func registerServer(pid int, token string) {
	serversMu.Lock()
	servers[pid] = token
	serversMu.Unlock()
}

func unregisterServer(pid int) {
	serversMu.Lock()
	delete(servers, pid)
	serversMu.Unlock()
}

// isServer says whether pid is a running server (its exec.Cmd reaps it).
func isServer(pid int) bool {
	serversMu.Lock()
	defer serversMu.Unlock()
	_, ok := servers[pid]
	return ok
}

// KillAllServers kills every structurizer server this process started that
// still runs, with its process group and every descendant found (on Linux
// also detached ones and the orphans of servers already gone; see
// descend_linux.go). It is for the exit path of a program that cannot
// close its sides first (a fatal error, a second signal): a Process whose
// server it killed answers its next graph as a crash, so it must not run
// while a campaign is still judging graphs. Closing every side
// (Process.Close) is the orderly way and is enough on its own.
func KillAllServers() {
	if serverSerial.Load() == 0 {
		return // no server was ever started
	}
	serversMu.Lock()
	live := make(map[int]string, len(servers))
	for pid, token := range servers {
		live[pid] = token
	}
	serversMu.Unlock()
	known := map[int]uint64{}
	var groups []int
	for pid := range live {
		for d, start := range descendantsOf(pid) {
			known[d] = start
		}
		procgroup.Kill(pid)
		groups = append(groups, pid)
	}
	sweepDescendants(envEntry{kv: serverEnv + "=" + fmt.Sprint(os.Getpid()) + ".", prefix: true}, known, groups)
}
