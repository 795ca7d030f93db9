// unsupported_test.go: a switch too wide for one instruction is the typed
// UnsupportedError, not a module whose word counts wrap.
package emit

import (
	"errors"
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
			if !errors.As(err, &ue) || ue.Op != spirv.OpSwitch || ue.Words <= spirv.MaxWords {
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
				widest = max(widest, in.Words())
			}
		}
		if widest > spirv.MaxWords || widest < spirv.MaxWords-32 {
			t.Fatalf("%s: widest switch %d words, want just within %d", c.name, widest, spirv.MaxWords)
		}
	}
}
