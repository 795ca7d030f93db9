// variants_test.go: a structurizer whose output is valid and runs like the
// graph, but is laid out with other choices than cfgfuzz's own makes
// (fuzz/testdata/variantstruct: this tree's structurizer with its function
// rewritten: blocks in another order or in the order of the original ids,
// route variables started at a non-zero value, switches of one case for
// two-way selections, a continue block of its own for every loop, empty
// forwarding blocks, later merges, merges on conditional breaks, a loop
// header block of its own, reversed case lists, cloned return blocks, a
// dispatch loop on some graphs, a branch for a choice among one block,
// returning unreachable merges; and as a module it rewrote: the entry
// point first, negated conditions, filler through OpSNegate, OpSDiv and
// arithmetic shifts, no names, no lane guard, debug information, loop and
// selection controls, conditionals testing the way the original ids say,
// the convention's helpers inlined) gives no
// finding in a campaign, with and without the register file. Declaring
// idempotence in a protocol v2 handshake it does not keep gives
// meta:not-idempotent, whose detail says what it is about.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func buildVariantStruct(t *testing.T) string {
	t.Helper()
	return shellQuote(builtProgram(t, "../../fuzz/testdata/variantstruct"))
}

func TestVariantLayoutsPass(t *testing.T) {
	t.Parallel() // its builds and campaigns keep the cores busy while the tests that mostly wait wait (parallelTests)
	bin := buildVariantStruct(t)
	const module = "reorder,vars,switch2,contsep,forward,latemerge,clone,dispatch,mergebreak,loophead,caseorder,samearm,retmerge,mainfirst,notcond,sfill,nonames,noguard,debug,controls,polarity"
	const inlined = "reorder,switch2,contsep,forward,loophead,mergebreak,dispatch,inline"
	for _, c := range []struct {
		name, variants string
		args           []string
	}{
		{"func", "all", nil},
		{"func-registers", "all", []string{"--registers", "8"}},
		{"module-registers", module, []string{"--registers", "8"}},
		{"inlined-helpers", inlined, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			code, counts, text := variantCampaign(t, bin+" --variants "+c.variants, out, 600, c.args...)
			if code != 0 || counts["ok"] != counts["graphs"] || counts["graphs"] < 500 {
				t.Errorf("exit %d, outcomes %v: want exit 0 and every graph ok\n%s", code, counts, text)
			}
		})
	}
}

func TestVariantDeclaringIdempotenceItLacks(t *testing.T) {
	bin := buildVariantStruct(t)
	out := t.TempDir()
	code, counts, text := variantCampaign(t, bin+" --variants contsep --declare --idempotent", out, 40)
	if code != 1 || counts["meta:not-idempotent"] == 0 {
		t.Fatalf("exit %d, outcomes %v: want exit 1 and meta:not-idempotent\n%s", code, counts, text)
	}
	log, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not of this module's correctness", `declares \"idempotent\" false`, "--checks -meta"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("no finding's detail says %q", want)
		}
	}
	// Without the declaration (protocol v1) the same layouts pass.
	code, counts, text = variantCampaign(t, bin+" --variants contsep", t.TempDir(), 40)
	if code != 0 || counts["ok"] != counts["graphs"] {
		t.Errorf("v1: exit %d, outcomes %v, want every graph ok\n%s", code, counts, text)
	}
}

// variantCampaign is campaignOutcomes for n graphs with more flags; counts
// also has "graphs", the records read.
func variantCampaign(t *testing.T, cmd, out string, n int, args ...string) (int, map[string]int, string) {
	t.Helper()
	code, counts, text := campaignOutcomesWith(t, cmd, out, false, n, args...)
	total := 0
	for _, k := range []string{"ok", "invalid", "refused", "unsupported", "panic", "timeout", "crash", "error"} {
		total += counts[k]
	}
	counts["graphs"] = total
	return code, counts, text
}
