// Command server is a test-only structurizer speaking protocol v1 that
// misbehaves in one way, named by its first argument (the red-team modes
// of run.sh and process_test.go); on graphs it does not misbehave on it
// answers with this tree's structurizer. Modes:
//
//	good          answers every graph correctly, ignores versions (the control)
//	v1            a conformant v1 server (proto.Serve)
//	garbage       answers every request with a line that is not JSON
//	wrong-id      answers with another request's id
//	exit          exits with status 3 on the first request
//	panic         panics on the first request
//	invalid       answers ok with a module that is not SPIR-V
//	both          answers ok with both module and func
//	neither       answers ok with neither module nor func
//	bad-outcome   answers with an outcome the protocol does not have
//	hang          reads requests, never answers
//	hang-graphs   answers the protocol's hello (as v1 does, an error), never a graph
//	slow          writes its answer one byte every 100 ms
//	huge-line     writes a 100 MB line (then the answer)
//	endless       writes bytes without a newline, forever
//	detach        starts a detached child (setsid) on each request, answers
//	detach-exit   starts a detached child (setsid), then exits
//	detach-deep   a child that starts a detached grandchild and exits, then answers
//	leak          answers, leaving a child running on every graph of 3 blocks or more
//	leak-orphan   answers, leaving the orphan of a child that exited (in its process
//	              group, as `system("sleep 1000 &")` does) on every graph of 3 blocks or more
//	subreaper-leak  a child subreaper that, on every graph of 3 blocks or
//	              more, starts a child that starts a grandchild and waits
//	              to be killed, reaps the child, answers
//	helper        starts a child and a detached child before it reads its input and
//	              keeps them; answers every graph correctly
//	closed-stdout closes its standard output and keeps running
//	ignore-stdin  never reads its standard input, sleeps
//	blank-line    writes a blank line before every answer (allowed)
//	huge-orig     answers with a func whose first original block is 10^12
//	huge-func     answers with its func and 100,000 more return blocks
//	empty-block   answers with its func, the first block written {}
//	stderr-flood  writes 10 MB to standard error for every request, answers
//	no-registers  answers with a module made without the register file that
//	              options.registers asks for
//	nondet        names its first block differently on every answer (v1)
//	v2-nondet     the same, speaking v2 and declaring itself not deterministic
//	v2-limited    a conformant v2 server declaring no switches, no
//	              irreducible graphs and at most 6 blocks; it exits with
//	              status 4 if it gets such a graph anyway
//	v2-dupkey     answers the hello with v2 and its promises, its object
//	              writing the promises twice ("Promises": none), and every
//	              graph correctly
//	hostile       a v2 server that puts Payload (HTML, Markdown, XML and
//	              terminal control text) in every field it answers: its
//	              declared name, refusal and error reasons, stats, block
//	              names, fallback reports, standard error, panics and crash
//	              headlines, one of these by the graph's block count
//
// The detached children run `server linger`, which sleeps for an hour.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func main() {
	mode := "good"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	switch mode {
	case "linger":
		time.Sleep(time.Hour)
		return
	case "linger-short": // exiting's child: ends on its own 200 ms later
		time.Sleep(200 * time.Millisecond)
		return
	case "linger-parent": // detach-deep's child: a detached grandchild, then exit
		detach()
		return
	case "linger-orphan": // leak-orphan's child: a grandchild in its group, then exit
		exec.Command(os.Args[0], "linger").Start()
		return
	case "linger-parent-wait": // subreaper-leak's child: a grandchild, then wait
		exec.Command(os.Args[0], "linger").Start()
		time.Sleep(time.Hour)
		return
	case "helper":
		exec.Command(os.Args[0], "linger").Start()
		detach()
	case "closed-stdout":
		os.Stdout.Close()
		time.Sleep(time.Hour)
		return
	case "ignore-stdin":
		time.Sleep(time.Hour)
		return
	case "endless":
		endless()
		return
	case "v1":
		proto.Serve(os.Stdin, os.Stdout, proto.Local(false))
		return
	case "v2-limited":
		limited()
		return
	case "hostile":
		hostile()
		return
	case "nondet", "v2-nondet":
		nondeterministic(mode == "v2-nondet")
		return
	}
	serve(mode)
}

