// hooks_test.go: the test-only hooks reach the strategies, and a pass
// output the self-check rejects falls back with a reason (stage, rule)
// free of ids, the form oracle.FallbackSignature reads.
package structurizer

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// passTableGraph is irreducible: the nested pass declines it and the pass
// table runs every pass. Its diamond (blocks 3-6) keeps a selection merge
// in the layout for the hooks to drop.
const passTableGraph = "{{1, 2}, {2, 3}, {1, 3}, {4, 5}, {6}, {6}, {}}"

func TestAfterPassHookCorruptionFallsBack(t *testing.T) {
	g := passTable(t)
	clean, err := Structurize(g, Options{})
	if err != nil || clean.Stats.Fallbacks != 0 {
		t.Fatalf("clean run: %v, %+v", err, clean.Stats)
	}
	var seen []string
	hooks := &Hooks{AfterPass: func(pass string, f *Func) {
		seen = append(seen, pass)
		if pass == "layout" {
			dropFirstMerge(f)
		}
	}}
	res, err := Structurize(g, Options{Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"irreducible", "loops", "selections", "fold", "thread", "latch", "lift", "armmerge", "armbreak", "oneblock", "layout"}; !slices.Equal(seen, want) {
		t.Errorf("hook saw passes %v, want %v", seen, want)
	}
	if res.Stats.Fallbacks != 1 || len(res.Stats.PassesUsed) != 1 {
		t.Fatalf("corrupted layout: %+v, want one fallback", res.Stats)
	}
	entry := res.Stats.PassesUsed[0]
	if !strings.HasPrefix(entry, "fallback: selfcheck: R12: at block ") {
		t.Errorf("entry %q, want fallback: selfcheck: R12: at block ...", entry)
	}
	if err := SelfCheck(res.Func); err != nil {
		t.Errorf("the fallback is not structured: %v", err)
	}
}

func TestAfterPassHookPanicNamesThePass(t *testing.T) {
	g := passTable(t)
	hooks := &Hooks{AfterPass: func(pass string, f *Func) {
		if pass == "selections" {
			panic("planted")
		}
	}}
	res, err := Structurize(g, Options{Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Stats.PassesUsed; res.Stats.Fallbacks != 1 || len(got) != 1 || got[0] != "fallback: selections: panic: planted" {
		t.Errorf("stats %+v, want the entry fallback: selections: panic: planted", res.Stats)
	}
}

func TestDispatchHookCorruptsTheLayout(t *testing.T) {
	g := passTable(t)
	calls := 0
	hooks := &Hooks{Dispatch: func(f *Func) {
		calls++
		f.Blocks[len(f.Blocks)-1].Name = "corrupted"
	}}
	res, err := Structurize(g, Options{Strategy: "dispatch", Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || res.Func.Blocks[len(res.Func.Blocks)-1].Name != "corrupted" {
		t.Errorf("dispatch hook called %d times, last block %q", calls, res.Func.Blocks[len(res.Func.Blocks)-1].Name)
	}
}

func TestFallbackEntries(t *testing.T) {
	for _, c := range []struct {
		stage string
		err   error
		want  string
	}{
		{"selfcheck", &RuleError{Rule: "R6", Block: 7, What: "loop 3 left for 9"}, "selfcheck: R6: at block 7: loop 3 left for 9"},
		{"loops", errors.New("bug: loops pass on an irreducible graph"), "loops: loops pass on an irreducible graph"},
		{"irreducible", errors.New("node 4 branches to the entry"), "irreducible: node 4 branches to the entry"},
	} {
		if got := errorEntry(c.stage, c.err); got != c.want {
			t.Errorf("errorEntry(%s, %v) = %q, want %q", c.stage, c.err, got, c.want)
		}
	}
}

func passTable(t *testing.T) *cfg.Graph {
	t.Helper()
	g, err := cfg.ParseCompact(passTableGraph, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
