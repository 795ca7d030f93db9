//go:build linux

// descend_linux.go finds and kills the descendants of a structurizer
// server, detached ones included, on Linux. cfgfuzz makes itself a child
// subreaper (prctl PR_SET_CHILD_SUBREAPER) before it starts its first
// server, so a descendant whose parent dies (a daemon started with setsid,
// a double fork) is reparented to cfgfuzz instead of init. Descendants are
// recognized two ways, both read from /proc:
//   - the process tree under a running server (parent links), whatever the
//     processes did to their session, group or environment;
//   - cfgfuzz's own children whose environment holds the server's token
//     (serverEnv=TOKEN, set on every server and inherited by what it
//     starts): the reparented orphans of a server that is gone.
//
// A child of cfgfuzz whose environment reads empty may be inside execve
// (the new image's environment is not in /proc yet, though its parent saw
// the exec succeed and may have exited): the sweep looks again, for a few
// rounds, before it gives up on it.
//
// Every process found is killed (SIGKILL) and, once it is a zombie child of
// cfgfuzz, reaped, round after round until a round finds nothing alive.
// A descendant that died on its own after its parent (a zombie reparented
// to cfgfuzz, whose environment no longer reads) is reaped too when it was
// seen under the server or is still in the server's process group. A
// descendant that runs with an empty environment outside the server's
// group and is orphaned before cfgfuzz looks (its server exits on its own,
// or an intermediate process exits while the server runs) is not
// recognized: a stray (stray_linux.go), killed when cfgfuzz ends.

package fuzz

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var subreaperOnce sync.Once

// becomeSubreaper makes this process the reaper of its orphaned
// descendants; it is idempotent and best effort (an error leaves the
// process-group kill).
func becomeSubreaper() {
	subreaperOnce.Do(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// reapGroupWait bounds how long reapGroup waits for a killed process
// group's members to die.
const reapGroupWait = time.Second

// reapGroup reaps the members of the process group pgid, killed with
// SIGKILL, as they die: a member whose parent died first (a build's
// background job, after its shell) is reparented to this process, its
// subreaper once it started a server, and would stay a zombie child of
// it. It returns once no process of the group is left, or after
// reapGroupWait.
func reapGroup(pgid int) {
	for deadline := time.Now().Add(reapGroupWait); ; time.Sleep(5 * time.Millisecond) {
		var ws syscall.WaitStatus
		for {
			if pid, err := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
				break
			}
		}
		if !groupAlive(pgid) || time.Now().After(deadline) {
			return
		}
	}
}

// groupAlive says whether /proc holds a process of the process group
// pgid, a zombie included.
func groupAlive(pgid int) bool {
	for _, p := range scanProcs() {
		if p.pgrp == pgid {
			return true
		}
	}
	return false
}

// procStat is one process as /proc/PID/stat shows it.
type procStat struct {
	pid, ppid int
	pgrp      int    // its process group
	state     byte   // R, S, D, Z, ...
	start     uint64 // start time in clock ticks since boot: tells a reused pid apart
}

// readProcStat parses /proc/PID/stat; ok is false when the process is gone.
func readProcStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// The command name (field 2) is in parentheses and may hold spaces or
	// parentheses: the fields after it start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	pgrp, _ := strconv.Atoi(f[2])
	start, _ := strconv.ParseUint(f[19], 10, 64)
	return procStat{pid: pid, ppid: ppid, pgrp: pgrp, state: f[0][0], start: start}, true
}

// scanProcs reads every process of /proc.
func scanProcs() []procStat {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var ps []procStat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, ok := readProcStat(pid); ok {
			ps = append(ps, s)
		}
	}
	return ps
}

// envEntry is an environment entry sought in a process: kv itself, or,
// with prefix, any entry starting with kv (every server of this process,
// whose tokens share its pid: servers.go).
type envEntry struct {
	kv     string
	prefix bool
}

// matches says whether the environment entry e is one m seeks.
func (m envEntry) matches(e []byte) bool {
	if m.prefix {
		return bytes.HasPrefix(e, []byte(m.kv))
	}
	return string(e) == m.kv
}

// environHas says whether pid's environment has an entry m seeks. unsure
// is true when the environment reads empty: a process inside execve has
// no environment in /proc until the new image is set up, and its parent
// may already have seen the exec succeed and exited. It is true too when
// the environment cannot be read while the process is still listed: a
// process on its way out (a server's child exiting on its own once the
// server closed its input) loses its environment before it is a zombie,
// and the next round finds the zombie (adoptDead).
func environHas(pid int, m envEntry) (has, unsure bool) {
	b, err := readEnviron(pid)
	if err != nil {
		_, listed := readProcStat(pid)
		return false, listed
	}
	if len(b) == 0 {
		return false, true
	}
	for _, e := range bytes.Split(b, []byte{0}) {
		if m.matches(e) {
			return true, false
		}
	}
	return false, false
}

