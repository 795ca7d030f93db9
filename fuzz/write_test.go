// write_test.go: the three forms of a report are replaced together.
package fuzz

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportsReplacedTogether: a report write that fails on its last
// form (a full disk) leaves the old report.json and report.md, not a new
// one beside an old report.html.
func TestReportsReplacedTogether(t *testing.T) {
	c := testConfig(t, 20)
	o := mustRun(t, c)
	old := map[string][]byte{}
	for _, f := range []string{"report.json", "report.md", "report.html"} {
		old[f], _ = os.ReadFile(filepath.Join(c.Dir, f))
	}
	block := filepath.Join(c.Dir, "report.html.tmp")
	if err := os.Mkdir(block, 0o755); err != nil { // report.html cannot be written
		t.Fatal(err)
	}
	rep := o.Report
	rep.Minimization = "changed"
	if err := WriteReports(c.Dir, rep, nil); err == nil || !strings.Contains(err.Error(), block) {
		t.Fatalf("a report whose report.html cannot be written: %v, want an error naming %s", err, block)
	}
	for f, want := range old {
		if got, _ := os.ReadFile(filepath.Join(c.Dir, f)); !bytes.Equal(got, want) {
			t.Errorf("the failed write changed %s", f)
		}
	}
	for _, f := range []string{"report.json.tmp", "report.md.tmp"} {
		if _, err := os.Stat(filepath.Join(c.Dir, f)); !os.IsNotExist(err) {
			t.Errorf("the failed write left %s (%v)", f, err)
		}
	}
}
