// side.go defines a Side, one structurizer as a worker sees it, and its two
// implementations: InProcess, the current tree called directly (panics
// recovered, hangs cut off by a watchdog), and Process, any program that
// speaks protocol v1 (a baseline commit's cmd/structurize, an external
// structurizer), killed and restarted when it hangs or dies. Harness
// outcomes (panic, timeout, crash) are answers here, not errors: the
// campaign turns them into findings and goes on.
package fuzz

import (
	"fmt"
	"time"

	"cfgfuzz/fuzz/proto"
	"cfgfuzz/structurizer"
	"cfgfuzz/structurizer/cfg"
)

// Answer is what one side made of one graph.
type Answer struct {
	// Outcome is proto.OK, proto.Refused, proto.Error, or one of the
	// harness outcomes OutPanic, OutTimeout, OutCrash.
	Outcome string
	Reason  string
	Stats   *structurizer.Stats
	Module  []byte             // set when the side emitted the module itself
	Func    *structurizer.Func // set when the client must emit it
}

// Side structurizes graphs for one worker. Implementations are not safe for
// concurrent use: every worker makes its own.
type Side interface {
	// Structurize answers within limit; it never panics.
	Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer
	// Close releases the side (ends its process).
	Close() error
}

// SideFactory makes one worker's side. Describe names it in reports.
type SideFactory struct {
	Describe string
	New      func() (Side, error)
}

// InProcessFactory is the current tree's structurizer, called in-process.
func InProcessFactory() SideFactory {
	return SideFactory{Describe: "in-process", New: func() (Side, error) { return &InProcess{}, nil }}
}

// InProcess calls structurizer.Structurize in a goroutine. A panic is
// recovered into an OutPanic answer; a call still running after the limit is
// abandoned (Go cannot stop a goroutine) and answered OutTimeout. Leaked
// counts the abandoned calls: each keeps burning a CPU, which is why the
// campaign can run the current tree as a process instead (--isolate).
type InProcess struct {
	Leaked int
	// Fn structurizes; nil means the tree's structurizer.Structurize.
	Fn func(g *cfg.Graph, opt proto.Options) Answer
}

// Structurize runs the structurizer under the watchdog.
func (p *InProcess) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	done := make(chan Answer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- Answer{Outcome: OutPanic, Reason: fmt.Sprint(r)}
			}
		}()
		fn := p.Fn
		if fn == nil {
			fn = structureLocal
		}
		done <- fn(g, opt)
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case a := <-done:
		return a
	case <-t.C:
		p.Leaked++
		return Answer{Outcome: OutTimeout, Reason: fmt.Sprintf("no answer within %v", limit)}
	}
}

// Close does nothing.
func (p *InProcess) Close() error { return nil }

// structureLocal is the in-process equivalent of cmd/structurize's handler.
func structureLocal(g *cfg.Graph, opt proto.Options) Answer {
	if err := proto.CheckOptions(opt); err != nil {
		return Answer{Outcome: proto.Error, Reason: proto.RequestError + err.Error()}
	}
	if err := g.Validate(cfg.Limits{}); err != nil {
		return Answer{Outcome: proto.Error, Reason: proto.RequestError + "graph: " + err.Error()}
	}
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: opt.Strategy, Inject: opt.Inject})
	if err != nil {
		if r, ok := err.(*structurizer.Refusal); ok {
			return Answer{Outcome: proto.Refused, Reason: r.Reason}
		}
		return Answer{Outcome: proto.Error, Reason: err.Error()}
	}
	return Answer{Outcome: proto.OK, Stats: &res.Stats, Func: res.Func}
}