func serve(mode string) {
	if mode == "subreaper-leak" {
		becomeSubreaper()
	}
	local := proto.Local(false)
	localModule := proto.Local(true)
	w := bufio.NewWriter(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 64<<20)
	for sc.Scan() {
		var req proto.Request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			continue
		}
		resp := local(req)
		resp.ID = req.ID
		switch mode {
		case "garbage":
			fmt.Fprintln(w, "hello, this is not json")
			w.Flush()
			continue
		case "wrong-id":
			resp.ID = req.ID + 1000
		case "exit":
			os.Exit(3)
		case "panic":
			panic("redteam: panic mode")
		case "invalid":
			if resp.Outcome == proto.OK {
				resp.Func, resp.Module = nil, []byte("not spir-v at all")
			}
		case "both":
			if m := localModule(req); m.Outcome == proto.OK {
				resp.Module = m.Module
			}
		case "neither":
			if resp.Outcome == proto.OK {
				resp.Func = nil
			}
		case "bad-outcome":
			resp.Outcome = "splendid"
		case "hang":
			continue
		case "no-registers":
			plain := req
			plain.Options.Registers = 0
			if m := localModule(plain); m.Outcome == proto.OK {
				resp.Func, resp.Module = nil, m.Module
			}
		case "v2-dupkey":
			if req.Hello != nil {
				fmt.Fprintf(w, `{"id":%d,"outcome":"ok","hello":{"v":2,"name":"redteam/v2-dupkey","promises":{"deterministic":true,"renumbering_invariant":true,"switches":true,"irreducible":true},"Promises":{}}}`+"\n", req.ID)
				w.Flush()
				continue
			}
		case "hang-graphs":
			if req.Hello == nil {
				continue
			}
		case "slow":
			b, _ := json.Marshal(resp)
			for _, c := range append(b, '\n') {
				os.Stdout.Write([]byte{c})
				time.Sleep(100 * time.Millisecond)
			}
			continue
		case "huge-line":
			hugeLine(w)
		case "detach", "detach-exit", "detach-deep", "leak", "subreaper-leak", "exiting", "leak-orphan":
			startProcesses(mode, req)
		case "blank-line":
			fmt.Fprintln(w)
		case "huge-orig", "huge-func":
			if resp.Outcome == proto.OK && resp.Func != nil {
				enlarge(mode, resp.Func)
			}
		case "empty-block":
			if resp.Outcome == proto.OK && resp.Func != nil {
				w.Write(append(emptyFirstBlock(resp), '\n'))
				w.Flush()
				continue
			}
		case "stderr-flood":
			chunk := strings.Repeat("x", 1<<20)
			for range 10 {
				fmt.Fprintln(os.Stderr, chunk)
			}
		}
		b, _ := json.Marshal(resp)
		w.Write(append(b, '\n'))
		w.Flush()
	}
}

// enlarge makes f too large to take: one original block's id past any
// graph ("huge-orig"), or 100,000 blocks more ("huge-func").
func enlarge(mode string, f *structurizer.Func) {
	if mode == "huge-func" {
		for range 100_000 {
			f.Blocks = append(f.Blocks, structurizer.Block{Kind: structurizer.Synthetic, Orig: -1, Term: structurizer.Term{Kind: structurizer.Return}})
		}
		return
	}
	for i := range f.Blocks {
		if f.Blocks[i].Orig >= 0 {
			f.Blocks[i].Orig = 1_000_000_000_000
			return
		}
	}
}

// startProcesses starts the processes a mode leaves behind (or not) while
// it answers req: a detached child, a lingering one, an orphan, a child
// that outlives the answer by 200 ms and is reaped ("exiting"); the leak
// modes do so only for graphs of 3 blocks or more.
func startProcesses(mode string, req proto.Request) {
	switch mode {
	case "detach":
		detach()
	case "detach-exit":
		detach()
		os.Exit(1)
	case "detach-deep":
		exec.Command(os.Args[0], "linger-parent").Run()
	case "exiting":
		c := exec.Command(os.Args[0], "linger-short")
		if c.Start() == nil {
			go c.Wait()
		}
	}
	if blocks(req) < 3 {
		return
	}
	switch mode {
	case "leak":
		exec.Command(os.Args[0], "linger").Start()
	case "subreaper-leak":
		c := exec.Command(os.Args[0], "linger-parent-wait")
		if c.Start() == nil {
			go c.Wait()
		}
	case "leak-orphan":
		exec.Command(os.Args[0], "linger-orphan").Run()
	}
}

// emptyFirstBlock is the answer line of resp, a func answer, with the
// func's first block written {}.
func emptyFirstBlock(resp proto.Response) []byte {
	b, _ := json.Marshal(resp)
	var m map[string]any
	json.Unmarshal(b, &m)
	m["func"].(map[string]any)["blocks"].([]any)[0] = map[string]any{}
	b, _ = json.Marshal(m)
	return b
}

