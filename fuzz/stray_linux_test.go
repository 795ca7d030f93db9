//go:build linux

package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// TestStrayIsToldApartAndKilled: a process a server's descendant leaves
// running outside its session with an empty environment (setsid env -i)
// is adopted by cfgfuzz, reads as no server's without a wait (not as a
// process inside execve, which a judgement waits up to a second for), and
// killStrays kills it, naming its command line.
func TestStrayIsToldApartAndKilled(t *testing.T) {
	becomeSubreaper()
	if out, err := exec.Command("sh", "-c", "(setsid env -i sleep 600 </dev/null >/dev/null 2>&1 &)").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var pid int
	for deadline := time.Now().Add(5 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, p := range scanProcs() {
			if p.ppid == os.Getpid() && p.state == 'S' && commandLine(p.pid) == "sleep 600" {
				pid = p.pid
			}
		}
	}
	if pid == 0 {
		t.Fatal("the stray was not adopted by this process")
	}
	t.Cleanup(func() {
		killStrays()
		if syscall.Kill(pid, syscall.SIGKILL) == nil { // the stray, when the test failed before killing it
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
		}
	})
	found, unsure := serverProcs(os.Getpid()+1<<22, serverEnv+"=none")
	if unsure || len(found) != 0 {
		t.Errorf("serverProcs with the stray adopted: %v, unsure %v; want none and sure", found, unsure)
	}
	killed := killStrays()
	if len(killed) != 1 || killed[0].PID != pid || killed[0].Command != "sleep 600" {
		t.Fatalf("killStrays: %+v, want the stray %d (sleep 600)", killed, pid)
	}
	if st, ok := readProcStat(pid); ok && st.ppid == os.Getpid() {
		t.Errorf("the stray %d is still a child of this process (state %c)", pid, st.state)
	}
}

// strayScript is a server (protocol v1) that refuses every graph and, on
// its first graph, leaves a stray running: /bin/sleep with the argument
// mark, outside its session, with an empty environment.
func strayScript(mark string) string {
	return answerHelloV1 + `n=1; while read -r line; do n=$((n+1)); ` +
		`if [ $n = 2 ]; then (setsid env -i /bin/sleep ` + mark + ` </dev/null >/dev/null 2>&1 &); fi; ` +
		`echo "{\"id\":$n,\"outcome\":\"refused\",\"reason\":\"no\"}"; done`
}

// TestStrayNamesItsGraph: a stray a server's descendant leaves beside its
// answer to a graph is not charged to the graph (the answer stands), but
// killStrays names the graph the server was judged on when the stray was
// first noted, and StraysLine says so; a campaign's worker names its
// graphs by index.
func TestStrayNamesItsGraph(t *testing.T) {
	mark := fmt.Sprintf("3598.%d%d", os.Getpid(), time.Now().UnixNano()%1000)
	t.Cleanup(func() { killStrays() })
	killStrays() // none of another test's

	p := &Process{Argv: []string{"sh", "-c", strayScript(mark)}}
	p.noteGraph("graph 5")
	if a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second); a.Outcome != proto.Refused {
		t.Fatalf("answer %s %q, want the refusal: a stray is no graph's", a.Outcome, clip(a.Reason))
	}
	killed := killStrays()
	p.Close()
	if len(killed) != 1 || killed[0].Command != "/bin/sleep "+mark || killed[0].Graph != "graph 5" ||
		killed[0].Started != StrayStartedAfter && killed[0].Started != StrayStartedSameTick {
		t.Fatalf("killStrays: %+v; want the stray /bin/sleep %s, noted after graph 5, started after its request or in its tick", killed, mark)
	}
	if line := StraysLine(killed); !strings.Contains(line, "(/bin/sleep "+mark+"), first noted after the answer to graph 5") {
		t.Errorf("StraysLine does not name the graph: %s", line)
	}

	c := testConfig(t, 3)
	c.Workers = 1
	c.Current = SideFactory{Describe: "leaves a stray", New: func() (Side, error) {
		return &Process{Argv: []string{"sh", "-c", strayScript(mark)}}, nil
	}}
	mustRun(t, c)
	killed = killStrays()
	if len(killed) != 1 || killed[0].Graph != "graph 0" {
		t.Errorf("after a campaign, killStrays: %+v; want one stray, noted after graph 0", killed)
	}
}

