// process.go defines Process, a Side that runs a structurizer as a child
// process speaking protocol v1 on its standard input and output. The child
// is started lazily, killed (its whole process group) when an answer takes
// longer than the limit, and started again for the next graph when it died:
// a hang or a crash costs one graph, never the campaign.
package fuzz

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// ProcessFactory runs argv (program and arguments) in dir ("" the current
// directory) as a protocol v1 server, one per worker.
func ProcessFactory(describe string, argv []string, dir string) SideFactory {
	return SideFactory{Describe: describe, New: func() (Side, error) {
		if len(argv) == 0 {
			return nil, fmt.Errorf("empty structurizer command")
		}
		if _, err := exec.LookPath(argv[0]); err != nil {
			return nil, err
		}
		return &Process{Argv: argv, Dir: dir}, nil
	}}
}

// Process is a structurizer child process. The zero value with Argv set is
// ready; Starts counts the processes started (1 + restarts).
type Process struct {
	Argv   []string
	Dir    string
	Starts int

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // response lines; closed when stdout ends
	stderr *tailBuffer
	nextID int64
}

func (p *Process) start() error {
	cmd := exec.Command(p.Argv[0], p.Argv[1:]...)
	cmd.Dir = p.Dir
	setProcessGroup(cmd)
	cmd.WaitDelay = time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	p.stderr = &tailBuffer{max: 8 << 10}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	p.cmd, p.stdin, p.lines = cmd, in, make(chan []byte, 1)
	p.Starts++
	go readLines(out, p.lines)
	return nil
}

func readLines(r io.Reader, out chan<- []byte) {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && err == nil {
			out <- line
		}
		if err != nil {
			close(out)
			return
		}
	}
}

// Structurize sends one request and waits for its answer.
func (p *Process) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	if p.cmd == nil {
		if err := p.start(); err != nil {
			return Answer{Outcome: proto.Error, Reason: "start " + p.Argv[0] + ": " + err.Error()}
		}
	}
	p.nextID++
	req := proto.Request{V: proto.Version, ID: p.nextID, Graph: cfg.FormatCompact(g), Weights: weightsOf(g), Options: opt}
	b, _ := json.Marshal(req)
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		return p.died()
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return p.died()
			}
			var resp proto.Response
			if err := json.Unmarshal(line, &resp); err != nil {
				p.kill()
				return Answer{Outcome: OutCrash, Reason: "protocol: bad response line: " + firstLine(string(line))}
			}
			if resp.ID != req.ID {
				continue // a stale answer to a request that timed out
			}
			return Answer{Outcome: resp.Outcome, Reason: resp.Reason, Stats: resp.Stats, Module: resp.Module, Func: resp.Func}
		case <-t.C:
			p.kill()
			return Answer{Outcome: OutTimeout, Reason: fmt.Sprintf("no answer within %v", limit)}
		}
	}
}

// died reaps a child whose output ended and describes how it ended: a Go
// panic in its standard error makes a panic answer, anything else a crash.
func (p *Process) died() Answer {
	err := p.cmd.Wait()
	tail := p.stderr.String()
	p.cmd = nil
	if m := panicLine.FindStringSubmatch(tail); m != nil {
		return Answer{Outcome: OutPanic, Reason: strings.TrimSpace(m[1])}
	}
	reason := "exited"
	if err != nil {
		reason = err.Error()
	}
	if s := lastLine(tail); s != "" {
		reason += ": " + s
	}
	return Answer{Outcome: OutCrash, Reason: reason}
}

var panicLine = regexp.MustCompile(`(?m)^panic: (.*)$`)

func (p *Process) kill() {
	if p.cmd == nil {
		return
	}
	killProcessGroup(p.cmd)
	p.stdin.Close()
	p.cmd.Wait()
	p.cmd = nil
	go drain(p.lines) // let the reader of the dead child's output finish
}

func drain(ch <-chan []byte) {
	for range ch {
	}
}

// Close ends the child: standard input closed, then killed if it lingers.
func (p *Process) Close() error {
	if p.cmd == nil {
		return nil
	}
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	go drain(p.lines)
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		killProcessGroup(p.cmd)
		<-done
	}
	p.cmd = nil
	return nil
}

func weightsOf(g *cfg.Graph) []int {
	if g.TotalWeight() == 0 {
		return nil
	}
	w := make([]int, g.Len())
	for b := range w {
		w[b] = g.Weight(b)
	}
	return w
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func lastLine(s string) string {
	s = string(bytes.TrimSpace([]byte(s)))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
