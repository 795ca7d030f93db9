// selftest.go defines SelfTest, the conformance suite of the structurizer
// protocol (PROTOCOL.md) that `cfgfuzz selftest` runs against a server: the
// versions it answers (the v2 hello, an unknown version), ids echoed in
// order, bad requests (a line that is not JSON, a graph out of range)
// answered as request errors, reasons that are stable and free of ids, and
// ok answers carrying exactly one of module and func that cfgfuzz can
// emit, and a module answer carrying the register file a request's
// options.registers asks for (its checksum run on the interpreter), and
// answers that leave no process running (on Linux, read as a campaign
// reads them: leak.go). The
// hello comes first, on a server of its own: a case whose graph
// the server's declared promises exclude (a switch without "switches", an
// irreducible graph without "irreducible", more blocks than "max_blocks")
// is skipped, naming the promise, as a campaign never sends such a graph.
// Each case talks to the server line by line; a server that dies is
// started again for the next case, and every server is killed at the end
// (Process.Close). The first answer after each start of a server may take
// a start-up allowance beyond the limit, as a campaign's first request of
// a new server may: the whole of ProcessOptions.StartTimeout
// (--start-timeout) until a start was seen, then, as for a campaign's
// restart that no hello probes (the suite sends each case's lines alone),
// twice the longest start seen and a second, so that a server that hangs
// on case after case costs each little more than the limit; one silent
// past the whole allowance on its first two starts has not started, and
// the cases left are skipped, saying so. A server
// whose answers come from a process it left holding its pipes after it
// exited (a wrapper script that starts its adapter in the background,
// not by exec) fails one more case, added after the others, that names
// the holders: from a second after such a server's exit a campaign
// waits at most a second for each answer, then judges it by its end.

package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// SelfTestCase is the result of one conformance case.
type SelfTestCase struct {
	Name string
	// Problem is what the server got wrong; "" passed.
	Problem string
	// Note says what the case found out (the server's version and
	// promises).
	Note string
	// Skipped says why the case was not run: the promise by which the
	// server does not serve its graph; "" it ran.
	Skipped string
	// Silent says the case failed without a line from the server: it
	// could not start, died or stayed silent.
	Silent bool
	// Sent is the last line a failed case sent the server, the request
	// its Problem is about; "" for a case that passed or sent nothing.
	Sent string
}

// NeverAnswered says the server wrote no line in any case that ran, and
// failed them all: it never started as a protocol server, so the suite
// tested nothing of its answers (a harness error, not a nonconformance).
func NeverAnswered(cases []SelfTestCase) bool {
	ran := 0
	for _, c := range cases {
		if c.Skipped != "" {
			continue
		}
		if !c.Silent {
			return false
		}
		ran++
	}
	return ran > 0
}

// SelfTestOptions tune SelfTest. The zero value is the defaults.
type SelfTestOptions struct {
	// Limit is the longest wait for one answer; 0 means 5 s.
	Limit time.Duration
	// Process are the server's answer limit and start-up allowance
	// (StartTimeout: how much longer than Limit the first answer after
	// each start may take); its zero fields are the defaults.
	Process ProcessOptions
}

