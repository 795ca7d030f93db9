// check_test.go: `cfgfuzz check` runs every default check and says which,
// --checks selects, +NAME adds to the defaults (an unknown name is a usage
// error until someone registers it); a slow verdict is re-timed as in a
// campaign; --allow-fallbacks drops the fallback check.
package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func checkVerdicts(t *testing.T, args ...string) ([]string, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	in := strings.NewReader("{{1}, {2, 3}, {1}, {4}, {}}\n")
	code := run(append([]string{"check", "--json"}, args...), in, &stdout, &stderr)
	if code == exitUsage {
		return nil, code, stderr.String()
	}
	var rec checkRecord
	if err := json.Unmarshal(stdout.Bytes(), &rec); err != nil {
		t.Fatalf("%v: %s %s", err, stdout.String(), stderr.String())
	}
	var names []string
	for _, v := range rec.Checks {
		names = append(names, v.Check)
	}
	return names, code, stderr.String()
}

func TestCheckRunsEveryDefaultCheck(t *testing.T) {
	names, _, errs := checkVerdicts(t, "--strategy", "dispatch")
	if names == nil {
		t.Skip(errs)
	}
	if !slices.Equal(names, oracle.DefaultChecks) {
		t.Errorf("ran %v, want %v", names, oracle.DefaultChecks)
	}
	names, _, _ = checkVerdicts(t, "--strategy", "dispatch", "--checks", "rules,pdom")
	if !slices.Equal(names, []string{"rules", "pdom"}) { // in the order given
		t.Errorf("--checks rules,pdom ran %v", names)
	}
	names, _, _ = checkVerdicts(t, "--strategy", "dispatch", "--checks", "-meta")
	if slices.Contains(names, "meta") || len(names) != len(oracle.DefaultChecks)-1 {
		t.Errorf("--checks -meta ran %v", names)
	}
	names, _, _ = checkVerdicts(t, "--allow-fallbacks")
	if slices.Contains(names, "fallback") || len(names) != len(oracle.DefaultChecks)-1 {
		t.Errorf("--allow-fallbacks ran %v", names)
	}
	names, _, _ = checkVerdicts(t, "--allow-fallbacks", "--checks", "rules,fallback")
	if !slices.Equal(names, []string{"rules"}) {
		t.Errorf("--allow-fallbacks --checks rules,fallback ran %v", names)
	}
	if _, code, errs := checkVerdicts(t, "--checks", "+nosuch"); code != exitUsage || !strings.Contains(errs, "nosuch") {
		t.Errorf("+nosuch: exit %d, %s", code, errs)
	}
}

// TestCheckGPUDevice: --gpu-device names the gpu check's device; a name
// oracle/gpu does not know is a usage error whether or not the check runs,
// a known one given with the check off is named as doing nothing, and a
// device this machine lacks refuses the check up front (exit 2, naming
// the check), never a verdict per graph.
func TestCheckGPUDevice(t *testing.T) {
	for _, checks := range []string{"gpu", "rules"} {
		if _, code, errs := checkVerdicts(t, "--checks", checks, "--gpu-device", "bogus"); code != exitUsage || !strings.Contains(errs, `--gpu-device "bogus": want cpu, gpu or any`) {
			t.Errorf("--checks %s --gpu-device bogus: exit %d, %s", checks, code, errs)
		}
	}
	if names, code, errs := checkVerdicts(t, "--checks", "rules", "--gpu-device", "gpu"); code != exitOK || !slices.Equal(names, []string{"rules"}) || !strings.Contains(errs, "--gpu-device gpu does nothing: the gpu check is off") {
		t.Errorf("--checks rules --gpu-device gpu: ran %v, exit %d, %s", names, code, errs)
	}
	names, code, errs := checkVerdicts(t, "--checks", "gpu", "--gpu-device", "cpu")
	if names == nil {
		t.Skipf("no lavapipe here (exit %d): %s", code, errs)
	}
	if !slices.Equal(names, []string{"gpu"}) || code != exitOK {
		t.Errorf("--gpu-device cpu: ran %v, exit %d, %s", names, code, errs)
	}
}