// TestStrayOfTheStartUpNamesNoGraph: a stray a server leaves at its
// start-up, or while answering the hello, was there before any graph was
// sent: killStrays says the server's start-up left it and names no graph,
// however late a reading first notes it, and StraysLine says so.
func TestStrayOfTheStartUpNamesNoGraph(t *testing.T) {
	t.Cleanup(func() { killStrays() })
	killStrays() // none of another test's
	// leave starts the stray, waits until it runs /bin/sleep (its command
	// line holds the mark, which the script's does not), then 50 ms: a
	// process's start is read in clock ticks of 10 ms, and one started in
	// the tick the first graph is sent in is not counted the start-up's
	// (strayPlace: its order against the request is not known).
	leave := func(mark string) string {
		head, tail, _ := strings.Cut(mark, ".")
		return `m=` + head + `; m=$m.` + tail + `; (setsid env -i /bin/sleep $m </dev/null >/dev/null 2>&1 &); ` +
			`until grep -qsa "^/bin/sleep.$m" /proc/[0-9]*/cmdline; do :; done; sleep 0.05; `
	}
	refuse := `n=1; while read -r line; do n=$((n+1)); echo "{\"id\":$n,\"outcome\":\"refused\",\"reason\":\"no\"}"; done`
	for i, script := range []func(mark string) string{
		func(mark string) string { return leave(mark) + answerHelloV1 + refuse },
		func(mark string) string {
			return `read -r line; ` + leave(mark) + `echo '{"id":1,"outcome":"error","reason":"request: version 2"}'; ` + refuse
		},
	} {
		for run := 0; run < 3; run++ {
			mark := fmt.Sprintf("3597.%d%d%d", os.Getpid(), i, run)
			c := testConfig(t, 4)
			c.Workers = 1
			c.Current = SideFactory{Describe: "leaves a stray at its start-up", New: func() (Side, error) {
				return &Process{Argv: []string{"sh", "-c", script(mark)}}, nil
			}}
			mustRun(t, c)
			killed := killStrays()
			if len(killed) != 1 || killed[0].Command != "/bin/sleep "+mark || !killed[0].StartUp || killed[0].Graph != "" {
				t.Fatalf("script %d, run %d: killStrays: %+v; want the stray /bin/sleep %s, left at the start-up", i, run, killed, mark)
			}
			if line := StraysLine(killed); !strings.Contains(line, "(/bin/sleep "+mark+"), left at the server's start-up") || strings.Contains(line, "answer to graph") {
				t.Errorf("StraysLine does not say the start-up left it: %s", line)
			}
		}
	}
}

// TestHadAtStartUp: a process is a server's start-up's when it started no
// earlier than the server and before its first graph was sent, or was in
// a baseline read before that graph; one that started before the server
// (another server's) or after the first graph is not.
func TestHadAtStartUp(t *testing.T) {
	s := &server{startedAt: 100, firstGraph: 200}
	for _, c := range []struct {
		start uint64
		want  bool
	}{{99, false}, {100, true}, {199, true}, {200, false}, {250, false}} {
		if got := s.hadAtStartUp(7, c.start); got != c.want {
			t.Errorf("started at %d (server 100, first graph 200): %v, want %v", c.start, got, c.want)
		}
	}
	s = &server{startedAt: 100, baseline: map[int]uint64{7: 250}, startUpBaseline: true}
	if !s.hadAtStartUp(7, 250) || s.hadAtStartUp(8, 250) || s.hadAtStartUp(7, 251) {
		t.Errorf("a baseline read before the first graph: its process only is the start-up's")
	}
	s.startUpBaseline = false
	if s.hadAtStartUp(7, 250) {
		t.Errorf("a baseline read after a graph's answer is no start-up's")
	}
	s = &server{startedAt: 100, baseline: map[int]uint64{7: 50}, startUpBaseline: true}
	if s.hadAtStartUp(7, 50) {
		t.Errorf("a process started before the server is another's")
	}
}