// SelfTest runs the conformance suite against the server argv (in dir).
func SelfTest(argv []string, dir string, opt SelfTestOptions) []SelfTestCase {
	limit := opt.Limit
	if limit <= 0 {
		limit = 5 * time.Second
	}
	st := &selfTester{p: &Process{Argv: argv, Dir: dir, Options: opt.Process}, limit: limit}
	st.p.hello.noProbe = true // no restart is sent a hello: its allowance follows the starts seen
	defer st.p.Close()
	var out []SelfTestCase
	for _, c := range []struct {
		name   string
		run    func(*selfTester) (problem, note string)
		graphs []string // the valid graphs it sends, which the promises may exclude
	}{
		{"v2 hello answered (or refused as a version)", (*selfTester).hello, nil},
		{"v1 request answered", (*selfTester).okAnswer, []string{selfTestGraph}},
		{"ids echoed in order", (*selfTester).idsEchoed, []string{selfTestSmallGraph}},
		{"unknown version is a request error", (*selfTester).unknownVersion, nil},
		{"a line that is not JSON is a request error", (*selfTester).notJSON, nil},
		{"a bad graph is a request error", (*selfTester).badGraph, nil},
		{"reasons stable and free of ids", (*selfTester).stableReasons, nil},
		{"answer of a switch", formCase(10, selfTestSwitch), []string{selfTestSwitch}},
		{"answer of a loop", formCase(11, selfTestLoop), []string{selfTestLoop}},
		{"a module answer carries options.registers' file", (*selfTester).registers, []string{selfTestRegistersGraph}},
		{"an answer leaves no process running", (*selfTester).noLeak, []string{selfTestLeakGraph}},
	} {
		if st.unstarted >= unstartedAfter {
			out = append(out, SelfTestCase{Name: c.name, Skipped: st.notStarted()})
			continue
		}
		if why := st.unserved(c.graphs); why != "" {
			out = append(out, SelfTestCase{Name: c.name, Skipped: why})
			continue
		}
		lines := st.lines
		st.sent = ""
		problem, note := c.run(st)
		tc := SelfTestCase{Name: c.name, Problem: problem, Note: note, Silent: problem != "" && st.lines == lines}
		if problem != "" {
			tc.Sent = st.sent
		}
		out = append(out, tc)
	}
	if st.leftHolding != "" {
		out = append(out, SelfTestCase{Name: "the process started answers, not one it left", Problem: fmt.Sprintf("the process started exited; a process it left (%s) holds its pipes and answered in its place: from a second after its exit a campaign waits at most a second for each answer, and a graph answered later is a crash finding of its end; a wrapper script must exec the adapter (exec ./adapter \"$@\"), not start it in the background (ADAPTERS.md)", st.leftHolding)})
	}
	return out
}

type selfTester struct {
	p     *Process
	limit time.Duration
	lines int    // the lines the server wrote, over every case
	sent  string // the last line sent in the current case
	// promises are what the server declared in the hello; nil when it
	// speaks v1 only or the hello failed.
	promises *proto.Promises
	// answer is the last answer line read.
	answer []byte
	// leftHolding describes the processes found holding the pipes of a
	// server that had exited when a line was sent to it, and which
	// answered it (noteHeld); "" none found.
	leftHolding string
	// unstarted counts the servers that answered nothing within the
	// limit and the whole start-up allowance, before any line of any
	// server: from the second on, the cases left are not run.
	unstarted int
}

// unstartedAfter is how many servers silent past the whole start-up
// allowance end the suite: the hello's and the next case's.
const unstartedAfter = 2

// notRunPrefix starts the Skipped of the cases notStarted leaves.
const notRunPrefix = "not run: "

// notStarted is the Skipped of the cases left once unstartedAfter
// servers did not start.
func (st *selfTester) notStarted() string {
	return fmt.Sprintf(notRunPrefix+"the server answered nothing on its first %d starts, each within %v (--timeout) and %v (--start-timeout), and each case left would wait as long", unstartedAfter, st.limit, st.p.startTimeout())
}

// noteHeld, as an answer to a line sent after the server exited is read,
// looks for the processes that hold its pipes, as a wrapper that started
// its adapter in the background leaves it: one of those answered for it.
// They are ended with it (server.holders).
func (st *selfTester) noteHeld() {
	s := st.p.srv
	if st.leftHolding != "" {
		return
	}
	if holders, _, ok := pipeHolders(s.stdout, s.stdin); ok && len(holders) > 0 {
		st.leftHolding = describeProcs(holders)
		s.holders = holders
	}
}

// unserved names the promise by which the server does not serve one of
// graphs, and so why a case sending them is skipped; "" when it serves
// them all.
func (st *selfTester) unserved(graphs []string) string {
	pr := st.promises
	if pr == nil {
		return ""
	}
	for _, s := range graphs {
		g, err := cfg.ParseCompact(s, cfg.Limits{})
		if err != nil || unsupported(g, pr) == "" {
			continue
		}
		var promise string
		switch {
		case pr.MaxBlocks > 0 && g.Len() > pr.MaxBlocks:
			promise = fmt.Sprintf(`"max_blocks":%d`, pr.MaxBlocks)
		case !pr.Switches && hasSwitch(g):
			promise = `"switches":false`
		default:
			promise = `"irreducible":false`
		}
		return fmt.Sprintf("the server declares %s, so a campaign does not send it %s (unsupported: %s)", promise, s, unsupported(g, pr))
	}
	return ""
}

