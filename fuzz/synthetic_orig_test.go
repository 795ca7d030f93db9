// synthetic_orig_test.go: a synthetic block's orig is ignored
// (PROTOCOL.md, the func table): an adapter that serializes a default 0
// (Rust's serde, a zero-initialized C++ struct), or any other number, for
// it is read and judged exactly as one that writes -1 or leaves it out.
package fuzz

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// fixedSide answers every graph with one answer.
type fixedSide struct{ a Answer }

func (s fixedSide) Structurize(*cfg.Graph, proto.Options, time.Duration) Answer { return s.a }
func (fixedSide) Close() error                                                  { return nil }

func TestSyntheticOrigIgnored(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// The diamond, its arms joining at a synthetic block before block 3.
	answer := func(orig string) string {
		return funcAnswer(
			`{"kind":"original","orig":0,"arity":2,"merge":{"kind":"selection","merge":3},"term":{"kind":"choose","to":[1,2]}}`,
			`{"kind":"original","orig":1,"merge":{"kind":"none"},"term":{"kind":"branch","to":[3]}}`,
			`{"kind":"original","orig":2,"merge":{"kind":"none"},"term":{"kind":"branch","to":[3]}}`,
			`{"kind":"synthetic"`+orig+`,"merge":{"kind":"none"},"term":{"kind":"branch","to":[4]}}`,
			`{"kind":"original","orig":3,"merge":{"kind":"none"},"term":{"kind":"return"}}`)
	}
	orc, err := oracle.New(oracle.Options{Checks: []string{"pdom", "rules", "spirv-val", "exec", "filler", "fallback"}})
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, orig := range []string{`,"orig":-1`, `,"orig":0`, `,"orig":7`, `,"orig":-5`, ``} {
		a := (&Process{}).answer([]byte(answer(orig)), 1, g.Len())
		if a.Outcome != proto.OK {
			t.Errorf("synthetic block with %q: outcome %s (%s), want ok", orig, a.Outcome, a.Reason)
			continue
		}
		mod, err := ModuleFor(a, proto.Options{})
		if err != nil {
			t.Fatalf("synthetic block with %q: %v", orig, err)
		}
		if want == nil {
			want = mod
		} else if !bytes.Equal(mod, want) {
			t.Errorf("synthetic block with %q: a module other than with orig -1", orig)
		}
		o := corpus.Judge(SideStructurizer(fixedSide{a}, proto.Options{}, time.Second), g, orc)
		if o.Err != nil || o.Failed() || len(o.Verdicts) == 0 {
			t.Errorf("synthetic block with %q: judged %s %v, want every check passed\n%s", orig, o.Signature, o.Err, fmt.Sprint(o.Verdicts))
		}
	}
}
