// process_test.go runs structurizers as processes: the test-only
// testdata/badstruct (panics on 4 blocks, hangs on 5) must yield panic and
// timeout findings while the campaign completes; cmd/structurize must give
// the same records as the in-process side.
package fuzz

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// buildCmd builds a package of this module into a temporary directory.
func buildCmd(t *testing.T, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

func TestExternalStructurizerPanicsAndHangs(t *testing.T) {
	bin := buildCmd(t, "./testdata/badstruct")
	c := testConfig(t, 40)
	c.Timeout = Duration(500 * time.Millisecond)
	c.Current = ProcessFactory("badstruct", []string{bin}, "")
	o := mustRun(t, c)
	checkMisbehaviour(t, o.Report, 40)
	if o.Report.Outcomes[OutOK] == 0 {
		t.Errorf("no graph structured after the restarts: %v", o.Report.Outcomes)
	}
}

func TestStructurizeProcessMatchesInProcess(t *testing.T) {
	bin := buildCmd(t, "../cmd/structurize")
	a, b := testConfig(t, 40), testConfig(t, 40)
	b.Current = ProcessFactory(SpecSelf, []string{bin}, "")
	mustRun(t, a)
	mustRun(t, b)
	// The process side declares its properties (protocol v2), the
	// in-process one has nothing to declare; everything else is equal.
	if d := readReport(t, b.Dir).Declared["current"]; d == nil || !d.Promises.Deterministic {
		t.Errorf("cmd/structurize declared %+v", d)
	}
	ra, rb := *readReport(t, a.Dir), *readReport(t, b.Dir)
	rb.Declared = nil
	for _, r := range []*Report{&ra, &rb} {
		r.Throughput, r.Settings.Shard, r.Provenance = Throughput{}, Shard{}, nil
	}
	ja, _ := json.MarshalIndent(ra, "", " ")
	jb, _ := json.MarshalIndent(rb, "", " ")
	if string(ja) != string(jb) {
		t.Errorf("cmd/structurize and in-process differ:\n%s\n---\n%s", ja, jb)
	}
}

// TestOrphansLineReads: the line naming the processes a dead cfgfuzz's
// servers left reads as a sentence, for one cfgfuzz and for several.
func TestOrphansLineReads(t *testing.T) {
	one := []Orphan{{PID: 41, Owner: 7, Command: "sleep 60"}, {PID: 42, Owner: 7, Command: "sleep 61"}}
	if got, want := OrphansLine(one), "killed 2 processes left behind by the servers of a cfgfuzz that is no longer running (pid 7): 41 (sleep 60), 42 (sleep 61)"; got != want {
		t.Errorf("one cfgfuzz's:\n got %q\nwant %q", got, want)
	}
	two := []Orphan{{PID: 41, Owner: 7, Command: "sleep 60"}, {PID: 43, Owner: 9, Command: "sleep 62"}}
	if got, want := OrphansLine(two), "killed 2 processes left behind by the servers of cfgfuzz processes that are no longer running (pids 7, 9): 41 (sleep 60), 43 (sleep 62)"; got != want {
		t.Errorf("two cfgfuzzes':\n got %q\nwant %q", got, want)
	}
}