// send writes one raw line and reads one answer line (blank lines
// skipped), starting the server when none runs. Until the server has
// written a line the wait is the limit and its start-up allowance
// (Process.allowance); a server's first line, or its death, tells how
// long it took to start (startSeen).
func (st *selfTester) send(line string) (proto.Response, string) {
	if st.p.srv == nil {
		if err := st.p.start(); err != nil {
			return proto.Response{}, "cannot start: " + err.Error()
		}
	}
	srv, allowance := st.p.srv, st.p.allowance()
	r, problem, timedOut := st.sendLine(line, allowance)
	if allowance > 0 && !timedOut {
		st.p.startSeen = max(st.p.startSeen, time.Since(srv.began))
	}
	return r, problem
}

// sendLine is send's line and answer, within the limit and allowance from
// now; timedOut says the wait ran out.
func (st *selfTester) sendLine(line string, allowance time.Duration) (r proto.Response, problem string, timedOut bool) {
	deadline := time.Now().Add(st.limit + allowance)
	stop := st.p.srv.arm(deadline)
	defer stop()
	exited := st.p.srv.hasExited() // before the line: an answer is then another process's
	st.sent = line
	if st.p.srv.spoke {
		if extra, _ := st.p.srv.unasked(); extra != nil {
			st.p.end(true, 0)
			return proto.Response{}, unaskedLine(extra, "written before this request was sent, after its answer to the previous one").String(), false
		}
	}
	if _, err := st.p.srv.stdin.Write([]byte(line + "\n")); err != nil {
		if pastDeadline(err, deadline) && st.p.srv.hasExited() {
			a := st.p.heldOpen(deadline, nil)
			return proto.Response{}, fmt.Sprintf("no answer: the server ended (%s: %s)", a.Outcome, firstLine(a.Reason)), false
		}
		return proto.Response{}, fmt.Sprintf("%s: it stopped reading", st.p.died(deadline, nil).Reason), false
	}
	for {
		b, err := readAnswerLine(st.p.srv.out, st.p.maxAnswer())
		if err != nil {
			if pastDeadline(err, deadline) && st.p.srv.hasExited() {
				a := st.p.heldOpen(deadline, b)
				return proto.Response{}, fmt.Sprintf("no answer: the server ended (%s: %s)", a.Outcome, firstLine(a.Reason)), false
			}
			if pastDeadline(err, deadline) {
				st.p.end(true, 0)
				if st.lines == 0 && len(b) == 0 && allowance > 0 && allowance == st.p.startTimeout() {
					st.unstarted++
				}
				return proto.Response{}, withUnended(Answer{Reason: st.noAnswer(allowance)}, b).Reason, true
			}
			if err == errAnswerTooLong {
				st.p.end(true, 0)
				return proto.Response{}, "answer longer than the answer limit", false
			}
			a := st.p.died(deadline, b)
			return proto.Response{}, fmt.Sprintf("no answer: the server ended (%s: %s)", a.Outcome, firstLine(a.Reason)), false
		}
		if isBlank(b) {
			continue
		}
		st.p.srv.spoke = true
		st.lines++
		if exited {
			st.noteHeld()
		}
		st.answer = append(st.answer[:0], b...)
		r, v := decodeResponse(b)
		if v.broken() {
			st.p.end(true, 0)
			return proto.Response{}, v.String(), false
		}
		if extra, _ := st.p.srv.unasked(); extra != nil {
			st.p.end(true, 0)
			return proto.Response{}, unaskedLine(extra, "after its answer to this request").String(), false
		}
		return r, "", false
	}
}

// noAnswer is the problem of a server silent past the limit and
// allowance.
func (st *selfTester) noAnswer(allowance time.Duration) string {
	switch {
	case allowance == 0:
		return fmt.Sprintf("no answer within %v", st.limit)
	case allowance == st.p.startTimeout():
		return fmt.Sprintf("no answer within %v (--timeout) and the start-up allowance of %v (--start-timeout) after the server started", st.limit, allowance)
	}
	return fmt.Sprintf("no answer within %v (--timeout) and a restart's start-up allowance of %v after the server started (twice the longest start seen and 1s, --start-timeout at most)", st.limit, allowance.Round(time.Millisecond))
}

// request sends a v1 request for graph with id.
func (st *selfTester) request(id int64, graph string) (proto.Response, string) {
	b, _ := json.Marshal(proto.Request{V: proto.Version, ID: id, Graph: graph})
	return st.send(string(b))
}