// TestCheckRetimesASlowVerdict: `check` follows the campaign's rule for a
// slow structurization (oracle.RetimeSlow): slow once, fast when re-timed, is
// not a growth:time finding; slow every time is.
func TestCheckRetimesASlowVerdict(t *testing.T) {
	orc, err := oracle.New(oracle.Options{Checks: []string{"growth"}})
	if err != nil {
		t.Fatal(err)
	}
	items, err := readGraphs(nil, strings.NewReader("{{1, 2}, {3}, {3}, {}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, slowRuns := range []int{1, 3} {
		calls := 0
		real := fuzz.SideStructurizer(&fuzz.InProcess{}, proto.Options{}, fuzz.DefaultTimeout)
		seam := func(g *cfg.Graph) corpus.Structurized {
			s := real(g)
			if calls++; calls <= slowRuns {
				s.Info.Duration = 2 * time.Second // the structurizer's time limit is 1 s
			}
			return s
		}
		rec := checkOne(items[0], seam, "structured", orc, DefaultCheckTimeout)
		want := outcomeOK
		if slowRuns == 3 {
			want = outcomeFail
		}
		if rec.Outcome != want || calls != 3 {
			t.Errorf("slow %d of 3 runs: outcome %s after %d runs (%s), want %s after 3", slowRuns, rec.Outcome, calls, rec.Reason, want)
		}
	}
}

// TestCheckJSONKeepsWeights: a --json line carries the graph's weights
// beside its compact notation, which has none, so the graph it names is
// the graph judged; a graph of weight 0 has no weights field.
func TestCheckJSONKeepsWeights(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"b0 [w=3]: if b1 b2\nb1: br b2\nb2 [w=7]: ret\n", []int{3, 0, 7}},
		{"{{1, 2}, {2}, {}}\n", nil},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"check", "--json", "--checks", "rules"}, strings.NewReader(tc.in), &stdout, &stderr)
		var rec checkRecord
		if err := json.Unmarshal(stdout.Bytes(), &rec); err != nil {
			t.Fatalf("exit %d: %v: %s %s", code, err, stdout.String(), stderr.String())
		}
		if !slices.Equal(rec.Weights, tc.want) || !strings.Contains(stdout.String(), `"weights"`) != (tc.want == nil) {
			t.Errorf("%q: weights %v, want %v: %s", tc.in, rec.Weights, tc.want, stdout.String())
		}
		if err := schema.Validate(stdout.Bytes()); err != nil {
			t.Errorf("%q: %v", tc.in, err)
		}
	}
}

// TestExternalFaultsNoted: faults asked of a cmd spec's server are noted
// as ones it may ignore; those asked of cfgfuzz's own structurizer, or
// none, are not.
func TestExternalFaultsNoted(t *testing.T) {
	for _, c := range []struct {
		spec   fuzz.Spec
		inject string
		noted  bool
	}{
		{fuzz.Spec{Kind: fuzz.SpecCmd, Cmd: "./adapter"}, "swap-arms", true},
		{fuzz.Spec{Kind: fuzz.SpecCmd, Cmd: "./adapter"}, "", false},
		{fuzz.Spec{Kind: fuzz.SpecSelf}, "swap-arms", false},
		{fuzz.Spec{Kind: fuzz.SpecRev, Rev: "HEAD"}, "swap-arms", false},
	} {
		note := externalFaultsNote(c.spec, c.inject)
		if (note != "") != c.noted || c.noted && !strings.Contains(note, "--inject swap-arms is passed on to cmd:./adapter, which may ignore it") {
			t.Errorf("%s with %q: note %q, want noted %v", c.spec, c.inject, note, c.noted)
		}
	}
}
