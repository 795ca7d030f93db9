// structured_rounds_test.go: the arms group of the pass table
// (runRounds): a graph whose second round lifts a conditional that the
// first round's arm-break moved into a switch, one whose second round
// must not lift into a switch that one case alone leaves for its merge,
// and the group's postcondition, that a round which changes anything
// leaves fewer blocks.
package structurizer

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// secondRoundGraph is a loop around block 0, a switch of four targets.
// Its case 1 is a conditional (blocks 1, 2, 3, 5) whose arms both reach a
// synthetic merge that forwards to the switch's merge: the first round's
// arm-break merges it at its arm block 2, and block 2's conditional, so
// moved out of block 1's selection into the switch, is lifted by the
// second round (its merge forwarded to the switch's merge too).
const secondRoundGraph = "{{1, 4, 6, 8}, {2, 3}, {5, 6}, {7}, {}, {7}, {7}, {0}, {0}}"

// armRoundsRun structurizes g and counts the rounds of the arms group (the
// lift pass runs once per round); before and after are the Funcs before
// and after the group.
func armRoundsRun(t *testing.T, g *cfg.Graph) (res *Result, before, after *Func, rounds int) {
	t.Helper()
	hooks := &Hooks{AfterPass: func(p string, f *Func) {
		switch p {
		case "latch":
			before = copyFunc(f)
		case "lift":
			rounds++
		case "armbreak":
			after = copyFunc(f)
		}
	}}
	res, err := Structurize(g, Options{Strategy: "structured", Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	return res, before, after, rounds
}

func TestArmRoundsSecondRoundLifts(t *testing.T) {
	g, err := cfg.ParseCompact(secondRoundGraph, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, before, after, rounds := armRoundsRun(t, g)
	st := res.Stats
	if st.Fallbacks != 0 {
		t.Fatalf("%v: fell back: %+v", g, st)
	}
	// One round leaves 15 blocks, 6 of them synthetic: the second round's
	// lift drops the merge of block 2's conditional.
	if st.BlocksOut != 14 || st.Synthetic != 5 {
		t.Errorf("%v: %d blocks, %d synthetic; want 14 and 5:\n%s", g, st.BlocksOut, st.Synthetic, dumpFunc(res.Func))
	}
	if rounds != 3 {
		t.Errorf("%v: %d rounds, want 3 (the second changes, the third not)", g, rounds)
	}
	for _, b := range res.Func.Blocks {
		if b.Kind == Original && b.Orig == 5 && b.Merge.Kind != NoMerge {
			t.Errorf("%v: original block 5 still heads a selection:\n%s", g, dumpFunc(res.Func))
		}
	}
	if err := SelfCheck(res.Func); err != nil {
		t.Fatalf("%v: %v\n%s", g, err, dumpFunc(res.Func))
	}
	passKeepsRuns(t, loggedRand(t, 46), g, "arms", before, after)
	if _, h, again, grows := structurizeTwice(t, g); grows || again.Stats.BlocksOut > st.BlocksOut+2 {
		t.Errorf("%v: its output graph %v structurizes to %d blocks, %d the first time", g, h, again.Stats.BlocksOut, st.BlocksOut)
	}
}

// oneCaseSwitchGraph, as the meta check's minimizer left it, holds a
// switch whose merge one case alone reaches: the first round merges a
// conditional of that case at its arm, and the second round must not
// lift the conditionals of that arm into the switch, where the nested
// pass, merging the switch at that case, finds no merge for them (its
// output graph structurized again grew from 24 blocks to 30).
const oneCaseSwitchGraph = "{{1, 6}, {2, 3}, {}, {4, 0}, {5}, {}, {7, 11}, {8, 5, 11}, {2, 9}, {1, 10}, {4, 5}, {}}"

func TestArmRoundsKeepOneCaseSwitches(t *testing.T) {
	g, err := cfg.ParseCompact(oneCaseSwitchGraph, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, h, again, _ := structurizeTwice(t, g)
	if res.Stats.Fallbacks != 0 || again.Stats.BlocksOut > res.Stats.BlocksOut+2 {
		t.Errorf("%v: %d blocks (%+v); its output graph %v structurizes to %d", g, res.Stats.BlocksOut, res.Stats, h, again.Stats.BlocksOut)
	}
}

// TestArmRoundsPostcondition: under CheckPasses, a group whose round
// reports a change and leaves as many blocks falls back, naming the
// group's postcondition, rather than running round after round.
func TestArmRoundsPostcondition(t *testing.T) {
	old := structuredPasses
	defer func() { structuredPasses = old }()
	structuredPasses = nil
	runs := 0
	for _, p := range old {
		if p.rounds != nil {
			p.rounds = append(p.rounds[:len(p.rounds):len(p.rounds)], pass{name: "idle", run: func(*structState) (bool, error) {
				runs++
				return true, nil // a change that removes nothing
			}})
		}
		structuredPasses = append(structuredPasses, p)
	}
	res, err := Structurize(passTable(t), Options{Strategy: "structured", CheckPasses: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Stats.PassesUsed; res.Stats.Fallbacks != 1 || len(got) != 1 || !strings.HasPrefix(got[0], "fallback: arms: postcondition: round 1 ") {
		t.Errorf("stats %+v, want the entry fallback: arms: postcondition: round 1 ...", res.Stats)
	}
	if runs != 1 {
		t.Errorf("the idle pass ran %d times, want 1", runs)
	}
}
