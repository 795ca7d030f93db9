// regressed_minimize_test.go: a signature that comes back after a night
// classed it fixed is new again, and is minimized and stored into the
// night's findings store like any new one, by the unsharded night and by
// the merge of its shards.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// TestRegressedSignatureMinimized: night 1 plants swap-arms (new), night
// 2 runs without it (fixed), night 3 plants it again: regressed, exit 1,
// minimized on tonight's graph (not the store's graph taken over) and
// written into OUT/findings, on the whole night and on the merge.
func TestRegressedSignatureMinimized(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	night := func(date, seed, out string, extra ...string) (int, string) {
		args := append([]string{"run", "--state", state, "--night", date, "--seed", seed, "--graphs", "60",
			"--kinds", "reducible", "--dispatch-every", "0", "--progress", "none", "--out", filepath.Join(dir, out)}, extra...)
		code, stdout, stderr := runCmd(args, "")
		t.Logf("cfgfuzz %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		return code, stdout
	}
	if code, _ := night("2026-04-01", "1", "n1", "--inject", "swap-arms"); code != exitFail || !hasFindings(filepath.Join(dir, "n1")) {
		t.Fatalf("night 1: exit %d, findings store %v; want 1 and a findings store", code, hasFindings(filepath.Join(dir, "n1")))
	}
	if code, out := night("2026-04-02", "2", "n2", "--minimize=false"); code != exitOK || !strings.Contains(out, "fixed ") {
		t.Fatalf("night 2: exit %d, want 0 with the signature fixed", code)
	}
	// The store's minimized graph stands in for one minimized long ago,
	// on another graph (its first kept graph, which shows the signature
	// still, so the store's entry is not taken for another defect): the
	// regression's replaces it.
	older := storeMinimized(t, state, true)
	sharded := copyDir(t, state, filepath.Join(dir, "state-sharded"))
	check := func(what, out, st string, code int) {
		t.Helper()
		rep := readJSONReport(t, out)
		regressed := 0
		for _, s := range rep.State.Signatures {
			if s.Class == fuzz.ClassNew && strings.HasPrefix(s.Reason, "regressed: fixed since 2026-04-02") {
				regressed++
			}
		}
		if code != exitFail || regressed == 0 {
			t.Fatalf("%s: exit %d, %d regressed signatures (%v); want 1 and a regression", what, code, regressed, classOf(rep))
		}
		for _, f := range rep.Findings {
			if f.Minimized == "" || f.NotMinimized != "" && !strings.Contains(f.NotMinimized, "no smaller") {
				t.Errorf("%s: %s not minimized tonight: minimized %q, not_minimized %q", what, f.Signature, f.Minimized, f.NotMinimized)
			}
		}
		if !hasFindings(out) {
			t.Errorf("%s: no findings store in %s", what, filepath.Join(out, "findings"))
		}
		stored := storeMinimized(t, st, false)
		for _, f := range rep.Findings {
			if got := stored[f.Signature]; f.Minimized != "" && got != f.Minimized {
				t.Errorf("%s: the state keeps %s minimized as %q, want tonight's %q (not the store's %q)", what, f.Signature, got, f.Minimized, older[f.Signature])
			}
		}
	}
	code, _ := night("2026-04-03", "3", "n3", "--inject", "swap-arms")
	check("night 3", filepath.Join(dir, "n3"), state, code)

	state = sharded
	var shards []string
	for _, sh := range []string{"0/2", "1/2"} {
		out := "s" + sh[:1]
		night("2026-04-03", "3", out, "--inject", "swap-arms", "--shard", sh)
		shards = append(shards, filepath.Join(dir, out))
	}
	merged := filepath.Join(dir, "m")
	code, stdout, stderr := runCmd(append([]string{"merge", "--state", sharded, "--progress", "none", "--out", merged}, shards...), "")
	t.Logf("merge: exit %d\n%s%s", code, stdout, stderr)
	check("merge", merged, sharded, code)
}

// storeMinimized returns each signature's minimized graph in the state
// dir's findings.json, first setting each to its first kept graph when
// toKept.
func storeMinimized(t *testing.T, dir string, toKept bool) map[string]string {
	t.Helper()
	path := filepath.Join(dir, fuzz.StateFindingsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var store map[string]any
	if err := json.Unmarshal(data, &store); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	sigs, _ := store["signatures"].([]any)
	for _, s := range sigs {
		e, _ := s.(map[string]any)
		if kept, _ := e["graphs"].([]any); toKept && len(kept) > 0 {
			first, _ := kept[0].(map[string]any)
			e["minimized"], e["minimized_weights"] = first["graph"], first["weights"]
		}
		got[fmt.Sprint(e["signature"])], _ = e["minimized"].(string)
	}
	if len(got) == 0 {
		t.Fatalf("%s holds no signature", path)
	}
	if toKept {
		if data, err = json.MarshalIndent(store, "", "  "); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return got
}

// hasFindings says whether a campaign's output holds a findings store
// with at least one entry.
func hasFindings(out string) bool {
	es, err := os.ReadDir(filepath.Join(out, "findings"))
	return err == nil && len(es) > 0
}
