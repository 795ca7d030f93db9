// recorded_fault_test.go: the faults a graph file's header records are
// held against check's and minimize's --inject, so a file found with a
// planted fault and judged without it says how it was judged.
package main

import (
	"os"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestRecordedFaultsHeldAgainstInject(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {2}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	path, err := corpus.WriteRegression(t.TempDir(), "r", corpus.Header{Signature: "exec:trace-mismatch", Expect: corpus.ExpectFail, Fault: "swap-arms,drop-merge"}, g)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := corpus.ParseRegression(path, data)
	if err != nil {
		t.Fatal(err)
	}
	used := func(inject string, plants bool) usedJudging { // the header's judging but for the faults
		return usedJudging{walks: r.Header.JudgedWalks(), judge: judgeFlags{targetEnv: r.Header.Env(), rulesCompat: r.Header.RulesCompat},
			inject: inject, plants: plants}
	}
	for _, tc := range []struct {
		inject string
		plants bool
		want   string // in the note; "" no note
	}{
		{"", true, "judge it with --inject swap-arms,drop-merge as it was judged"},
		{"swap-arms", true, "--inject swap-arms,drop-merge"},
		{"drop-merge, swap-arms", true, ""},
		{"", false, ""}, // bisect plants nothing
	} {
		note := recordedMismatch(path, data, used(tc.inject, tc.plants))
		if (tc.want == "") != (note == "") || !strings.Contains(note, tc.want) {
			t.Errorf("--inject %q (plants %v): note %q, want %q in it", tc.inject, tc.plants, note, tc.want)
		}
	}
}
