// lock.go defines the lock of a campaign directory, DIR/lock, which keeps
// two cfgfuzz processes from writing one results log or one report at
// once (a state directory's commit takes the same lock in the state
// directory). The file names its owner: its pid and host name, and, where
// /proc has them, its start time (/proc/PID/stat's 22nd field), the
// kernel's boot id and its pid namespace. While the owner holds the lock
// it refreshes the file's modification time every LockBeat (a heartbeat).
//
// A lock is stale, and taken over, when its owner is gone:
//
//   - An owner this process can check, one of this kernel's boot and pid
//     namespace (or, where there is no /proc, of this host), is gone
//     when its pid is not alive (a zombie is not) or is another process
//     now (another start time), and a lock naming this very process that
//     this process did not take is stale too: a container started again
//     gets a new pid namespace, whose pids repeat the dead one's.
//   - Any other owner (another host, a pod rescheduled under another
//     host name, another pid namespace: a container) is gone when its
//     heartbeat stopped: LockDir watches the lock until it has not been
//     refreshed for LockStale (by the file's age on this host's clock or
//     by the time watched), but at least for two heartbeats, so that a
//     clock ahead of the owner's never takes over a lock being refreshed;
//     one refreshed while watched is in use.
//
// A lock without a heartbeat field (a bare "PID HOST", as a cfgfuzz
// without heartbeats writes it) is judged by its pid on this host only,
// and from another host honoured.
//
// The lock appears whole: written beside it, then linked to its name,
// which fails when the name is taken, so another process never reads it
// empty (where the file system has no hard links it is created, then
// written). A takeover removes the stale lock only inside a takeover
// lock of its own (DIR/lock.takeover.tmp, made the same way), and only
// while it is still the very file judged stale and unrefreshed, then
// takes the lock as any process does: of two processes taking over one
// stale lock at once, one gets it and the other finds it held. A process
// that ends at once on a stop signal removes its locks first (package
// tidy). A holder stopped long enough to lose its lock finds out: its
// heartbeat records the loss (heldLock.check) and says it once, its
// release leaves the new owner's lock in place, and a state commit under
// the lost lock is refused (lockLost). A lock that is not a regular file (a named pipe, which a read
// would wait on for ever) or larger than MaxLockFile is no lock cfgfuzz
// wrote: it is refused, naming it, and neither waited on nor taken over.

package fuzz

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cfgfuzz/cfgfuzz/internal/bounded"
	"github.com/cfgfuzz/cfgfuzz/internal/tidy"
)

// LockFile is the lock's name inside a campaign directory.
const LockFile = "lock"

// LockBeat is how often the owner of a lock refreshes its modification
// time, and LockStale how long a lock of an owner this process cannot
// check (another host, another pid namespace) may go unrefreshed before
// it is stale. Hosts that share a directory need clocks within a few
// seconds of each other.
const (
	LockBeat  = 5 * time.Second
	LockStale = 30 * time.Second
)

// The timings LockDir and its heartbeat use: the constants but in tests.
var (
	lockBeat  = LockBeat
	lockStale = LockStale
	lockPoll  = 100 * time.Millisecond // how often a watched lock is read
)

// takeoverSuffix names the takeover lock beside a lock (lock.go's header).
const takeoverSuffix = ".takeover.tmp"

// lockOwner is what a lock says of the process that took it.
type lockOwner struct {
	pid   int
	host  string
	start uint64 // clock ticks after boot (/proc/PID/stat field 22); 0 unknown
	boot  string // the kernel's boot id; "" unknown
	pidns string // the pid namespace's inode; "" unknown
	beat  bool   // the owner refreshes the lock (heartbeat=): not a bare "PID HOST" lock
}

// line is the lock file's content: "PID HOST" and the fields known.
func (o lockOwner) line() string {
	s := fmt.Sprintf("%d %s", o.pid, o.host)
	if o.start != 0 {
		s += fmt.Sprintf(" start=%d", o.start)
	}
	if o.boot != "" {
		s += " boot=" + o.boot
	}
	if o.pidns != "" {
		s += " pidns=" + o.pidns
	}
	if o.beat {
		s += " heartbeat=" + lockBeat.String()
	}
	return s + "\n"
}