// readEnviron reads /proc/PID/environ (a variable for tests).
var readEnviron = func(pid int) ([]byte, error) {
	return os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
}

// descendantsOf returns the live processes under root in the process
// tree, by pid with their start times.
func descendantsOf(root int) map[int]uint64 {
	children := childrenIndex(scanProcs())
	found := map[int]uint64{}
	todo := append([]procStat(nil), children[root]...)
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if _, ok := found[p.pid]; ok || p.state == 'Z' {
			continue
		}
		found[p.pid] = p.start
		todo = append(todo, children[p.pid]...)
	}
	return found
}

func childrenIndex(procs []procStat) map[int][]procStat {
	children := map[int][]procStat{}
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p)
	}
	return children
}

// sweepDescendants kills the known processes (pid -> start time, from
// descendantsOf while their server ran) that still run, every child of this
// process whose environment has an entry env seeks, and all
// their descendants, then reaps those that end up as zombie children of
// this process, and the zombie children of this process that are known or
// in one of groups (the servers' process groups: no other child of this
// process is in one). The registered servers are neither killed nor reaped
// here: their exec.Cmd waits for them.
func sweepDescendants(env envEntry, known map[int]uint64, groups []int) {
	self := os.Getpid()
	killed := map[int]uint64{} // pid -> start time
	for round := 0; round < 100; round++ {
		procs := scanProcs()
		adoptDead(procs, self, known, groups, killed)
		alive, unsure := killRound(procs, self, env, known, killed)
		pending := reapKilled(procs, self, killed)
		if !alive && !pending && (!unsure || round >= unsureRounds) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// unsureRounds bounds how many rounds a sweep waits for a child of this
// process whose environment cannot be read yet (it is inside execve).
const unsureRounds = 40

// adoptDead adds to killed, for reapKilled, the zombie children of this
// process that are known descendants (the same pid and start time) or in
// one of groups: a server's descendant that died after its parent, and
// that nothing else will ever reap while this process runs.
func adoptDead(procs []procStat, self int, known map[int]uint64, groups []int, killed map[int]uint64) {
	for _, p := range procs {
		if p.ppid != self || p.state != 'Z' || isServer(p.pid) {
			continue
		}
		if start, ok := known[p.pid]; (ok && start == p.start) || slices.Contains(groups, p.pgrp) {
			killed[p.pid] = p.start
		}
	}
}

// killRound kills, in one scan, the live processes sweepDescendants is
// after, recording them in killed; it says whether it found any alive, and
// whether a child of this process could not be told apart yet.
func killRound(procs []procStat, self int, env envEntry, known, killed map[int]uint64) (found, unsure bool) {
	children := childrenIndex(procs)
	var todo []procStat
	for _, p := range procs {
		if start, ok := known[p.pid]; ok && start == p.start {
			todo = append(todo, p)
		}
	}
	for _, p := range children[self] {
		if p.state == 'Z' || isServer(p.pid) {
			continue
		}
		has, u := environHas(p.pid, env)
		if has {
			todo = append(todo, p)
		}
		unsure = unsure || u && !stray(p, env.kv)
	}
	seen := map[int]bool{}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[p.pid] || p.pid == self || isServer(p.pid) {
			continue
		}
		seen[p.pid] = true
		todo = append(todo, children[p.pid]...)
		if p.state == 'Z' {
			continue // dead: reapKilled reaps it if this sweep killed it
		}
		syscall.Kill(p.pid, syscall.SIGKILL)
		killed[p.pid] = p.start
		found = true
	}
	return found, unsure
}

// reapKilled waits for the killed processes that are zombie children of
// this process and forgets those that are gone or are another killed
// process's to reap; it says whether some are still dying.
func reapKilled(procs []procStat, self int, killed map[int]uint64) bool {
	byPid := map[int]procStat{}
	for _, p := range procs {
		byPid[p.pid] = p
	}
	for pid, start := range killed {
		p, ok := byPid[pid]
		if !ok || p.start != start {
			delete(killed, pid) // gone (reaped by its own parent), or a new process
			continue
		}
		if p.state != 'Z' {
			continue // still dying
		}
		if p.ppid == self {
			var ws syscall.WaitStatus
			if n, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); n == pid {
				delete(killed, pid)
			}
			continue
		}
		if _, parentKilled := killed[p.ppid]; !parentKilled {
			delete(killed, pid) // a zombie of a live process: its parent reaps it
		}
	}
	return len(killed) > 0
}

