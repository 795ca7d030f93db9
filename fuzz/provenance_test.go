// provenance_test.go: every written report says which build wrote it,
// when, on which host and on which sides (provenance.go).
package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestReportsCarryProvenance(t *testing.T) {
	s := Settings{Seed: 3, Current: "cmd:./my-adapter", Baseline: "rev:v1.2"}
	rep := BuildReport(s, nil)
	dir := t.TempDir()
	before := time.Now().UTC().Truncate(time.Second)
	if err := WriteReports(dir, rep, nil); err != nil {
		t.Fatal(err)
	}
	got := readReport(t, dir).Provenance
	if got == nil {
		t.Fatal("report.json has no provenance")
	}
	date, err := time.Parse(time.RFC3339, got.Date)
	if err != nil || date.Before(before) || date.After(time.Now().Add(time.Second)) {
		t.Errorf("provenance date %q (%v), want the time of writing, RFC 3339", got.Date, err)
	}
	want := runtime.GOOS + "/" + runtime.GOARCH
	if got.Host != want || got.Current != s.Current || got.Baseline != s.Baseline {
		t.Errorf("provenance %+v, want host %s, current %s, baseline %s", got, want, s.Current, s.Baseline)
	}
	if got.Tool.Go != runtime.Version() || got.Tool.Module != "github.com/cfgfuzz/cfgfuzz" || got.Tool.Version == "" {
		t.Errorf("provenance tool %+v, want this build's module, version and toolchain", got.Tool)
	}
	line := got.Line()
	for _, name := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if name == "report.html" {
			text = strings.ReplaceAll(text, "&#34;", `"`)
		}
		if !strings.Contains(text, line) {
			t.Errorf("%s lacks the provenance line %q", name, line)
		}
	}
	var raw map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if err := json.Unmarshal(b, &raw); err != nil || raw["provenance"] == nil {
		t.Errorf("report.json has no \"provenance\" object (%v)", err)
	}
}

// The line names the campaign's writer: two builds that print the same
// version (no VCS information) are told apart by it, as merge tells them.
func TestProvenanceLineNamesTheWriter(t *testing.T) {
	p := Provenance{Tool: Build{Module: "m", Version: "(devel)", Go: "go1.x"}, Date: "d", Host: "h", Current: "self",
		Writer: Writer{Format: LogFormat, Build: "(devel) rev abc123"}}
	if line, want := p.Line(), p.Writer.String(); !strings.Contains(line, want) {
		t.Errorf("provenance line %q lacks the writer %q", line, want)
	}
}

func TestBuildString(t *testing.T) {
	b := Build{Module: "m", Version: "v1.0.0", Revision: "abc123", Dirty: true, Go: "go1.x"}
	if s := b.String(); !strings.Contains(s, "v1.0.0") || !strings.Contains(s, "revision abc123+dirty") || !strings.Contains(s, Host()) {
		t.Errorf("Build.String() = %q, want the version, revision abc123+dirty and the host", s)
	}
	b.Revision, b.Dirty = "", false
	if s := b.String(); !strings.Contains(s, "revision unknown") {
		t.Errorf("Build.String() without a revision = %q, want it to say the revision is unknown", s)
	}
}