// parseLock reads a lock's content; ok is false when it holds no pid and
// host. Fields it does not know are left out.
func parseLock(b []byte) (o lockOwner, ok bool) {
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return o, false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return o, false
	}
	o.pid, o.host = pid, f[1]
	for _, kv := range f[2:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "start":
			o.start, _ = strconv.ParseUint(v, 10, 64)
		case "boot":
			o.boot = v
		case "pidns":
			o.pidns = v
		case "heartbeat":
			o.beat = true
		}
	}
	return o, true
}

// thisOwner is this process as a lock names it.
var thisOwner = sync.OnceValue(func() lockOwner {
	host, _ := os.Hostname()
	if host == "" || strings.ContainsAny(host, " \t\n") {
		host = "unknown"
	}
	me := lockOwner{pid: os.Getpid(), host: host, beat: true}
	me.boot, me.pidns = systemIDs()
	if me.pidns != "" { // /proc is this pid namespace's
		me.start, _ = processStart(me.pid)
	}
	return me
})

// checkable says whether this process (me) can tell whether o is alive:
// o ran under this kernel's boot and in this pid namespace, where its pid
// names it; where neither records them (no /proc), or for a lock without
// a heartbeat, o ran on this host.
func (o lockOwner) checkable(me lockOwner) bool {
	if !o.beat || o.boot == "" && me.boot == "" {
		return o.host == me.host
	}
	return o.boot != "" && o.boot == me.boot && o.pidns != "" && o.pidns == me.pidns
}

// elsewhere says where o ran, for an owner this process (me) cannot
// check.
func (o lockOwner) elsewhere(me lockOwner) string {
	switch {
	case o.host != me.host:
		return "another host"
	case o.boot != me.boot:
		return "another boot of this host, or another machine of its name"
	case o.pidns == "" || me.pidns == "":
		return "a pid namespace this process cannot tell from its own: /proc does not show it"
	}
	return "another pid namespace: a container"
}

// held are the locks this process took and holds.
var held struct {
	sync.Mutex
	locks []*heldLock
}

// heldLock is a lock this process took: its directory, its file at path
// (fi) and the note its LockDir was given. lost is set, once, when the
// file at path is no longer fi (removed, or taken over by another process
// while this one was stopped for longer than lockStale): the error that
// says so.
type heldLock struct {
	dir, path string
	fi        os.FileInfo
	note      io.Writer
	lost      atomic.Pointer[error]
}

// heldHere says whether fi is a lock this process took and holds.
func heldHere(fi os.FileInfo) bool {
	held.Lock()
	defer held.Unlock()
	for _, h := range held.locks {
		if os.SameFile(h.fi, fi) {
			return true
		}
	}
	return false
}

// check is nil while h's file is still the lock this process took;
// otherwise it is the error that says the lock was lost and to whom,
// recorded in h.lost and said once on h.note. A file that cannot be
// looked at (an error other than its absence) is not taken for lost.
func (h *heldLock) check() error {
	if e := h.lost.Load(); e != nil {
		return *e
	}
	cur, err := os.Lstat(h.path)
	if err == nil && os.SameFile(cur, h.fi) || err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	who := "no process (the lock was removed)"
	if o, _, ok, _ := readLock(h.path); ok {
		who = fmt.Sprintf("process %d on %s", o.pid, o.host)
	}
	e := fmt.Errorf("process %d lost its lock on %s to %s (%s): a lock its heartbeat has not refreshed for %s is taken over as stale (was this process stopped, or its file system held up?)", os.Getpid(), h.dir, who, h.path, lockStale)
	if h.lost.CompareAndSwap(nil, &e) && h.note != nil {
		fmt.Fprintf(h.note, "cfgfuzz: %v\n", e)
	}
	return *h.lost.Load()
}