const (
	selfTestGraph      = "{{1, 2}, {3}, {3}, {}}"
	selfTestSmallGraph = "{{1}, {}}"
	selfTestBadGraph   = "{{1}, {-1}}" // a successor that is no block
	selfTestSwitch     = "{{1, 2, 3}, {4}, {4}, {4}, {}}"
	selfTestLoop       = "{{1}, {2, 3}, {1}, {}}"
	// selfTestRegistersGraph is the registers case's: every walk of it
	// returns, so every walk has a checksum.
	selfTestRegistersGraph = "{{1, 2}, {2}, {}}"
	// selfTestLeakGraph is the leak case's.
	selfTestLeakGraph = "{{1, 2}, {2}, {}}"
)

// noLeak sends the leak case's graph twice to one server and reads the
// server's processes after each answer, as a campaign reads them after
// each graph's (leak.go): what the server had after the first answer is
// its own (its start-up's helpers), and a process new after the second
// that still runs leakGrace later is one the answer left, which a campaign
// makes a crash finding of every graph. Other systems than Linux read no
// processes, and the case passes there.
func (st *selfTester) noLeak() (string, string) {
	for i, id := range []int64{12, 13} {
		r, problem := st.request(id, selfTestLeakGraph)
		if problem == "" && r.ID != id {
			problem = fmt.Sprintf("answer id %d to request %d", r.ID, id)
		}
		if problem != "" {
			return problem, ""
		}
		if i == 0 {
			st.p.srv.takeBaseline()
		} else if leak := st.p.leaked(); leak != nil {
			return strings.TrimPrefix(leak.Reason, "protocol: ") + ", which a campaign makes a crash finding of the graph (" + LeakSignature + ")", ""
		}
	}
	return "", ""
}

func (st *selfTester) okAnswer() (string, string) {
	r, problem := st.request(1, selfTestGraph)
	if problem != "" {
		return problem, ""
	}
	if r.ID != 1 {
		return fmt.Sprintf("answer id %d to request 1", r.ID), ""
	}
	return checkOK(r, 4), ""
}

// checkOK says what is wrong with the answer to a valid graph of blocks
// blocks: it must be ok with exactly one form that emits, or a refusal
// with its reason.
func checkOK(r proto.Response, blocks int) string {
	if r.Outcome != proto.OK && r.Outcome != proto.Refused {
		return fmt.Sprintf("outcome %q (%s) on a valid graph", shownOutcome(r.Outcome), shownReason(r.Reason))
	}
	if v := checkResponse(&r, blocks); v.broken() {
		return v.String()
	}
	if r.Outcome == proto.Refused {
		return ""
	}
	if _, err := ModuleOf(Answer{Module: r.Module, Func: r.Func}); err != nil {
		return "the func does not emit: " + err.Error()
	}
	return ""
}

func (st *selfTester) idsEchoed() (string, string) {
	for _, id := range []int64{7, 8, 1 << 40} {
		r, problem := st.request(id, selfTestSmallGraph)
		if problem != "" {
			return problem, ""
		}
		if r.ID != id {
			return fmt.Sprintf("answer id %d to request %d", r.ID, id), ""
		}
	}
	return "", ""
}

// hello sends the v2 hello and keeps the promises declared; the cases
// after it talk to a server started afresh, which got no hello (v1).
func (st *selfTester) hello() (string, string) {
	b, _ := json.Marshal(proto.Request{V: proto.Version2, ID: 2, Hello: &proto.Hello{}})
	r, problem := st.send(string(b))
	st.p.Close()
	switch {
	case problem != "":
		return problem, ""
	case r.ID != 2:
		return fmt.Sprintf("answer id %d to request 2", r.ID), ""
	case r.Outcome == proto.Error && strings.HasPrefix(r.Reason, proto.RequestError):
		return "", "speaks v1 only"
	case r.Outcome != proto.OK || r.Hello == nil:
		return fmt.Sprintf("outcome %q without a hello answer; want ok with one, or a request error", shownOutcome(r.Outcome)), ""
	case r.Hello.V != proto.Version2:
		return fmt.Sprintf("hello answer of version %d, want 2", r.Hello.V), ""
	}
	if unknown := unknownPromises(st.answer); len(unknown) > 0 {
		return fmt.Sprintf("promises with unknown keys %s, which make no promise (misspelt? the keys are %s)", strings.Join(unknown, ", "), strings.Join(promiseKeys(), ", ")), ""
	}
	if p := r.Hello.Promises; p.MaxBlocks < 0 || p.MaxCloneWords < 0 {
		return fmt.Sprintf("promises max_blocks %d, max_clone_words %d: want 0 (no promise) or more", p.MaxBlocks, p.MaxCloneWords), ""
	}
	st.promises = &r.Hello.Promises
	pr, _ := json.Marshal(r.Hello.Promises)
	return "", fmt.Sprintf("speaks v2 as %q, promises %s", clipText(r.Hello.Name, maxLabel, "name"), pr)
}

