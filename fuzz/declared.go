// declared.go collects what the structurizers of a campaign declared in
// protocol v2 handshakes (PROTOCOL.md, "Version 2") for its report: each
// worker notes its sides' declarations when it closes them; the first one
// per side is kept (every worker runs the same command with the same
// options).

package fuzz

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// Declarations are the sides' v2 declarations by side ("current",
// "baseline"); a side that declared nothing (v1, in-process) is absent.
type Declarations map[string]*proto.HelloAnswer

// declaredSink gathers declarations from the workers.
type declaredSink struct {
	mu sync.Mutex
	d  Declarations
}

// note records what side declared for opt, if it is a Process that did.
func (s *declaredSink) note(name string, side Side, opt proto.Options) {
	p, ok := side.(*Process)
	if !ok || s == nil {
		return
	}
	h := p.Declared(opt)
	if h == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.d == nil {
		s.d = Declarations{}
	}
	if s.d[name] == nil {
		s.d[name] = h
	}
}

func (s *declaredSink) get() Declarations {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.d
}

// declaredLine says in a sentence what one side declared; named says the
// side's description already gave its name (namedBySpec), which is then
// not said again.
func declaredLine(side string, h *proto.HelloAnswer, named bool) string {
	pr, _ := json.Marshal(h.Promises)
	if named {
		return fmt.Sprintf("The %s side's protocol v2 hello promises %s.", side, pr)
	}
	return fmt.Sprintf("The %s side declares itself %q (protocol v2): %s.", side, h.Name, pr)
}

// sideSpec is the spec of side ("current", "baseline") in s.
func sideSpec(s *Settings, side string) string {
	if side == "baseline" {
		return s.Baseline
	}
	return s.Current
}
