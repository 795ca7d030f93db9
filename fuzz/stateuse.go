// stateuse.go marks a state directory in use by every process that will
// commit a night's update there (an unsharded night, a merge) for as long
// as it runs: a file DIR/running-PID-HOST-TIME.night naming the process as a lock names
// its owner (lock.go), refreshed by the same heartbeat and removed when
// the process is done (or ends at once on a stop signal: package tidy).
// A night that starts while another such process is live is warned at
// once (StateUseNote), on standard error and in its report, before it
// builds a revision when its command marks the state first
// (Config.MarkState, Config.Mark): of two
// nights on one state, only the first to commit is committed (CommitState
// refuses the second), so the user can stop one early rather than learn
// it at the end. The mark is no lock: both nights run. A mark
// whose owner this process can check and finds gone (kill -9) is removed;
// one of an owner it cannot check (another host, a container) counts
// while its heartbeat is younger than LockStale (one without a heartbeat,
// a bare "PID HOST", while it is younger than foreignMarkExpiry), and is
// removed once it is older than foreignMarkExpiry.

package fuzz

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A mark's file name in a state directory begins with nightMarkPrefix
// and ends with nightMarkSuffix: a file of its own beside the state's
// files, gone with its process, so that the directory holds nothing more
// once the nights are over.
const (
	nightMarkPrefix = "running-"
	nightMarkSuffix = ".night"
)

// foreignMarkExpiry is how long a mark whose owner this process cannot
// check (another host, another container) stays after its last
// heartbeat: a night's process refreshes it every few seconds, so a day
// without one is a process gone (killed with its host, say).
const foreignMarkExpiry = 24 * time.Hour

// MarkNight marks the state directory in use by this process until
// release runs, and returns who else is using it (UsersNote's words for
// each live owner of a mark, none when no other process is): this
// process's mark is made first, so that of two nights starting at once
// each sees the other. A mark that cannot be made marks nothing.
func (st *State) MarkNight() (others []string, release func()) {
	dir := st.Dir
	release = func() {}
	os.MkdirAll(dir, 0o755) // a first night's: it commits there (LoadState does not make it)
	me := thisOwner()
	mine := filepath.Join(dir, fmt.Sprintf("%s%d-%s-%d%s", nightMarkPrefix, me.pid, me.host, time.Now().UnixNano(), nightMarkSuffix))
	if createLock(mine, me.line()) == nil {
		if r, err := holdLock(mine, me.line(), "", io.Discard); err == nil {
			release = r
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), nightMarkPrefix) || !strings.HasSuffix(e.Name(), nightMarkSuffix) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		o, fi, ok, bad := readLock(path)
		if bad != nil || !ok || heldHere(fi) {
			continue
		}
		// A mark of an owner this process cannot check whose file is a day
		// old is left over, whether or not it has a heartbeat (one without,
		// a bare "PID HOST", would otherwise count for ever).
		expired := !o.checkable(me) && time.Since(fi.ModTime()) > foreignMarkExpiry
		if !expired && lockLive(o, fi) {
			others = append(others, fmt.Sprintf("process %d on %s%s", o.pid, o.host, markStart(e.Name())))
			continue
		}
		if v, _ := judgeLock(o, fi); v == lockStaleNow || expired {
			os.Remove(path) // its owner is gone (kill -9), or has not beaten for a day: the mark is left over
		}
	}
	return others, release
}

// markStart says when the mark named name was made, from the time its
// name ends with (running-PID-HOST-UNIXNANO.night): " (since TIME)", or "" when
// the name holds none.
func markStart(name string) string {
	stem := strings.TrimSuffix(name, nightMarkSuffix)
	nano, err := strconv.ParseInt(stem[strings.LastIndex(stem, "-")+1:], 10, 64)
	if err != nil {
		return ""
	}
	return " (since " + time.Unix(0, nano).UTC().Format(time.RFC3339) + ")"
}

// NightMark is a night's mark in its state directory (MarkState) and
// the warning it gave.
type NightMark struct {
	// Concurrent is the warning said when the mark was made
	// (StateUseNote), for the report; "" none.
	Concurrent string
	release    func()
}

// Release removes the mark; on a nil m it does nothing.
func (m *NightMark) Release() {
	if m != nil {
		m.release()
	}
}

// concurrent is m's Concurrent; "" for a nil m.
func (m *NightMark) concurrent() string {
	if m == nil {
		return ""
	}
	return m.Concurrent
}

// MarkState marks c's state directory in use by this night until the
// mark's Release, when the campaign commits there (an unsharded night),
// and says on c.Notes who else uses it; nil, marking nothing, for a
// campaign without a state and for a shard. A command marks the state so
// before it builds a revision (Config.Mark), so that a night beside
// another on one state is warned at its start, not once its build is done.
func (c *Config) MarkState() *NightMark {
	if c.State == nil || c.Shard.N > 1 {
		return nil
	}
	others, release := c.State.MarkNight()
	m := &NightMark{Concurrent: StateUseNote(c.State.Dir, others), release: release}
	if m.Concurrent != "" && c.Notes != nil {
		fmt.Fprintf(c.Notes, "cfgfuzz: warning: %s\n", m.Concurrent)
	}
	return m
}

// StateUseNote is what a night that will commit into the state directory
// dir says when others (MarkNight) use it too; "" when none does.
func StateUseNote(dir string, others []string) string {
	if len(others) == 0 {
		return ""
	}
	return fmt.Sprintf("another process that commits to the state %s is running: %s; of two nights on one state only the first to commit is committed (the other's update is kept in its --out, unused, and it exits 2), so stop one of them now unless this is intended", dir, strings.Join(others, ", "))
}
