// preflight.go: a structurizer command that cannot run at all is the
// user's setup error, not the structurizer's failing. The shell that runs a
// command spec exits with status 127 when it cannot find the program and
// 126 when it cannot execute it (POSIX, "Command Search and Execution");
// the dynamic loader exits with 127 too when a shared library the program
// needs is missing, which its standard error says;
// left to the campaign, every graph would become a crash finding and the
// campaign would exit 1. The preflight starts one server and sends it the
// protocol's hello: a server that writes anything has run, one that exits
// with 126 or 127 having written nothing could not. One that exits with
// any other status having written nothing may only not speak version 2
// (handshake.go serves it version 1), so a second server is sent the
// one-block graph {{}} as a version 1 request, which any structurizer can
// lay out, and a third a diamond: one that ends on both too without
// writing a line fails before any graph could matter (a missing file, a
// failed initialisation), and every graph would be the same crash. For a
// caller that will call New (ResolveOptions.HandOn), a server that runs,
// or is still silent at the preflight's limit (starting slowly), is not
// ended but handed on: the factory's first New returns it, its hello's
// answer still to come, so that a campaign does not start a server for
// nothing and a slow start is not cut short. Otherwise the preflight ends
// it.

package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// preflightLimit bounds the preflight: a command the shell cannot find or
// run ends within milliseconds; a server still silent after it is handed
// on, its start-up allowance counted from its first request
// (handshake.go).
const preflightLimit = time.Second

// preflight starts one process of f and sends it the protocol v2 hello
// (which a v1 server answers with an error line). It fails when the
// command could not run (the process exited with status 126 or 127
// without writing anything) and, unless opt.LeaveEnded, when it ended
// otherwise without writing anything and further processes end the same
// way on the one-block graph and on a diamond (endsUnread). It returns f, or, with
// opt.HandOn, when the process runs (it wrote something, or is silent at
// limit), f handing that process on (handingOn); without, the process is
// ended. A process that ended otherwise is left for the campaign to
// judge, on a process of its own.
func preflight(f SideFactory, limit time.Duration, opt ResolveOptions) (SideFactory, error) {
	side, err := f.New()
	if err != nil {
		return f, fmt.Errorf("structurizer %s: %w", f.Describe, err)
	}
	p, ok := side.(*Process)
	if !ok {
		side.Close()
		return f, nil
	}
	if err := p.start(); err != nil {
		return f, fmt.Errorf("structurizer %s: %w", f.Describe, err)
	}
	p.nextID++
	if p.awaitStart(proto.Request{V: proto.Version2, ID: p.nextID, Hello: &proto.Hello{}}, limit) {
		if opt.HandOn {
			return handingOn(f, p), nil
		}
		p.end(true, 0)
		return f, nil
	}
	switch {
	case p.lastExit != 126 && p.lastExit != 127 && opt.LeaveEnded:
		return f, nil
	case p.lastExit != 126 && p.lastExit != 127:
		return f, endsUnread(f, limit)
	}
	what := "was not found"
	switch {
	case p.lastExit == 126:
		what = "could not be executed"
	case strings.Contains(p.lastTail, "error while loading shared libraries"):
		// The dynamic loader exits 127 too, its reason on standard error.
		what = "could not be loaded (a missing shared library)"
	}
	return f, fmt.Errorf("structurizer %s: the command %s (exit status %d): %s", f.Describe, what, p.lastExit, p.lastTail)
}

// probeGraphs are the graphs endsUnread sends, each to a server of its
// own: the one-block graph every structurizer can lay out, and a diamond,
// so that a structurizer whose bug is the one-block graph's (a layout that
// assumes an exit block apart from the entry) is not taken for one that
// crashes on every graph.
var probeGraphs = []struct{ name, graph string }{
	{"the one-block graph", "{{}}"},
	{"the diamond", "{{1, 2}, {3}, {3}, {}}"},
}

// endsUnread starts another process of f for each of probeGraphs, whose
// first died on the hello without writing anything, and sends it the
// graph as a version 1 request. It fails when every one of them ends
// having written nothing; as soon as one writes anything, or is silent at
// limit, it is ended and the campaign judges the structurizer.
func endsUnread(f SideFactory, limit time.Duration) error {
	how := ""
	var graphs []string
	for _, g := range probeGraphs {
		side, err := f.New()
		if err != nil {
			return nil // the campaign's own start says why
		}
		p, ok := side.(*Process)
		if !ok {
			side.Close()
			return nil
		}
		if err := p.start(); err != nil {
			return nil
		}
		p.nextID++
		if p.awaitStart(proto.Request{V: proto.Version, ID: p.nextID, Graph: g.graph}, limit) {
			p.end(true, 0)
			return nil
		}
		graphs = append(graphs, g.name+" "+g.graph)
		if how == "" {
			how = fmt.Sprintf("exit status %d", p.lastExit)
			if p.lastExit < 0 {
				how = "killed by a signal"
			}
			if p.lastTail != "" {
				how += ": " + p.lastTail
			}
		}
	}
	return fmt.Errorf("structurizer %s: the server ends before it answers anything, on the protocol's hello, on %s alike (%s), so every graph would crash it the same way; `cfgfuzz selftest --structurizer %s` shows the exchange",
		f.Describe, strings.Join(graphs, " and on "), how, ShellQuote(f.Describe))
}

// awaitStart sends req to the new server and waits, at most limit, for
// its first byte of output without reading it: the answer is left
// pending (Process.pending), for the next exchange to skip. It says
// whether the server runs: it wrote something (which no shell does that
// cannot start a program), or is silent at limit with its pipes intact.
// A server whose output ended is ended (died): lastExit and lastTail say
// how.
func (p *Process) awaitStart(req proto.Request, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	b, _ := json.Marshal(req)
	stop := p.srv.arm(deadline)
	// A write that fails finds the server's input closed: whether it
	// wrote anything before it went is what Peek tells.
	p.srv.stdin.Write(append(b, '\n'))
	_, err := p.srv.out.Peek(1)
	stop()
	switch {
	case err == nil:
		p.pending, p.pendingHello = req.ID, true
		return true
	case errors.Is(err, os.ErrDeadlineExceeded): // silent, its pipes intact
		p.pending, p.pendingHello = req.ID, true
		return true
	}
	p.died(deadline, nil)
	return false
}

// handingOn is f whose first New returns p, a running server the
// preflight started; every later New is f's. A p that no New takes runs
// until cfgfuzz exits (it dies with cfgfuzz, and a stop signal's kill of
// every server takes it).
func handingOn(f SideFactory, p *Process) SideFactory {
	var mu sync.Mutex
	return SideFactory{Describe: f.Describe, New: func() (Side, error) {
		mu.Lock()
		q := p
		p = nil
		mu.Unlock()
		if q != nil {
			return q, nil
		}
		return f.New()
	}}
}
