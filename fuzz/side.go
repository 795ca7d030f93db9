// side.go defines a Side, one structurizer as a worker sees it, and its two
// implementations: InProcess, the current tree called directly (panics
// recovered, hangs cut off by a watchdog), and Process, any program that
// speaks protocol v1 or v2 (a baseline commit's cmd/structurize, an external
// structurizer), killed and restarted when it hangs or dies. Harness
// outcomes (panic, timeout, crash) are answers here, not errors: the
// campaign turns them into findings and goes on.

package fuzz

import (
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Answer is what one side made of one graph.
type Answer struct {
	// Outcome is proto.OK, proto.Refused, proto.Error, or one of the
	// harness outcomes OutPanic, OutTimeout, OutCrash.
	Outcome string
	Reason  string
	// NotStarted is set on an error answer of a graph whose structurizer
	// process could not be started, or started and answered nothing,
	// not even the protocol's hello, within its start-up allowance
	// (ProcessOptions.StartTimeout): a harness error, never a finding.
	NotStarted bool
	// Stopped is set on an error answer of a graph whose structurizer
	// process was still starting (it had written nothing) when the
	// campaign was stopped (stopwatch.go): the graph has no verdict,
	// neither a finding nor a harness error, and is left for --resume.
	Stopped bool
	// Signed, when set, is what the signature of a harness outcome is
	// made of instead of Reason, which adds what the signature must not
	// hold (it would make one defect many signatures): "protocol: RULE"
	// for a crash that broke the protocol, the rule broken (answer.go),
	// Reason adding what the answer held.
	Signed string
	Stats  *structurizer.Stats
	Module []byte             // set when the side emitted the module itself
	Func   *structurizer.Func // set when the client must emit it
	// Stderr is the last 8 KiB of a server's standard error when it died
	// (outcomes OutPanic and OutCrash), kept with the finding.
	Stderr string
	// Declared is what the structurizer promised in a protocol v2
	// handshake, or this tree's promises (proto.LocalDeclare) for its
	// in-process structurizer; nil when it declared nothing (v1): then
	// meta holds it to determinism and renumbering invariance, not to
	// idempotence.
	Declared *proto.Promises
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
	return SideFactory{Describe: SpecSelf, New: func() (Side, error) { return &InProcess{}, nil }}
}

// InProcess calls structurizer.Structurize on a goroutine of its own, which
// serves call after call (its stack, grown by the first graphs, stays
// grown). A panic is recovered into an OutPanic answer; a call still running
// after the limit is abandoned (Go cannot stop a goroutine) and answered
// OutTimeout, and the next call starts a fresh goroutine. Leaked counts the
// abandoned calls: each keeps burning a CPU, which is why the campaign can
// run the current tree as a process instead (--isolate). One serving
// goroutine answers on one channel, and one timer watches every call.
type InProcess struct {
	Leaked int
	// Fn structurizes; nil means the tree's structurizer.Structurize.
	Fn      func(g *cfg.Graph, opt proto.Options) Answer
	calls   chan inProcessCall // the serving goroutine's; nil: none yet
	answers chan Answer        // its answers, buffered: an abandoned call's is dropped
	watch   *time.Timer        // the limit of the call in flight; stopped between calls
}

// inProcessCall is one request to the serving goroutine.
type inProcessCall struct {
	g   *cfg.Graph
	opt proto.Options
}

// Structurize runs the structurizer under the watchdog.
func (p *InProcess) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	if p.calls == nil {
		p.calls, p.answers = make(chan inProcessCall), make(chan Answer, 1)
		go serveInProcess(p.Fn, p.calls, p.answers)
	}
	p.calls <- inProcessCall{g: g, opt: opt}
	if p.watch == nil {
		p.watch = time.NewTimer(limit)
	} else {
		p.watch.Reset(limit) // stopped, so its channel holds nothing stale
	}
	select {
	case a := <-p.answers:
		p.watch.Stop()
		return a
	case <-p.watch.C:
		p.Leaked++
		close(p.calls) // the stuck goroutine ends if its call ever returns
		p.calls, p.answers = nil, nil
		return Answer{Outcome: OutTimeout, Reason: fmt.Sprintf("no answer within %v", limit)}
	}
}

// serveInProcess answers calls until the channel closes.
func serveInProcess(fn func(g *cfg.Graph, opt proto.Options) Answer, calls <-chan inProcessCall, answers chan<- Answer) {
	if fn == nil {
		fn = structureLocal
	}
	for c := range calls {
		answers <- answerRecovered(fn, c.g, c.opt)
	}
}

// answerRecovered is fn's answer, or OutPanic with what it panicked with,
// led by the function that panicked (oracle.PanicSite).
func answerRecovered(fn func(g *cfg.Graph, opt proto.Options) Answer, g *cfg.Graph, opt proto.Options) (a Answer) {
	defer func() {
		if r := recover(); r != nil {
			a = Answer{Outcome: OutPanic, Reason: oracle.RecoveredPanic(r)}
		}
	}()
	return fn(g, opt)
}

// Close ends the serving goroutine (once its call, if stuck, returns).
func (p *InProcess) Close() error {
	if p.calls != nil {
		close(p.calls)
		p.calls, p.answers = nil, nil
	}
	return nil
}

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
	return Answer{Outcome: proto.OK, Stats: &res.Stats, Func: res.Func, Declared: localPromises(opt)}
}

// localPromises is what this tree's structurizer promises for opt, the
// promises its server declares (proto.LocalDeclare).
func localPromises(opt proto.Options) *proto.Promises {
	p := proto.LocalDeclare(opt).Promises
	return &p
}