// lockLost is the error of dir's lock, which this process took, when it
// is no longer this process's (heldLock.check); nil while it is, and
// when this process holds no lock on dir.
func lockLost(dir string) error {
	path := filepath.Join(dir, LockFile)
	held.Lock()
	var mine []*heldLock
	for _, h := range held.locks {
		if h.path == path {
			mine = append(mine, h)
		}
	}
	held.Unlock()
	for _, h := range mine {
		if err := h.check(); err != nil {
			return err
		}
	}
	return nil
}

// lockVerdict is what a lock's owner is to this process.
type lockVerdict int

const (
	lockHeld      lockVerdict = iota // another live process (or this one) holds it
	lockStaleNow                     // its owner is gone: taken over
	lockUnchecked                    // an owner this process cannot check: its heartbeat says
)

// judgeLock says what the lock o, read from the file fi, is to this
// process, and why it is stale when it is.
func judgeLock(o lockOwner, fi os.FileInfo) (lockVerdict, string) {
	me := thisOwner()
	switch {
	case heldHere(fi):
		return lockHeld, ""
	case !o.checkable(me):
		if o.beat {
			return lockUnchecked, ""
		}
		return lockHeld, ""
	case o.pid == me.pid:
		return lockStaleNow, "the lock names this process's pid, which this process did not take: its owner was an earlier process with that pid (a container started again repeats its pids)"
	case !processAlive(o.pid):
		return lockStaleNow, "that process is gone"
	}
	if now, ok := processStart(o.pid); ok && o.start != 0 && now != o.start {
		return lockStaleNow, fmt.Sprintf("pid %d is another process now (started at tick %d after boot, the lock's owner at %d)", o.pid, now, o.start)
	}
	return lockHeld, ""
}

// LockDir takes dir's lock for this process and returns what releases it.
// It fails, naming the owner, when another live process holds the lock;
// a stale lock (lock.go's header) is taken over, saying so and why on
// note (nil: nowhere). A lock of an owner this process cannot check is
// watched until its heartbeat decides, up to LockStale, as note is told
// first.
func LockDir(dir string, note io.Writer) (unlock func(), err error) {
	if note == nil {
		note = io.Discard
	}
	path := filepath.Join(dir, LockFile)
	me := thisOwner().line()
	tookOver := ""
	for attempt := 0; ; attempt++ {
		err := createLock(path, me)
		if err == nil {
			return holdLock(path, me, tookOver, note)
		}
		if !errors.Is(err, os.ErrExist) || attempt > 20 {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		o, fi, ok, bad := readLockSettled(path)
		switch {
		case bad != nil:
			return nil, foreignLock(dir, bad)
		case fi == nil:
			continue // gone meanwhile
		case !ok:
			return nil, fmt.Errorf("%s is locked (%s, unreadable); if no cfgfuzz uses the directory, remove the lock", dir, path)
		}
		verdict, why := judgeLock(o, fi)
		if verdict == lockUnchecked {
			var again bool
			if verdict, why, fi, again = watchLock(dir, path, o, fi, note); again {
				continue
			}
		}
		if verdict == lockHeld {
			return nil, inUseError(dir, path, o, fi)
		}
		if err := takeOver(path, fi, me); err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		tookOver = fmt.Sprintf("cfgfuzz: took over %s, the lock of process %d on %s: %s\n", path, o.pid, o.host, why)
	}
}

// holdLock registers the lock this process just made at path, starts
// its heartbeat and returns what releases it. The release removes the
// lock only while it is still the file this process made, holding what
// it wrote: a lock another process took over is left to it.
func holdLock(path, me, tookOver string, note io.Writer) (func(), error) {
	tidy.Hold(path, []byte(me)) // a process ending at once removes it too
	fi, err := os.Lstat(path)
	if err != nil {
		tidy.Release(path)
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	h := &heldLock{dir: filepath.Dir(path), path: path, fi: fi}
	if note != io.Discard {
		h.note = note
	}
	held.Lock()
	held.locks = append(held.locks, h)
	held.Unlock()
	if tookOver != "" {
		fmt.Fprint(note, tookOver)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go heartbeat(h, stop, done)
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			<-done
			held.Lock()
			held.locks = slices.DeleteFunc(held.locks, func(x *heldLock) bool { return x == h })
			held.Unlock()
			if h.check() != nil {
				tidy.Unhold(path)
				return
			}
			tidy.Release(path)
		})
	}, nil
}