// promiseKeys are the JSON keys of proto.Promises.
func promiseKeys() []string {
	var keys []string
	t := reflect.TypeFor[proto.Promises]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// unknownPromises are the keys of a hello answer's promises that
// proto.Promises does not know, quoted and sorted (none when the line
// does not read: the hello's own checks say why). A key that differs from
// one only in case is known: a campaign reads it as that one (JSON's
// case-insensitive match of a field).
func unknownPromises(answer []byte) []string {
	var a struct {
		Hello struct {
			Promises map[string]json.RawMessage `json:"promises"`
		} `json:"hello"`
	}
	if json.Unmarshal(answer, &a) != nil {
		return nil
	}
	var unknown []string
	for k := range a.Hello.Promises {
		if !slices.ContainsFunc(promiseKeys(), func(p string) bool { return strings.EqualFold(p, k) }) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	slices.Sort(unknown)
	return unknown
}

// requestError says what is wrong with an answer that must be a request
// error for id.
func requestError(r proto.Response, id int64) string {
	if r.ID != id {
		return fmt.Sprintf("answer id %d, want %d", r.ID, id)
	}
	if r.Outcome != proto.Error || !strings.HasPrefix(r.Reason, proto.RequestError) {
		return fmt.Sprintf("outcome %q, reason %q; want error, reason starting %q", shownOutcome(r.Outcome), shownReason(r.Reason), proto.RequestError)
	}
	return ""
}

func (st *selfTester) unknownVersion() (string, string) {
	r, problem := st.send(`{"v":99,"id":3,"graph":"{{1}, {}}","options":{}}`)
	if problem != "" {
		return problem, ""
	}
	return requestError(r, 3), ""
}

func (st *selfTester) notJSON() (string, string) {
	r, problem := st.send("this is not a request")
	if problem != "" {
		return problem, ""
	}
	return requestError(r, 0), ""
}

func (st *selfTester) badGraph() (string, string) {
	r, problem := st.request(4, selfTestBadGraph)
	if problem != "" {
		return problem, ""
	}
	return requestError(r, 4), ""
}

func (st *selfTester) stableReasons() (string, string) {
	var reasons []string
	for _, id := range []int64{987654321, 123456789} {
		r, problem := st.request(id, selfTestBadGraph)
		if problem != "" {
			return problem, ""
		}
		if strings.Contains(r.Reason, fmt.Sprint(id)) {
			return fmt.Sprintf("reason %q holds the request id", shownReason(r.Reason)), ""
		}
		reasons = append(reasons, r.Reason)
	}
	if reasons[0] != reasons[1] {
		return fmt.Sprintf("one bad request, two reasons: %q and %q", shownReason(reasons[0]), shownReason(reasons[1])), ""
	}
	return "", ""
}

// formCase is the case that graph g, sent with id, is answered with one
// form that emits (or refused); the note says which.
func formCase(id int64, g string) func(*selfTester) (string, string) {
	return func(st *selfTester) (string, string) {
		r, problem := st.request(id, g)
		if problem != "" {
			return problem, ""
		}
		if r.ID != id {
			return fmt.Sprintf("answer id %d to request %d", r.ID, id), ""
		}
		blocks := strings.Count(g, "{") - 1
		if msg := checkOK(r, blocks); msg != "" {
			return fmt.Sprintf("graph %s: %s", g, msg), ""
		}
		switch {
		case r.Module != nil:
			return "", "answered with module"
		case r.Func != nil:
			return "", "answered with func"
		}
		return "", "refused"
	}
}

// selfTestRegisters is the register file the registers case asks for:
// odd and small, so that on selfTestRegistersGraph a step reads a register
// it has just written (block 2: s2 = d1, N divides 2b+1) and writes one
// register twice (block 1: d1 = d2, N divides 4b+1). A module that reads
// both sources first, or writes d2 before d1, then gets the checksum
// wrong; with an even N no step aliases and the order goes untested.
const selfTestRegisters = 5

// registers asks for the register file (options.registers) and, when the
// answer is a module, runs it on the interpreter against the walks'
// checksums: a module answer must carry the file (PROTOCOL.md), a func
// answer gets it from cfgfuzz's emitter. A module that fails another way
// is left to a campaign's checks; the note says so.
func (st *selfTester) registers() (string, string) {
	b, _ := json.Marshal(proto.Request{V: proto.Version, ID: 12, Graph: selfTestRegistersGraph, Options: proto.Options{Registers: selfTestRegisters}})
	r, problem := st.send(string(b))
	if problem != "" {
		return problem, ""
	}
	if r.ID != 12 {
		return fmt.Sprintf("answer id %d to request 12", r.ID), ""
	}
	if msg := checkOK(r, 3); msg != "" {
		return fmt.Sprintf("graph %s with options.registers %d: %s", selfTestRegistersGraph, selfTestRegisters, msg), ""
	}
	switch {
	case r.Func != nil:
		return "", "answered with func: cfgfuzz emits the file itself"
	case r.Module == nil:
		return "", "refused"
	}
	g, err := cfg.ParseCompact(selfTestRegistersGraph, cfg.Limits{})
	if err != nil {
		return err.Error(), ""
	}
	res := oracle.CompareWalks(oracle.Interpreter{}, r.Module, oracle.Walks(g, oracle.WalkOptions{Registers: selfTestRegisters}))
	switch {
	case res.Signature == oracle.SigRegisters:
		return fmt.Sprintf("graph %s with options.registers %d: the module fails exec:%s (%s): a module answer must carry the register file the request asks for, each block running its step in the convention's order (PROTOCOL.md, options.registers; emit/CONVENTION.md, \"Register file\")", selfTestRegistersGraph, selfTestRegisters, res.Signature, res.Detail), ""
	case res.Harness != nil:
		return "", "answered with module; its register file not judged: " + res.Harness.Error()
	case res.Signature != "":
		return "", fmt.Sprintf("answered with module; its register file not judged: the module fails exec:%s, a campaign's finding", res.Signature)
	}
	return "", "answered with module, its register file's checksum right"
}

// FormatSelfTest writes the suite's results, one line a case, and says
// whether every case passed (a skipped case fails nothing).
func FormatSelfTest(cases []SelfTestCase) (string, bool) {
	var b bytes.Buffer
	failed, skipped, notRun := 0, 0, 0
	for _, c := range cases {
		switch {
		case c.Problem != "":
			failed++
			fmt.Fprintf(&b, "FAIL %s: %s\n", c.Name, c.Problem)
			if c.Sent != "" {
				fmt.Fprintf(&b, "     sent: %s\n", clipSent(c.Sent, sentClip))
			}
		case c.Skipped != "":
			skipped++
			notRun += btoi(strings.HasPrefix(c.Skipped, notRunPrefix))
			fmt.Fprintf(&b, "skip %s: %s\n", c.Name, c.Skipped)
		case c.Note != "":
			fmt.Fprintf(&b, "ok   %s (%s)\n", c.Name, c.Note)
		default:
			fmt.Fprintf(&b, "ok   %s\n", c.Name)
		}
	}
	fmt.Fprintf(&b, "%d cases: %d ok, %d failed, %d skipped", len(cases), len(cases)-failed-skipped, failed, skipped)
	switch {
	case notRun > 0:
		b.WriteString(" (the server did not start: the cases after its first starts were not run)")
	case skipped > 0:
		b.WriteString(" (the server's promises exclude their graphs, which a campaign then does not send either)")
	}
	b.WriteString("\n")
	return b.String(), failed == 0
}

// sentClip is the most bytes of a request a FAIL line's "sent:" shows.
const sentClip = 240

// clipSent is s cut to n bytes, "..." marking a cut.
func clipSent(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// shownReason is a reason from the server as a case's problem quotes it:
// its first maxReason bytes and a note of its length when longer, as a
// campaign keeps a reason (clipText), so that a server answering with
// megabytes gives a line that can be read.
func shownReason(reason string) string { return clipText(reason, maxReason, "reason") }

// shownOutcome is an outcome from the server as a case's problem quotes
// it, bounded as a label (maxLabel).
func shownOutcome(outcome string) string { return clipText(outcome, maxLabel, "outcome") }
