// Package proto defines protocols v1 and v2, the JSON-lines conversation between
// cfgfuzz and a structurizer running as a process (cmd/structurize, a
// baseline commit built from it, or any other project's structurizer):
// one Request per line in, one Response per line out, in order. PROTOCOL.md
// in the parent directory is the normative description.
//
// proto.go defines the messages, their outcomes, Serve and ServeDeclared
// (the loops a server runs) and Local and LocalDeclare (the handler over
// this tree's structurizer and what it promises); hello.go the v2
// handshake.
package proto

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Version is the protocol version a Request carries in "v".
const Version = 1

// Options are the structurizer options of one request. The zero value is
// the server's default strategy with no planted faults.
type Options struct {
	Strategy string   `json:"strategy,omitempty"`
	Inject   []string `json:"inject,omitempty"`
	// Registers is the register-file workload's size a module must carry
	// (emit/CONVENTION.md, version 1.1); 0 none. A server that answers
	// with a structured function leaves it to the client.
	Registers int `json:"registers,omitempty"`
}

// Request asks for one graph to be structurized.
type Request struct {
	// V is the protocol version: 1, or 2 after a v2 handshake (and on
	// the hello itself).
	V int `json:"v"`
	// ID is echoed in the response. PROTOCOL.md makes an id an unsigned
	// 64-bit integer; cfgfuzz numbers its requests from 1 and never
	// reaches 2^63, so an int64 holds every id it sends (a line whose id
	// does not fit is a bad request to Serve).
	ID int64 `json:"id"`
	// Graph is the graph in compact notation, e.g. "{{1,2},{2},{}}".
	Graph string `json:"graph"`
	// Weights gives each block's weight in SPIR-V words; nil means all 0.
	Weights []int   `json:"weights,omitempty"`
	Options Options `json:"options"`
	// Hello, in protocol v2 only, makes the request a handshake (no
	// graph): see hello.go.
	Hello *Hello `json:"hello,omitempty"`
}

// Outcome of one request as the server reports it.
const (
	OK      = "ok"      // structured: Module or Func is set
	Refused = "refused" // a typed refusal: Reason says why (stable, no ids)
	// Error: the structurizer failed on the graph (a finding), or, with a
	// reason starting with RequestError, the request could not be served
	// (bad graph, unknown option: a harness error, not a finding).
	Error = "error"
)

// RequestError prefixes the reason of an error about the request itself.
const RequestError = "request: "

