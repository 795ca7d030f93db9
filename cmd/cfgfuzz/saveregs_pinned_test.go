// saveregs_pinned_test.go: regression files whose recorded structurizer is
// a commit (what a comparison of two commits saves: the one that failed)
// say where they are saved that regress judges that commit's build until
// --structurizer names another; files of any other structurizer do not.
package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestRegressionsOfACommitNoteIt(t *testing.T) {
	const note = "the commit the finding showed on: cfgfuzz regress judges that build"
	save := func(spec string) string {
		t.Helper()
		finding := fuzz.Finding{Signature: "structurize:error:toy: planted bug", Minimized: "{{1}, {}}", New: 1}
		rep := &fuzz.Report{Settings: fuzz.Settings{Current: spec, Seed: 1}, Findings: []fuzz.Finding{finding, {Signature: "structurize:error:toy: other", Minimized: "{{}}", New: 1}}}
		var out bytes.Buffer
		if err := saveRegressions(filepath.Join(t.TempDir(), "regs"), rep, "compare", &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	const commit = "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef"
	for _, spec := range []string{"repo:/src/ourstruct@" + commit, "rev:" + commit} {
		if out := save(spec); strings.Count(out, "regressions: note: the recorded structurizer is "+spec+", "+note) != 1 {
			t.Errorf("%s: want the note once:\n%s", spec, out)
		}
	}
	for _, spec := range []string{"cmd:./build/ourstruct", ""} {
		if out := save(spec); strings.Contains(out, note) {
			t.Errorf("%q: want no note:\n%s", spec, out)
		}
	}
	if n := pinnedCommitNote("repo:{repo}@" + commit); !strings.Contains(n, note) {
		t.Errorf("a portable repo spec: want the note, got %q", n)
	}

	// minimize --save-regression on a commit's build.
	ownBuildCache(t)
	repo, _, planted := plantedToyRepo(t, toyConfig)
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "{{1, 2}, {2}, {}}\n")
	spec := "repo:" + repo + "@" + planted
	code, _, stderr := cliIn(t, t.TempDir(), "minimize", "--structurizer", spec, "--regressions", filepath.Join(t.TempDir(), "regs"),
		"--save-regression", "toy-bug", graph)
	if want := "minimize: note: the recorded structurizer is " + spec + ", " + note; code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("minimize on a commit: exit %d, want 0 and %q:\n%s", code, want, stderr)
	}
}