// SweepOrphans kills the processes that a cfgfuzz no longer running left
// behind (one killed by SIGKILL cannot sweep its servers' descendants):
// every process of this pid namespace whose environment names a server
// token (serverEnv=PID.N) of a PID that no longer exists. A PID that is in
// use again is taken for that cfgfuzz, and its processes are left alone;
// so are processes of another pid namespace (a container's, whose PIDs
// mean nothing here) and those whose namespace cannot be read. It returns
// those it killed; campaigns call it when they start.
func SweepOrphans() []Orphan {
	self := os.Getpid()
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return nil
	}
	procs := scanProcs()
	live := make(map[int]bool, len(procs))
	for _, p := range procs {
		live[p.pid] = p.state != 'Z'
	}
	var killed []Orphan
	for _, p := range procs {
		if p.pid == self || p.state == 'Z' {
			continue
		}
		owner, ok := serverOwner(p.pid)
		if !ok || owner == self || live[owner] {
			continue
		}
		if theirs, err := os.Readlink("/proc/" + strconv.Itoa(p.pid) + "/ns/pid"); err != nil || theirs != ns {
			continue
		}
		command := commandLine(p.pid) // read before the kill ends it
		if syscall.Kill(p.pid, syscall.SIGKILL) == nil {
			killed = append(killed, Orphan{PID: p.pid, Owner: owner, Command: command})
		}
	}
	return killed
}

// serverOwner is the cfgfuzz pid in pid's server token, when its
// environment holds one.
func serverOwner(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return 0, false
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(serverEnv+"=")); ok {
			owner, _, _ := bytes.Cut(v, []byte("."))
			n, err := strconv.Atoi(string(owner))
			return n, err == nil
		}
	}
	return 0, false
}

// serverProcs returns the live processes of the server root, by pid with
// their start times: its descendants in the process tree, and the
// orphans this process adopted that are in its process group or whose
// environment holds env (the server's serverEnv=TOKEN entry), with their
// descendants. (An environment read while its process is inside execve
// may be empty, or none of its entries, for a moment: the group needs no
// such read.) It reads the kernel's
// children lists (/proc/PID/task/TID/children): for a server without
// descendants, a directory and a file of the server's and one file of
// this process's, which is where orphans are reparented (the thread group
// leader, alive while this process runs). A kernel without those lists
// (CONFIG_PROC_CHILDREN off) is read whole (scanProcs), much slower.
// unsure says that a child of this process could not be told apart (its
// environment reads empty: it is inside execve).
func serverProcs(root int, env string) (found map[int]uint64, unsure bool) {
	found, unsure, _ = serverProcsRead(root, env)
	return found, unsure
}

// serverProcsRead is serverProcs, and says whether a process or thread
// listed in a children list or a task directory had ended (or was a
// zombie) when it was read (moved): its children were handed to another
// reaper, perhaps one read already (a subreaper in the server's tree,
// another thread), and the reading may lack them.
func serverProcsRead(root int, env string) (found map[int]uint64, unsure, moved bool) {
	if !childrenLists() {
		found, unsure = serverProcsScan(root, env)
		return found, unsure, false
	}
	self := strconv.Itoa(os.Getpid())
	todo, gone := childrenOf(root)
	if gone { // a thread of the server ended, or the server (its orphans are this process's)
		st, ok := readProcStat(root)
		moved = ok && st.state != 'Z'
	}
	adopted, _ := readChildren("/proc/" + self + "/task/" + self + "/children")
	for _, pid := range adopted {
		if pid == root || isServer(pid) {
			continue
		}
		st, ok := readProcStat(pid)
		if !ok || st.state == 'Z' {
			continue
		}
		has, u := serverOrphan(st, root, env)
		if has {
			todo = append(todo, pid)
		}
		unsure = unsure || u
	}
	found = map[int]uint64{}
	for len(todo) > 0 {
		pid := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if _, ok := found[pid]; ok {
			continue
		}
		st, ok := readProcStat(pid)
		if !ok || st.state == 'Z' {
			moved = true
			continue
		}
		found[pid] = st.start
		kids, gone := childrenOf(pid)
		todo, moved = append(todo, kids...), moved || gone
	}
	return found, unsure, moved
}

// serverOrphan says whether p, a live child this process adopted, is one
// of server root's orphans: in its process group (the environment need
// not be read), or holding its token env; unsure as environHas.
func serverOrphan(p procStat, root int, env string) (has, unsure bool) {
	if p.pgrp == root {
		return true, false
	}
	has, unsure = environHas(p.pid, envEntry{kv: env})
	if unsure && stray(p, env) {
		return false, false // no server's, and not inside execve
	}
	return has, unsure
}