// heartbeatFails is how many heartbeats in a row fail to refresh a lock
// before its heartbeat says so.
const heartbeatFails = 3

// heartbeat refreshes the modification time of the lock h every lockBeat
// until stop closes, then closes done. A lock no longer the file it took
// (removed, taken over) is lost: said once (heldLock.check) and no
// longer refreshed. A refresh that fails heartbeatFails times in a row
// is said once on h.note: the lock may then be taken over as stale.
func heartbeat(h *heldLock, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(lockBeat)
	defer t.Stop()
	fails, said := 0, false
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if h.check() != nil {
				return
			}
			now := time.Now()
			if err := os.Chtimes(h.path, now, now); err == nil {
				fails = 0
			} else if fails++; fails >= heartbeatFails && !said && h.note != nil {
				said = true
				fmt.Fprintf(h.note, "cfgfuzz: the heartbeat of %s cannot refresh it (%v, %d times in a row): a process that cannot check this one takes the lock over once it is %s old\n", h.path, err, fails, lockStale)
			}
		}
	}
}

// watchLock watches the lock o (the file fi) of an owner this process
// cannot check until its heartbeat decides: refreshed, it is held; not
// refreshed for lockStale (by its age, or by the time watched), and
// watched for two heartbeats at least, it is stale. again is true when
// the lock went or was replaced meanwhile: it is to be read again. now
// is the lock's file as last read.
func watchLock(dir, path string, o lockOwner, fi os.FileInfo, note io.Writer) (v lockVerdict, why string, now os.FileInfo, again bool) {
	began := time.Now()
	least := 2 * lockBeat
	wait := min(max(least, lockStale-time.Since(fi.ModTime())), lockStale)
	fmt.Fprintf(note, "cfgfuzz: %s is locked by process %d on %s (%s), which this process cannot check (%s): watching its heartbeat for up to %s\n", dir, o.pid, o.host, path, o.elsewhere(thisOwner()), wait.Round(time.Second))
	for {
		watched := time.Since(began)
		if age := time.Since(fi.ModTime()); watched >= least && (age > lockStale || watched >= lockStale) {
			return lockStaleNow, fmt.Sprintf("its heartbeat stopped: not refreshed for %s (a lock is stale after %s)", max(age, watched).Round(time.Second), lockStale), fi, false
		}
		time.Sleep(lockPoll)
		owner, cur, ok, bad := readLock(path)
		switch {
		case bad != nil || cur == nil || !ok || owner != o || !os.SameFile(cur, fi):
			return 0, "", nil, true
		case !cur.ModTime().Equal(fi.ModTime()):
			return lockHeld, "", cur, false // refreshed: its owner is alive
		}
	}
}

