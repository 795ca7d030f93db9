// recorded_project_test.go: a file whose header records a repo:
// structurizer with the build and serve commands it was judged with, judged
// by check or minimize on that same structurizer built or served otherwise
// (no --build or --serve given: the repository's .cfgfuzz.json), gets a
// note naming the flags that judge it as recorded; the header's commands
// are never taken. Given as flags, or on another structurizer, no note.
package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestRecordedProjectNoted(t *testing.T) {
	cfgfuzzBinary(t)
	ownBuildCache(t)
	repo, _, rev := plantedToyRepo(t, toyConfig)
	spec := "repo:" + repo + "@" + rev
	const serve = "python3 -u {out}/toy.py" // another server command than toyConfig's
	work := t.TempDir()
	in := filepath.Join(work, "found.cfg")
	writeFile(t, in, "# signature: structurize:error:toy: planted bug\n# structurizer: "+spec+"\n# build: "+toyBuild+"\n# serve: "+serve+"\n{{1}, {}}\n")
	want := in + " records another judging in its header: judge it with --serve " + fuzz.ShellQuote(serve) + " as it was judged"

	for _, cmd := range []string{"check", "minimize"} {
		code, stdout, stderr := cliIn(t, work, cmd, "--structurizer", spec, in)
		if code == exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s on the recorded structurizer, served by its .cfgfuzz.json: exit %d, want a note %q\n%s%s", cmd, code, want, stdout, stderr)
		}
		if strings.Contains(stderr, "--build") {
			t.Errorf("%s: a note names --build, which .cfgfuzz.json gives as recorded\n%s", cmd, stderr)
		}
		code, stdout, stderr = cliIn(t, work, cmd, "--structurizer", spec, "--serve", serve, in)
		if code == exitUsage || strings.Contains(stderr, "records another judging") {
			t.Errorf("%s --serve as recorded: exit %d, want no note\n%s%s", cmd, code, stdout, stderr)
		}
	}
	// Another structurizer is a choice: no note of the header's commands.
	code, stdout, stderr := cliIn(t, work, "check", "--structurizer", "cmd:"+cfgfuzzBinary(t)+" structurize", in)
	if code == exitUsage || strings.Contains(stderr, "--serve") {
		t.Errorf("check on another structurizer: exit %d, want no note of the header's serve\n%s%s", code, stdout, stderr)
	}
}

// TestRecordedProjectNotedWhereNoneServes: in a repository without
// .cfgfuzz.json, the recorded structurizer (named by another revision
// word for its commit) given without --build and --serve has no serve
// command: check and minimize say so, and the note names the header's
// commands as the flags to add.
func TestRecordedProjectNotedWhereNoneServes(t *testing.T) {
	cfgfuzzBinary(t)
	ownBuildCache(t)
	repo, _, rev := plantedToyRepo(t, "")
	work := t.TempDir()
	in := filepath.Join(work, "found.cfg")
	writeFile(t, in, "# signature: structurize:error:toy: planted bug\n# structurizer: repo:"+repo+"@"+rev+"\n# build: "+toyBuild+"\n# serve: "+toyServe+"\n{{1}, {}}\n")
	want := "judge it with --build " + fuzz.ShellQuote(toyBuild) + " --serve " + fuzz.ShellQuote(toyServe) + " as it was judged"
	for _, cmd := range []string{"check", "minimize"} {
		code, stdout, stderr := cliIn(t, work, cmd, "--structurizer", "repo:"+repo+"@HEAD", in)
		if code != exitUsage || !strings.Contains(stderr, "no serve command") || !strings.Contains(stderr, want) {
			t.Errorf("%s on the recorded structurizer, no .cfgfuzz.json: exit %d, want %d and a note %q\n%s%s", cmd, code, exitUsage, want, stdout, stderr)
		}
	}
}