// serverProcsScan is serverProcs from a scan of every process: the
// reading of a kernel without children lists, and the reference the
// tests hold serverProcs to.
func serverProcsScan(root int, env string) (found map[int]uint64, unsure bool) {
	procs := scanProcs()
	children := childrenIndex(procs)
	self := os.Getpid()
	todo := append([]procStat(nil), children[root]...)
	for _, p := range children[self] {
		if p.pid == root || p.state == 'Z' || isServer(p.pid) {
			continue
		}
		has, u := serverOrphan(p, root, env)
		if has {
			todo = append(todo, p)
		}
		unsure = unsure || u
	}
	found = map[int]uint64{}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if _, ok := found[p.pid]; ok || p.state == 'Z' {
			continue
		}
		found[p.pid] = p.start
		todo = append(todo, children[p.pid]...)
	}
	return found, unsure
}

// childrenLists says whether the kernel has children lists
// (/proc/PID/task/TID/children, CONFIG_PROC_CHILDREN).
var childrenLists = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children")
	return err == nil
})

// childrenOf lists the children of every thread of pid (none when it is
// gone, and gone is true then, or when a thread listed was gone when its
// list was read). It reads with bare system calls: it runs after answers.
func childrenOf(pid int) (kids []int, gone bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, true
	}
	var buf [4096]byte
	var tasks []string
	for {
		n, err := unix.Getdents(fd, buf[:])
		if err != nil || n <= 0 {
			break
		}
		_, _, tasks = unix.ParseDirent(buf[:n], -1, tasks)
	}
	unix.Close(fd)
	for _, t := range tasks {
		k, ok := readChildren(dir + t + "/children")
		kids, gone = append(kids, k...), gone || !ok
	}
	return kids, gone
}

// readChildren parses a children list (pids separated by spaces).
func readChildren(path string) ([]int, bool) {
	var buf [4096]byte
	b, ok := readSmall(path, buf[:])
	if !ok {
		return nil, false
	}
	var kids []int
	for _, f := range bytes.Fields(b) {
		if n, err := strconv.Atoi(string(f)); err == nil {
			kids = append(kids, n)
		}
	}
	return kids, true
}

// markFiles are the files a server's marks are read from (leak.go,
// readMark), opened on first use and kept open, each read again from its
// start after every answer: an open of a /proc file costs several reads.
type markFiles struct {
	loadavg, children *os.File
}

// lastPID reads the PID last allocated in this process's PID namespace,
// the last field of /proc/loadavg ("0.33 1.62 2.19 1/234 12345").
func (f *markFiles) lastPID() (int, bool) {
	var buf [128]byte
	b, ok := readAgain(&f.loadavg, "/proc/loadavg", buf[:])
	if !ok {
		return 0, false
	}
	fs := bytes.Fields(b)
	if len(fs) != 5 || bytes.IndexByte(fs[3], '/') < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(string(fs[4]))
	return n, err == nil && n >= 0
}

// adopted reads the children list of this process's main thread, where
// its orphans are handed; ok is false without children lists.
func (f *markFiles) adopted() (string, bool) {
	if !childrenLists() {
		return "", false
	}
	self := strconv.Itoa(os.Getpid())
	var buf [512]byte
	b, ok := readAgain(&f.children, "/proc/"+self+"/task/"+self+"/children", buf[:])
	return string(b), ok
}

// close closes the files.
func (f *markFiles) close() {
	for _, file := range []*os.File{f.loadavg, f.children} {
		if file != nil {
			file.Close()
		}
	}
	*f = markFiles{}
}

// readAgain reads the /proc file at path, open as *file (opened now when
// nil), from its start into buf, growing it if need be.
func readAgain(file **os.File, path string, buf []byte) ([]byte, bool) {
	if *file == nil {
		f, err := os.Open(path)
		if err != nil {
			return nil, false
		}
		*file = f
	}
	for {
		n, err := (*file).ReadAt(buf, 0)
		switch {
		case err == io.EOF:
			return buf[:n], true
		case err != nil:
			return nil, false
		}
		buf = make([]byte, 2*len(buf))
	}
}

// readSmall reads a file of /proc into buf, growing it if need be, with
// bare system calls.
func readSmall(path string, buf []byte) ([]byte, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	n := 0
	for {
		if n == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
		}
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if m == 0 {
			return buf[:n], true
		}
		n += m
	}
}

// commandLine is pid's command line, its arguments separated by spaces;
// its name in brackets when it has none to read (a kernel thread, a
// process that ended).
func commandLine(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err == nil && len(b) > 0 {
		return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
	}
	comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return "[" + strings.TrimSpace(string(comm)) + "]"
}