// TestStrayPlace: a stray first noted beside a graph's answer started
// after that graph's request only when its start tick is later than the
// tick the request was sent in; one of that very tick may have started
// before it (for the first graph, at the server's start-up) and is said to
// be of either; one of an earlier tick, not the start-up's, is not the
// graph's; without the send's tick nothing is said.
func TestStrayPlace(t *testing.T) {
	s := &server{startedAt: 100, firstGraph: 200}
	for _, c := range []struct {
		start, sent uint64
		up          bool
		started     StrayStart
	}{
		{199, 200, true, StrayStartUnknown},     // before the first graph: the start-up's
		{200, 200, false, StrayStartedSameTick}, // the first graph's tick: either
		{201, 200, false, StrayStartedAfter},
		{250, 300, false, StrayStartedBefore}, // before a later graph's request
		{300, 300, false, StrayStartedSameTick},
		{99, 300, false, StrayStartedBefore}, // before the server started: another's
		{250, 0, false, StrayStartUnknown},
	} {
		up, started := s.strayPlace(7, c.start, c.sent, c.sent)
		if up != c.up || started != c.started {
			t.Errorf("started at %d, request sent at %d (server 100, first graph 200): start-up %v, %v; want %v, %v",
				c.start, c.sent, up, started, c.up, c.started)
		}
	}
}

// TestStrayOfTheFirstGraphsTick: a stray noted beside the first graph's
// answer that started in the tick its request was sent in is named with
// that graph and said to have started in that tick, before or after the
// request, not as the graph's; StraysLine words each case.
func TestStrayOfTheFirstGraphsTick(t *testing.T) {
	const pid, by = 1 << 30, "CFGFUZZ_TEST_SERVER=tick" // no process of this pid: a note only
	t.Cleanup(func() {
		straysMu.Lock()
		delete(strays, pid)
		straysMu.Unlock()
	})
	s := &server{startedAt: 100, firstGraph: 200}
	straysMu.Lock()
	strays[pid] = strayNote{start: 200, by: by}
	straysMu.Unlock()
	labelStrays(by, "graph 0", func(pid int, start uint64) (bool, StrayStart) { return s.strayPlace(pid, start, 200, 200) })
	straysMu.Lock()
	n := strays[pid]
	straysMu.Unlock()
	if n.startUp || n.graph != "graph 0" || n.started != StrayStartedSameTick {
		t.Errorf("noted %+v; want graph 0, started in its request's tick", n)
	}
	for started, want := range map[StrayStart]string{
		StrayStartedSameTick: "1 (/bin/sleep 9), first noted after the answer to graph 0, started within a clock tick of its request (before or after it: not known)",
		StrayStartedAfter:    "1 (/bin/sleep 9), first noted after the answer to graph 0, started after its request was sent",
		StrayStartedBefore:   "1 (/bin/sleep 9), first noted after the answer to graph 0, started before its request was sent (not that graph's)",
		StrayStartUnknown:    "1 (/bin/sleep 9), first noted after the answer to graph 0",
	} {
		line := StraysLine([]Orphan{{PID: 1, Command: "/bin/sleep 9", Graph: "graph 0", Started: started}})
		if !strings.HasSuffix(line, ": "+want) {
			t.Errorf("%v: StraysLine %q does not end %q", started, line, want)
		}
	}
}

// TestSentTicks: a request's ticks read back from the time since it was
// sent span one tick or two, end no later than the clock's tick now and
// hold the tick it was sent in; strayPlace calls a start in either of two
// ticks neither before nor after.
func TestSentTicks(t *testing.T) {
	s := &server{pid: os.Getpid()}
	before := clockTicksAfter(s.pid)
	if before == 0 {
		t.Skip("no comparable boot-time clock")
	}
	sentAt := time.Now()
	time.Sleep(35 * time.Millisecond)
	lo, hi := s.sentTicks(sentAt)
	now := clockTicksAfter(s.pid)
	if lo == 0 || hi < lo || hi-lo > 1 || hi > now || lo > before+1 || hi < before {
		t.Errorf("sent in tick %d (read before the send), read back as %d..%d at tick %d", before, lo, hi, now)
	}
	for start, want := range map[uint64]StrayStart{198: StrayStartedBefore, 199: StrayStartedSameTick, 200: StrayStartedSameTick, 201: StrayStartedAfter} {
		if _, got := (&server{}).strayPlace(7, start, 199, 200); got != want {
			t.Errorf("started at %d, request sent at 199..200: %v, want %v", start, got, want)
		}
	}
}

// BenchmarkRequestClock: what timing a request costs, the two /proc reads
// of clockTicksAfter against the monotonic clock a request is timed by
// (sentTicks reads the ticks back only when a stray asks).
func BenchmarkRequestClock(b *testing.B) {
	pid := os.Getpid()
	b.Run("proc-ticks", func(b *testing.B) {
		for range b.N {
			clockTicksAfter(pid)
		}
	})
	b.Run("monotonic", func(b *testing.B) {
		for range b.N {
			time.Now()
		}
	})
}
