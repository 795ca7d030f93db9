// beyond_test.go: a structurizer with a region model of its own
// (fuzz/testdata/beyondstruct: Ramsey's "Beyond Relooper" lowered to
// loops that run once, dispatchers on a label variable for the irreducible
// parts, exits through a pending-exit variable; its own graph parser,
// protocol loop and SPIR-V emitter) gives no finding in a campaign, as
// func and as a module of its own, with and without the register file (as
// separate Function words and as one Function array), in protocol v1 and
// v2; and each bug planted in it is found.
package main

import (
	"testing"
)

func buildBeyondStruct(t *testing.T) string {
	t.Helper()
	return shellQuote(builtProgram(t, "../../fuzz/testdata/beyondstruct"))
}

func TestBeyondRegionModelPasses(t *testing.T) {
	bin := buildBeyondStruct(t)
	for _, c := range []struct {
		name, flags string
		n           int
		args        []string
	}{
		{"func", "", 400, nil},
		{"func-declared-registers", " --declare", 200, []string{"--registers", "8"}},
		{"module-declared", " --form module --declare", 300, nil},
		{"module-registers", " --form module", 200, []string{"--registers", "8"}},
		{"module-register-array", " --form module --register-array", 200, []string{"--registers", "8"}},
		{"module-large", " --form module --declare", 20, []string{"--blocks", "40-120", "--registers", "8"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, counts, text := variantCampaign(t, bin+c.flags, t.TempDir(), c.n, c.args...)
			if code != 0 || counts["ok"] != counts["graphs"] || counts["graphs"] < c.n*9/10 {
				t.Errorf("exit %d, outcomes %v: want exit 0 and every graph ok\n%s", code, counts, text)
			}
		})
	}
}

func TestBeyondPlantedBugsFound(t *testing.T) {
	bin := buildBeyondStruct(t)
	for _, bug := range []string{"swap-arms", "no-pend", "skip-merge"} {
		t.Run(bug, func(t *testing.T) {
			code, counts, text := campaignOutcomesWith(t, bin+" --form module --bug "+bug, t.TempDir(), false, 100)
			if code != 1 || counts["exec:trace-mismatch"] == 0 {
				t.Errorf("exit %d, outcomes %v: want exit 1 and exec:trace-mismatch\n%s", code, counts, text)
			}
		})
	}
}