// Response answers one Request.
type Response struct {
	ID      int64  `json:"id"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	// Stats are the structurizer's statistics (free-form for other
	// projects; cfgfuzz reads blocks_out, clones, route_vars, fallbacks).
	Stats *structurizer.Stats `json:"stats,omitempty"`
	// Module is the SPIR-V binary following the module convention
	// (base64 in JSON). Exactly one of Module and Func is set when
	// Outcome is "ok".
	Module []byte `json:"module,omitempty"`
	// Func is the structured function in its documented JSON form; the
	// client emits the module itself. A synthetic block's orig is
	// ignored: -1, left out or any other number read alike.
	Func *structurizer.Func `json:"func,omitempty"`
	// Hello answers a v2 handshake (outcome "ok").
	Hello *HelloAnswer `json:"hello,omitempty"`
}

// Handler serves one request. It may panic: Serve does not recover, so a
// panicking structurizer kills the process and the client sees a crash.
type Handler func(Request) Response

// Serve reads requests from r and writes one response line per request to
// w, flushing after each, until r ends: protocol v1 only (a v2 hello gets
// the version error). Each response carries its request's id, whatever
// the handler put in Response.ID. A line that is not a request gets an
// "error" response with id 0; blank lines are skipped.
func Serve(r io.Reader, w io.Writer, h Handler) error {
	return ServeDeclared(r, w, h, nil)
}

// ServeDeclared is Serve speaking protocol v2 as well when declare is not
// nil: a hello is answered with declare's answer for its options, and
// requests of version 1 or 2 are served alike.
func ServeDeclared(r io.Reader, w io.Writer, h Handler, declare Declare) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 64<<20)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		if err := enc.Encode(serveLine(line, h, declare)); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

// serveLine answers one request line.
func serveLine(line []byte, h Handler, declare Declare) Response {
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return Response{Outcome: Error, Reason: RequestError + "bad request: " + err.Error()}
	}
	switch {
	case req.V == Version:
	case req.V == Version2 && declare != nil:
		if req.Hello != nil {
			hello := declare(req.Hello.Options)
			hello.V = Version2
			return Response{ID: req.ID, Outcome: OK, Hello: &hello}
		}
	case req.V == Version2:
		return Response{ID: req.ID, Outcome: Error, Reason: fmt.Sprintf(RequestError+"protocol version %d not supported (want %d)", req.V, Version)}
	default:
		return Response{ID: req.ID, Outcome: Error, Reason: fmt.Sprintf(RequestError+"protocol version %d not supported (want %d or %d)", req.V, Version, Version2)}
	}
	resp := h(req)
	resp.ID = req.ID
	return resp
}

// LocalDeclare is what this tree's structurizer promises: deterministic
// and renumbering-invariant with every strategy, idempotent with every
// strategy but dispatch (a dispatch loop's own CFG is a loop again), every
// graph the default limits allow, copies only of blocks of at most
// structurizer.CloneMaxWeight words.
func LocalDeclare(opt Options) HelloAnswer {
	strategy := opt.Strategy
	if strategy == "" {
		strategy = structurizer.DefaultStrategy
	}
	return HelloAnswer{Name: "cfgfuzz/" + strategy, Promises: Promises{
		Deterministic: true, RenumberingInvariant: true, Idempotent: strategy != "dispatch",
		Switches: true, Irreducible: true, MaxBlocks: cfg.DefaultLimits.MaxBlocks,
		MaxCloneWords: structurizer.CloneMaxWeight}}
}

// Local is the handler of this tree's structurizer: the graph parsed from
// compact notation, structurized, and answered with the module (emitted
// here) when module is true, else with the structured function. It does not
// recover from panics.
func Local(module bool) Handler {
	return func(req Request) Response {
		g, err := cfg.ParseCompact(req.Graph, cfg.Limits{})
		if err != nil {
			return Response{Outcome: Error, Reason: RequestError + "graph: " + err.Error()}
		}
		if req.Weights != nil {
			if len(req.Weights) != g.Len() {
				return Response{Outcome: Error, Reason: fmt.Sprintf(RequestError+"weights: %d for %d blocks", len(req.Weights), g.Len())}
			}
			g.Weights = append([]int(nil), req.Weights...)
			if err := g.Validate(cfg.Limits{}); err != nil {
				return Response{Outcome: Error, Reason: RequestError + "weights: " + err.Error()}
			}
		}
		if err := CheckOptions(req.Options); err != nil {
			return Response{Outcome: Error, Reason: RequestError + err.Error()}
		}
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: req.Options.Strategy, Inject: req.Options.Inject})
		if err != nil {
			if r, ok := err.(*structurizer.Refusal); ok {
				return Response{Outcome: Refused, Reason: r.Reason}
			}
			return Response{Outcome: Error, Reason: err.Error()}
		}
		resp := Response{Outcome: OK, Stats: &res.Stats}
		if !module {
			resp.Func = res.Func
			return resp
		}
		mod, err := emit.Bytes(res.Func, emit.Options{Registers: req.Options.Registers})
		if ue := (*emit.UnsupportedError)(nil); errors.As(err, &ue) {
			// A function the convention cannot encode goes back in func
			// form: cfgfuzz's emitter then says unsupported of it, as of
			// the in-process structurizer's (emit/CONVENTION.md "Limits").
			resp.Func = res.Func
			return resp
		}
		if err != nil {
			return Response{Outcome: Error, Reason: err.Error(), Stats: &res.Stats}
		}
		resp.Module = mod
		return resp
	}
}

// WithFaults is h with faults planted in every request, whatever the
// request asks: a server with a bug of its own (`cfgfuzz structurize
// --inject`, `cmd/structurize --inject`). Unknown names are CheckOptions'
// errors, answered to every request.
func WithFaults(h Handler, faults []string) Handler {
	if len(faults) == 0 {
		return h
	}
	return func(req Request) Response {
		req.Options.Inject = append(slices.Clone(req.Options.Inject), faults...)
		return h(req)
	}
}

// CheckOptions reports an unknown strategy or fault name.
func CheckOptions(o Options) error {
	if o.Registers < 0 || o.Registers > emit.MaxRegisters {
		return fmt.Errorf("registers %d out of range 0..%d", o.Registers, emit.MaxRegisters)
	}
	if o.Strategy != "" && !structurizer.HasStrategy(o.Strategy) {
		return fmt.Errorf("unknown strategy %q (have %v)", o.Strategy, structurizer.Strategies())
	}
	for _, f := range o.Inject {
		if !slices.Contains(structurizer.FaultNames(), f) {
			return fmt.Errorf("unknown fault %q (have %v)", f, structurizer.FaultNames())
		}
	}
	return nil
}
