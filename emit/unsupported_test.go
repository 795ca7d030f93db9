// unsupported_test.go: a switch of more cases than SPIR-V allows, or weights
// past the module's filler limit, are the typed UnsupportedError, not a
// module whose word counts wrap or an allocation that cannot succeed; a
// switch whose cases past the limit go to its default's label is laid out
// without them.
package emit

import (
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// wideSwitch is block 0 switching to n returning blocks, and a chain of
// extra blocks before it (the dispatch loop's own switch has a case a block).
func wideSwitch(n, chain int) *cfg.Graph {
	succs := make([][]int, 0, 1+chain+n)
	for i := range chain {
		succs = append(succs, []int{i + 1})
	}
	s := make([]int, n)
	for i := range s {
		s[i] = chain + 1 + i
	}
	succs = append(succs, s)
	for range n {
		succs = append(succs, nil)
	}
	return cfg.FromSuccs(succs)
}

func TestWideSwitchUnsupported(t *testing.T) {
	for _, c := range []struct {
		name        string
		g           *cfg.Graph
		unsupported bool
	}{
		{"just within the limit", wideSwitch(MaxSwitchCases-8, 0), false},
		{"one case more", wideSwitch(MaxSwitchCases+2, 0), true},
		{"dispatch states past the limit", wideSwitch(3, MaxSwitchCases+2), true},
	} {
		res, err := structurizer.Structurize(c.g, structurizer.Options{Strategy: "dispatch"})
		if err != nil {
			t.Fatal(err)
		}
		mod, err := Bytes(res.Func, Options{})
		var ue *UnsupportedError
		if c.unsupported {
			if !errors.As(err, &ue) || ue.Op != spirv.OpSwitch || ue.Cases <= MaxSwitchCases || !strings.Contains(err.Error(), "16383 (literal, label) pairs") {
				t.Fatalf("%s: got %v, want an UnsupportedError", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, err := spirv.Decode(mod)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		widest := 0
		for _, in := range m.Insts {
			if in.Op == spirv.OpSwitch {
				widest = max(widest, (len(in.Operands)-2)/2)
			}
		}
		if widest > MaxSwitchCases || widest < MaxSwitchCases-32 {
			t.Fatalf("%s: widest switch %d cases, want just within %d", c.name, widest, MaxSwitchCases)
		}
	}
}

// TestFillerLimit: weights that add up past MaxFillerWords are refused
// before anything is laid out, the limit itself is laid out, and a block
// heavier than any graph's block is a malformed function.
func TestFillerLimit(t *testing.T) {
	chain := func(n, w int) *structurizer.Func {
		f := &structurizer.Func{}
		for i := range n {
			term := structurizer.Term{Kind: structurizer.Branch, To: []int{i + 1}}
			if i == n-1 {
				term = structurizer.Term{Kind: structurizer.Return}
			}
			f.Blocks = append(f.Blocks, structurizer.Block{Kind: structurizer.Original, Orig: i, Weight: w, Term: term})
		}
		return f
	}
	heaviest := cfg.DefaultLimits.MaxWeight
	var ue *UnsupportedError
	if _, err := Bytes(chain(MaxFillerWords/heaviest+1, heaviest), Options{}); !errors.As(err, &ue) || ue.Reason == "" {
		t.Errorf("past the filler limit: %v, want an UnsupportedError with its reason", err)
	}
	if mod, err := Bytes(chain(MaxFillerWords/heaviest, heaviest), Options{}); err != nil || len(mod) < 4*MaxFillerWords {
		t.Errorf("at the filler limit: %d bytes, %v", len(mod), err)
	}
	if _, err := Bytes(chain(1, heaviest+1), Options{}); err == nil || errors.As(err, &ue) {
		t.Errorf("a block heavier than a graph's: %v, want a malformed function", err)
	}
}

// TestIDBound: a function that needs more ids than SPIR-V allows is
// refused as unsupported, not emitted for the validator to reject.
func TestIDBound(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out a function of a million blocks")
	}
	f := &structurizer.Func{}
	const n = 900_000 // five ids a block of weight 8
	for i := range n {
		term := structurizer.Term{Kind: structurizer.Branch, To: []int{i + 1}}
		if i == n-1 {
			term = structurizer.Term{Kind: structurizer.Return}
		}
		f.Blocks = append(f.Blocks, structurizer.Block{Kind: structurizer.Original, Orig: i, Weight: 8, Term: term})
	}
	var ue *UnsupportedError
	if _, err := Bytes(f, Options{}); !errors.As(err, &ue) || !strings.Contains(ue.Error(), "ids") {
		t.Errorf("%d blocks: %v, want an UnsupportedError for the id bound", n, err)
	}
	f.Blocks = f.Blocks[n-1000:]
	for i := range f.Blocks {
		f.Blocks[i].Orig = i
		if to := f.Blocks[i].Term.To; len(to) > 0 {
			f.Blocks[i].Term.To = []int{i + 1}
		}
	}
	if _, err := Bytes(f, Options{}); err != nil {
		t.Errorf("1,000 blocks: %v", err)
	}
}

// TestWideSwitchToTheDefault: a switch of more successors than
// MaxSwitchCases whose cases mostly go where its default goes is laid out:
// a case to the default's label is left out of the OpSwitch (the default
// takes its literal), and only the pairs written count against the limit.
func TestWideSwitchToTheDefault(t *testing.T) {
	n := MaxSwitchCases + 100
	s := make([]int, n)
	for i := range s {
		s[i] = 1 // the default's target
	}
	s[7], s[5000], s[n-1] = 2, 3, 2
	g := cfg.FromSuccs([][]int{s, {}, {}, {}})
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := Bytes(res.Func, Options{})
	if err != nil {
		t.Fatalf("a %d-way switch of 3 cases not to its default: %v", n, err)
	}
	m, err := spirv.Decode(mod)
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]uint32
	for _, in := range m.Insts {
		if in.Op != spirv.OpSwitch {
			continue
		}
		for i := 2; i+1 < len(in.Operands); i += 2 {
			if in.Operands[i+1] == in.Operands[1] {
				t.Errorf("case %d lists the default's label %d", in.Operands[i], in.Operands[1])
			}
			pairs = append(pairs, [2]uint32{in.Operands[i], in.Operands[i+1]})
		}
	}
	if len(pairs) != 3 || pairs[0][0] != 7 || pairs[1][0] != uint32(n-1) || pairs[2][0] != 5000 || pairs[0][1] != pairs[1][1] {
		t.Errorf("the OpSwitch's pairs are %v, want cases 7 and %d to one label, then 5000", pairs, n-1)
	}
}