// nondeterministic serves this tree's structurizer with the entry block
// renamed on every answer: another module each time, the same semantics.
// With v2 it declares that it is not deterministic.
func nondeterministic(v2 bool) {
	local := proto.Local(false)
	n := 0
	h := func(req proto.Request) proto.Response {
		resp := local(req)
		if resp.Func != nil {
			n++
			resp.Func.Blocks[0].Name = fmt.Sprintf("entry%d", n)
		}
		return resp
	}
	var declare proto.Declare
	if v2 {
		declare = func(opt proto.Options) proto.HelloAnswer {
			a := proto.LocalDeclare(opt)
			a.Name, a.Promises.Deterministic = "redteam/v2-nondet", false
			return a
		}
	}
	proto.ServeDeclared(os.Stdin, os.Stdout, h, declare)
}

// limited serves v2 with promises narrower than the structurizer's, and
// exits when a request breaks them.
func limited() {
	local := proto.Local(false)
	h := func(req proto.Request) proto.Response {
		g, err := cfg.ParseCompact(req.Graph, cfg.Limits{})
		if err == nil && (g.Len() > 6 || !cfg.Reducible(g) || hasSwitch(g)) {
			os.Exit(4)
		}
		return local(req)
	}
	proto.ServeDeclared(os.Stdin, os.Stdout, h, func(opt proto.Options) proto.HelloAnswer {
		a := proto.LocalDeclare(opt)
		a.Name = "redteam/v2-limited"
		a.Promises.Switches, a.Promises.Irreducible, a.Promises.MaxBlocks = false, false, 6
		return a
	})
}

func hasSwitch(g *cfg.Graph) bool {
	for _, s := range g.Succs {
		if len(s) >= 3 {
			return true
		}
	}
	return false
}

// blocks is the number of blocks of req's graph, 0 for a hello.
func blocks(req proto.Request) int {
	g, err := cfg.ParseCompact(req.Graph, cfg.Limits{})
	if req.Hello != nil || err != nil {
		return 0
	}
	return g.Len()
}

// detach starts `server linger` in a session of its own and does not wait.
func detach() {
	c := exec.Command(os.Args[0], "linger")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	c.Start()
}

// hugeLine writes a line of 100 MB.
func hugeLine(w *bufio.Writer) {
	chunk := strings.Repeat("y", 1<<20)
	for range 100 {
		w.WriteString(chunk)
	}
	w.WriteString("\n")
	w.Flush()
}

// endless writes without a newline until it is killed.
func endless() {
	chunk := []byte(strings.Repeat("z", 1<<16))
	for {
		if _, err := os.Stdout.Write(chunk); err != nil {
			return
		}
	}
}

// Payload is what the hostile mode writes into every text it answers: HTML
// and script, Markdown table, code span and fence breakers, an XML CDATA
// end, control characters (ESC sequences, BEL, CR, NUL, vertical tab) and
// newlines followed by lines that forge a clean campaign's summary.
const Payload = "\x1b[2J\x1b[31mRED\x1b]0;title\x07\x01\x0b\x7f\u009b\x00 <script>alert(1)</script> a|b \\| `t` ``` ]]> *em* [l](javascript:x) &amp; \"q\" 'a'" +
	"\r0 findings (0 signatures), 0 new\n0 findings (0 signatures), 0 new\n```\n# forged <b>x</b>\n"

// hostile serves the structurizer with Payload in every answer's text:
// which field, by the graph's block count (blocks mod 7).
func hostile() {
	local := proto.Local(false)
	h := func(req proto.Request) proto.Response {
		n := strings.Count(req.Graph, "{") - 1
		switch n % 7 {
		case 0:
			return proto.Response{Outcome: proto.Refused, Reason: Payload}
		case 1:
			return proto.Response{Outcome: proto.Error, Reason: Payload}
		case 2:
			fmt.Fprint(os.Stderr, Payload)
			panic(Payload)
		case 3:
			resp := local(req)
			if resp.Func != nil {
				for i := range resp.Func.Blocks {
					resp.Func.Blocks[i].Name = Payload
				}
				resp.Stats.Fallbacks = 1
				resp.Stats.Strategy = Payload
				resp.Stats.PassesUsed = []string{"fallback: " + Payload + ": " + Payload + ": " + Payload}
			}
			return resp
		case 4:
			fmt.Fprint(os.Stderr, "error: "+Payload+"\n")
			os.Exit(1)
		case 5:
			fmt.Fprintln(os.Stdout, "not json "+strings.ReplaceAll(Payload, "\n", " "))
			os.Exit(0)
		}
		return local(req)
	}
	proto.ServeDeclared(os.Stdin, os.Stdout, h, func(opt proto.Options) proto.HelloAnswer {
		a := proto.LocalDeclare(opt)
		a.Name = "redteam/hostile " + Payload
		return a
	})
}
