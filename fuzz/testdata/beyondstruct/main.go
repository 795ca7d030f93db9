// Command beyondstruct is a test-only structurizer with a region model of
// its own, written apart from cfgfuzz's structurizer package (it imports
// nothing of cfgfuzz: its graph parser, its protocol loop and its module
// emitter are its own). It speaks protocol v1, and v2 with --declare, and
// answers in the func form, or with --form module with SPIR-V it lays out
// itself.
//
// The region model follows Ramsey's "Beyond Relooper" (2022) translation
// of a reducible graph into WebAssembly's blocks and loops, lowered to
// SPIR-V through loops alone:
//
//   - Irreducible parts first become reducible the Relooper's way: every
//     strongly connected component with several entries, found on the loop
//     nesting forest from the outside in, gets a dispatcher block of its own
//     that switches on one label variable; every edge into an entry goes to
//     the dispatcher instead and stores the entry's number on the way.
//   - The dominator tree then drives the layout. A node whose dominator tree
//     children include merge nodes (two or more forward predecessors) is
//     wrapped, once per merge child, in a loop that runs once: its own
//     synthetic header, a synthetic continue target nothing reaches, and the
//     merge child as its merge block. Every forward edge to a merge node is a
//     break out of that loop.
//   - A loop header gets a loop of its own: a synthetic header in front of
//     it, a synthetic continue target every back edge branches to, and a
//     synthetic merge block.
//   - Every other forward edge leads to a dominator tree child with one
//     predecessor, which is laid out in place.
//   - A conditional or switch is a selection whose merge is a synthetic
//     block no path reaches (every arm ends in a branch out or a return);
//     the arms of a switch that leave go through a block of their own.
//   - A branch out of several loops at once stores its target's number in
//     one pending-exit variable and breaks out of the innermost loop; the
//     merge block of each loop it passes tests the variable and breaks on,
//     continues the loop around it, or goes on to its own merge node.
//
// Blocks are laid out in reverse post-order of the branches, the blocks no
// branch reaches (unreachable merges, the once-loops' continue targets) at
// the end. Nothing is cloned. The output is deterministic and invariant
// under renumbering of the graph's blocks (every choice follows successor
// order, never block numbers), and not idempotent (every merge node costs a
// loop each time). With --declare it says so in the v2 handshake.
//
// cmd/cfgfuzz's tests build it (beyond_test.go).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

type options struct {
	Strategy  string   `json:"strategy,omitempty"`
	Inject    []string `json:"inject,omitempty"`
	Registers int      `json:"registers,omitempty"`
}

type request struct {
	V       int             `json:"v"`
	ID      int64           `json:"id"`
	Graph   string          `json:"graph"`
	Weights []int           `json:"weights"`
	Options options         `json:"options"`
	Hello   json.RawMessage `json:"hello"`
}

type stats struct {
	BlocksIn   int    `json:"blocks_in"`
	Dropped    int    `json:"dropped"`
	WordsIn    int    `json:"words_in"`
	BlocksOut  int    `json:"blocks_out"`
	Synthetic  int    `json:"synthetic"`
	Clones     int    `json:"clones"`
	WordsOut   int    `json:"words_out"`
	RouteVars  int    `json:"route_vars"`
	Fallbacks  int    `json:"fallbacks"`
	Strategy   string `json:"strategy"`
	Dispatcher int    `json:"dispatchers,omitempty"`
}

type promises struct {
	Deterministic        bool `json:"deterministic"`
	Idempotent           bool `json:"idempotent"`
	RenumberingInvariant bool `json:"renumbering_invariant"`
	Switches             bool `json:"switches"`
	Irreducible          bool `json:"irreducible"`
	MaxBlocks            int  `json:"max_blocks,omitempty"`
	MaxCloneWords        int  `json:"max_clone_words,omitempty"`
}

type helloAnswer struct {
	V        int      `json:"v"`
	Name     string   `json:"name"`
	Promises promises `json:"promises"`
}

type response struct {
	ID      int64        `json:"id"`
	Outcome string       `json:"outcome"`
	Reason  string       `json:"reason,omitempty"`
	Stats   *stats       `json:"stats,omitempty"`
	Module  []byte       `json:"module,omitempty"`
	Func    *fn          `json:"func,omitempty"`
	Hello   *helloAnswer `json:"hello,omitempty"`
}

// maxBlocks bounds the graphs served (a request beyond it is a request
// error); the v2 declaration says so.
const maxBlocks = 1 << 16

func main() {
	form := flag.String("form", "func", "answer with the structured function (func) or a SPIR-V module of its own (module)")
	declare := flag.Bool("declare", false, "speak protocol v2 and declare determinism, renumbering invariance, switches and irreducible graphs")
	regArray := flag.Bool("register-array", false, "with --form module: hold the register file in one Function array instead of a variable a register")
	bug := flag.String("bug", "", "plant a bug for trying the oracle on this layout: swap-arms (a two-way choice's arms swapped), no-pend (a break out of several loops forgets its store), skip-merge (a once-loop's merge node laid out without its test)")
	flag.Parse()
	if *form != "func" && *form != "module" {
		fmt.Fprintf(os.Stderr, "beyondstruct: --form %q: want func or module\n", *form)
		os.Exit(2)
	}
	switch *bug {
	case "", "swap-arms", "no-pend", "skip-merge":
	default:
		fmt.Fprintf(os.Stderr, "beyondstruct: unknown --bug %q\n", *bug)
		os.Exit(2)
	}
	s := server{module: *form == "module", declare: *declare, bug: *bug, regArray: *regArray}
	if err := s.serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "beyondstruct:", err)
		os.Exit(1)
	}
}

