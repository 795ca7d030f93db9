// infoof_test.go: meta holds a structurizer to what it declares. One that
// declares nothing (protocol v1) is held to determinism and renumbering
// invariance, never to idempotence, whatever strategy its stats name; a v2
// declaration and this tree's own structurizer are held to exactly their
// promises.
package fuzz

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestInfoOfHoldsOnlyWhatIsDeclared(t *testing.T) {
	type held struct{ deterministic, renumbering, idempotent bool }
	for _, c := range []struct {
		name string
		a    Answer
		want held
	}{
		{"v1, no strategy", Answer{Outcome: proto.OK}, held{true, true, false}},
		{"v1, structured", Answer{Outcome: proto.OK, Stats: &structurizer.Stats{Strategy: "structured"}}, held{true, true, false}},
		{"v1, dispatch", Answer{Outcome: proto.OK, Stats: &structurizer.Stats{Strategy: "dispatch"}}, held{true, true, false}},
		{"v2, nothing promised", Answer{Outcome: proto.OK, Declared: &proto.Promises{}}, held{false, false, false}},
		{"v2, everything promised", Answer{Outcome: proto.OK, Declared: &proto.Promises{Deterministic: true, RenumberingInvariant: true, Idempotent: true}}, held{true, true, true}},
		{"this tree, structured", structureLocal(cfg.FromSuccs([][]int{{1, 2}, {}, {}}), proto.Options{}), held{true, true, true}},
		{"this tree, dispatch", structureLocal(cfg.FromSuccs([][]int{{1, 2}, {}, {}}), proto.Options{Strategy: "dispatch"}), held{true, true, false}},
	} {
		info := InfoOf(c.a, proto.Options{}, 0)
		got := held{!info.NotDeterministic, !info.NotRenumberingInvariant, info.Idempotent}
		if got != c.want {
			t.Errorf("%s: held to %+v, want %+v", c.name, got, c.want)
		}
	}
}