// takeOver removes the stale lock judged from the file fi at path, inside
// the takeover lock, as long as path is still that file and unrefreshed:
// the caller then takes the lock as any process does. A takeover lock
// whose process died in the middle is removed once lockStale old.
func takeOver(path string, fi os.FileInfo, me string) error {
	mutex := path + takeoverSuffix
	for {
		err := createLock(mutex, me)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return err
		}
		if m, err := os.Lstat(mutex); err == nil && time.Since(m.ModTime()) > lockStale {
			if again, err := os.Lstat(mutex); err == nil && os.SameFile(again, m) {
				os.Remove(mutex)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	tidy.Hold(mutex, []byte(me))
	defer tidy.Release(mutex)
	if cur, err := os.Lstat(path); err == nil && os.SameFile(cur, fi) && cur.ModTime().Equal(fi.ModTime()) {
		return ignoreMissing(os.Remove(path))
	}
	return nil
}

// ignoreMissing is err, but nil for a file that is not there.
func ignoreMissing(err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// createLock makes the lock file path holding content, whole, or fails
// with os.ErrExist when path exists.
func createLock(path, content string) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	f, err := tidy.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	defer func() { os.Remove(tmp); tidy.Forget(tmp) }()
	if err != nil {
		return err
	}
	if err = os.Link(tmp, path); err == nil || errors.Is(err, os.ErrExist) {
		return err
	}
	// A file system without hard links: created, then written.
	f, err = os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// readLockSettled is readLock, read again for up to lockSettle while it
// does not read: a lock being written on a file system without hard
// links (createLock) is empty for a moment.
func readLockSettled(path string) (o lockOwner, fi os.FileInfo, ok bool, bad error) {
	for deadline := time.Now().Add(lockSettle); ; time.Sleep(10 * time.Millisecond) {
		if o, fi, ok, bad = readLock(path); ok || bad != nil || fi == nil || time.Now().After(deadline) {
			return o, fi, ok, bad
		}
	}
}

// foreignLock is the error of dir's lock that readLock refused (bad).
func foreignLock(dir string, bad error) error {
	return fmt.Errorf("%v; if no cfgfuzz uses %s, remove the lock", bad, dir)
}

// lockSettle bounds readLockSettled's wait.
const lockSettle = 200 * time.Millisecond

// InUse is LockDir's error naming the owner when another live process
// holds dir's lock, without taking it or watching it: what a command that
// must read the campaign first (a resume) says when the campaign is still
// being started, a new campaign when one runs there, and a night that
// commits into a state directory before it runs; nil when no live
// process holds it (a lock of an owner this process cannot check is held
// while its heartbeat is younger than LockStale), or this one does. A
// lock that readLock refuses (a named pipe) is an error naming it.
func InUse(dir string) error {
	path := filepath.Join(dir, LockFile)
	o, fi, ok, bad := readLock(path)
	if bad != nil {
		return foreignLock(dir, bad)
	}
	if !ok || heldHere(fi) || !lockLive(o, fi) {
		return nil
	}
	return inUseError(dir, path, o, fi)
}

// lockLive says, without watching it, whether the lock o (the file fi)
// is held by a live process: judgeLock's verdict, an owner it cannot
// check held while its heartbeat is younger than lockStale.
func lockLive(o lockOwner, fi os.FileInfo) bool {
	switch v, _ := judgeLock(o, fi); v {
	case lockUnchecked:
		return time.Since(fi.ModTime()) <= lockStale
	default:
		return v == lockHeld
	}
}

// inUseError says that dir is in use by the owner of its lock o, read
// from the file fi.
func inUseError(dir, path string, o lockOwner, fi os.FileInfo) error {
	if o.beat && !o.checkable(thisOwner()) {
		age := max(time.Since(fi.ModTime()), 0).Round(time.Second)
		return fmt.Errorf("%s is in use by process %d on %s (%s, refreshed by its heartbeat %s ago); if that process is gone, the lock is taken over once it has not been refreshed for %s", dir, o.pid, o.host, path, age, lockStale)
	}
	return fmt.Errorf("%s is in use by process %d on %s (%s); if that process is gone, remove the lock", dir, o.pid, o.host, path)
}

// readLock reads a lock file's owner and the file's information (nil when
// there is none); ok is false when there is none or it holds no pid and
// host. bad, an error naming the file, is a lock that is not a regular
// file (never opened to wait on) or larger than MaxLockFile (read no
// further): no lock cfgfuzz wrote.
func readLock(path string) (o lockOwner, fi os.FileInfo, ok bool, bad error) {
	f, err := openRegular(path)
	var refused *bounded.Refused
	if errors.As(err, &refused) {
		return o, nil, false, err
	}
	if err != nil {
		return o, nil, false, nil
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return o, nil, false, nil
	}
	if fi.Size() > MaxLockFile {
		return o, fi, false, bounded.TooLarge(path, MaxLockFile, "a lock")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxLockFile+1))
	if err != nil {
		return o, fi, false, nil
	}
	if len(b) > MaxLockFile {
		return o, fi, false, bounded.TooLarge(path, MaxLockFile, "a lock")
	}
	o, ok = parseLock(b)
	return o, fi, ok, nil
}
