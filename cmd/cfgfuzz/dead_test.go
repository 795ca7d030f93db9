// dead_test.go: graphs with dead blocks (gen.CampaignDead: blocks no path
// from the entry reaches) reach a structurizer through a campaign, and a
// structurizer that crashes on dead code (fuzz/testdata/deadstruct, which
// panics on any graph with a dead block and answers every other graph
// with this tree's structurizer) is found, minimized to a graph that
// still has a dead block, replayed as printed and kept as a regression.
package main

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// deadstructSpec builds fuzz/testdata/deadstruct and returns its spec.
func deadstructSpec(t *testing.T) string {
	t.Helper()
	return "cmd:" + builtProgram(t, "../../fuzz/testdata/deadstruct")
}

// TestCampaignFindsDeadCodeCrash: a campaign of reducible graphs on
// deadstruct panics on exactly the graphs whose seed drew dead blocks
// (gen.CampaignDead) and on no other; the finding is minimized to a graph
// with a dead block, its replay command fails as printed, and the
// regression --save-regressions keeps fails `cfgfuzz regress` on the same
// structurizer. The report is the same on 1 and 3 workers.
func TestCampaignFindsDeadCodeCrash(t *testing.T) {
	const graphs, seed = 64, 1
	t.Logf("run seed %d", seed)
	spec := deadstructSpec(t)
	dead := 0
	for i := range graphs {
		if gen.CampaignDead(gen.Reducible, gen.SeedFor(gen.Reducible, seed, i)) > 0 {
			dead++
		}
	}
	if dead == 0 {
		t.Fatalf("no graph of %d drew dead blocks: pick another seed", graphs)
	}
	t.Logf("%d of %d graphs drew dead blocks", dead, graphs)
	run := func(workers string) (string, *fuzz.Report, string) {
		dir, regs := t.TempDir(), filepath.Join(t.TempDir(), "regs")
		code, out, errs := runCmd([]string{"run", "--structurizer", spec, "--graphs", "64", "--seed", "1", "--kinds", "reducible",
			"--workers", workers, "--progress", "none", "--out", dir, "--save-regressions", regs}, "")
		if code != exitFail {
			t.Fatalf("%s workers: run exit %d, want %d:\n%s%s", workers, code, exitFail, out, errs)
		}
		return dir, readCampaignReport(t, dir), regs
	}
	dir, rep, regs := run("3")
	if got := rep.Outcomes["panic"]; got != dead || rep.Outcomes["ok"] != rep.Graphs-dead {
		t.Errorf("outcomes %v of %d graphs, want panic on the %d graphs with dead blocks and ok on the others", rep.Outcomes, rep.Graphs, dead)
	}
	if len(rep.Findings) != 1 {
		t.Fatalf("findings %+v, want one (the panic)", rep.Findings)
	}
	f := rep.Findings[0]
	if !strings.HasPrefix(f.Signature, "structurize:panic:") || !strings.Contains(f.Signature, "deadstruct: block N has no dominator") {
		t.Errorf("signature %q, want deadstruct's panic", f.Signature)
	}
	if !strings.Contains(f.Replay, " --dead ") {
		t.Errorf("replay %q does not ask for the graph's dead blocks", f.Replay)
	}
	m, err := cfg.ParseCompact(f.Minimized, cfg.Limits{})
	if err != nil || !slices.Contains(m.Reachable(), false) || m.Len() > 3 {
		t.Errorf("minimized to %q (%v), want a graph of at most 3 blocks with a dead one", f.Minimized, err)
	}
	t.Logf("minimized to %s; replay: %s", f.Minimized, f.Replay)
	if code, out := shellReplay(t, dir, f.Replay); code != exitFail || !strings.Contains(out, "FAIL "+f.Signature+" ") {
		t.Errorf("replay %q: exit %d, want FAIL %s:\n%s", f.Replay, code, f.Signature, out)
	}
	saved, _ := filepath.Glob(filepath.Join(regs, "*.cfg"))
	if len(saved) != 1 {
		t.Fatalf("regressions saved: %v, want one", saved)
	}
	code, out, errs := runCmd([]string{"regress", regs}, "")
	if code != exitFail || !strings.Contains(out+errs, "got "+f.Signature) {
		t.Errorf("regress %s on deadstruct: exit %d, want %d failing with %s:\n%s%s", regs, code, exitFail, f.Signature, out, errs)
	}
	_, one, _ := run("1")
	key := func(r *fuzz.Report) []any {
		var fs []any
		for _, f := range r.Findings {
			fs = append(fs, f.Signature, f.Count, f.First.Index, f.Replay, f.Minimized)
		}
		return append(fs, r.Graphs, r.Skipped, r.Outcomes)
	}
	if a, b := key(rep), key(one); !reflect.DeepEqual(a, b) {
		t.Errorf("3 workers: %v\n1 worker: %v", a, b)
	}
}