type server struct {
	module, declare, regArray bool
	bug                       string
}

func (s server) serve(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for {
		line, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			if err := enc.Encode(s.answer(line)); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func requestError(id int64, format string, args ...any) response {
	return response{ID: id, Outcome: "error", Reason: "request: " + fmt.Sprintf(format, args...)}
}

func (s server) answer(line []byte) response {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return requestError(0, "not a request: %v", err)
	}
	switch {
	case req.V == 1:
	case req.V == 2 && s.declare:
		if len(req.Hello) > 0 && string(req.Hello) != "null" {
			return response{ID: req.ID, Outcome: "ok", Hello: &helloAnswer{V: 2, Name: "beyondstruct", Promises: promises{
				Deterministic: true, RenumberingInvariant: true, Switches: true, Irreducible: true, MaxBlocks: maxBlocks}}}
		}
	default:
		return requestError(req.ID, "protocol version %d not supported", req.V)
	}
	if req.Options.Strategy != "" && req.Options.Strategy != "beyond" {
		return requestError(req.ID, "unknown strategy %q (have beyond)", req.Options.Strategy)
	}
	if len(req.Options.Inject) > 0 {
		return requestError(req.ID, "no planted faults here (use --bug)")
	}
	if req.Options.Registers < 0 || req.Options.Registers > 4096 {
		return requestError(req.ID, "registers %d out of range 0..4096", req.Options.Registers)
	}
	g, err := parseCompact(req.Graph)
	if err != nil {
		return requestError(req.ID, "graph: %v", err)
	}
	if req.Weights != nil {
		if len(req.Weights) != len(g.succ) {
			return requestError(req.ID, "weights: %d for %d blocks", len(req.Weights), len(g.succ))
		}
		for b, w := range req.Weights {
			if w < 0 || w > 1<<20 {
				return requestError(req.ID, "weights: block %d weighs %d", b, w)
			}
		}
		g.weight = req.Weights
	} else {
		g.weight = make([]int, len(g.succ))
	}
	f, st, err := structurize(g, s.bug)
	if err != nil {
		return response{ID: req.ID, Outcome: "error", Reason: err.Error()}
	}
	resp := response{ID: req.ID, Outcome: "ok", Stats: st}
	if !s.module {
		resp.Func = f
		return resp
	}
	mod, err := emitModule(f, req.Options.Registers, s.regArray)
	if err != nil {
		return response{ID: req.ID, Outcome: "error", Reason: "emit: " + err.Error(), Stats: st}
	}
	resp.Module = mod
	return resp
}

// graph is a request's graph: block b's successors and weight.
type graph struct {
	succ   [][]int
	weight []int
}

// parseCompact reads the compact notation, "{{1, 2}, {2}, {}}": list i holds
// block i's successors; a successor past the last list adds returning
// blocks up to it.
func parseCompact(s string) (*graph, error) {
	p := &parser{s: s}
	p.skip()
	if !p.eat('{') {
		return nil, p.fail("want '{'")
	}
	var succ [][]int
	p.skip()
	if !p.eat('}') {
		for {
			p.skip()
			if !p.eat('{') {
				return nil, p.fail("want '{' opening a block")
			}
			var list []int
			p.skip()
			if !p.eat('}') {
				for {
					p.skip()
					n, ok := p.number()
					if !ok {
						return nil, p.fail("want a successor")
					}
					list = append(list, n)
					p.skip()
					if p.eat('}') {
						break
					}
					if !p.eat(',') {
						return nil, p.fail("want ',' or '}'")
					}
				}
			}
			if len(list) > 1<<16 {
				return nil, p.fail("too many successors")
			}
			succ = append(succ, list)
			if len(succ) > maxBlocks {
				return nil, p.fail("more than %d blocks", maxBlocks)
			}
			p.skip()
			if p.eat('}') {
				break
			}
			if !p.eat(',') {
				return nil, p.fail("want ',' or '}'")
			}
		}
	}
	p.skip()
	if p.i != len(p.s) {
		return nil, p.fail("trailing text")
	}
	n := max(len(succ), 1)
	for _, l := range succ {
		for _, t := range l {
			if t >= maxBlocks {
				return nil, fmt.Errorf("successor %d: more than %d blocks", t, maxBlocks)
			}
			n = max(n, t+1)
		}
	}
	for len(succ) < n {
		succ = append(succ, nil)
	}
	return &graph{succ: succ}, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) fail(format string, args ...any) error {
	return fmt.Errorf("at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *parser) skip() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		case '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *parser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *parser) number() (int, bool) {
	start, n := p.i, 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		n = n*10 + int(p.s[p.i]-'0')
		if n > 1<<30 {
			return 0, false
		}
		p.i++
	}
	return n, p.i > start
}
