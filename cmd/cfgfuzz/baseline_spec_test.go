// baseline_spec_test.go: how a --baseline value becomes a spec. A bare
// revision is cfgfuzz's own and is refused, saying how to name one of the
// user's repository, outside a git repository of cfgfuzz (for run,
// compare and minimize alike); last-good names the repository its night
// ran.
package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestBareRevisionOutsideCfgfuzz(t *testing.T) {
	if spec, err := revisionSpec("--baseline", "v1", ""); err != nil || spec != "rev:v1" {
		t.Fatalf("inside cfgfuzz's repository: %q, %v; want rev:v1", spec, err)
	}
	t.Chdir(t.TempDir())
	for _, v := range []string{"repo:/src/app@v1", "cmd:./adapter", "self"} {
		if _, err := revisionSpec("--baseline", v, ""); err != nil {
			t.Errorf("%s outside: %v, want the spec as it is", v, err)
		}
	}
	_, err := revisionSpec("--baseline", "v1", "")
	if err == nil || !strings.Contains(err.Error(), "repo:DIR@v1") || !strings.Contains(err.Error(), "not inside a git repository of cfgfuzz") {
		t.Errorf("a bare revision outside: %v, want a refusal naming repo:DIR@v1", err)
	}
	for _, args := range [][]string{
		{"run", "--baseline", "v1", "--graphs", "5"},
		{"compare", "--baseline", "v1", "--graphs", "5"},
	} {
		args = append(args, "--out", filepath.Join(t.TempDir(), "out"))
		code, stdout, stderr := runCmd(args, "")
		if code != 2 || !strings.Contains(stderr, "repo:DIR@v1") || strings.Contains(stderr+stdout, "go build") {
			t.Errorf("cfgfuzz %s: exit %d, stderr %q; want 2 and the refusal, nothing built", strings.Join(args, " "), code, stderr)
		}
	}
	if code, _, stderr := runCmd([]string{"compare", "--baseline", "v1", "--graphs", "5", "--out", filepath.Join(t.TempDir(), "out")}, ""); code != 2 || !strings.Contains(stderr, "--repo DIR") {
		t.Errorf("compare: exit %d, %q; want the --repo hint", code, stderr)
	}
	g := filepath.Join(t.TempDir(), "g.cfg")
	os.WriteFile(g, []byte("{{1, 2}, {2}, {}}\n"), 0o644)
	if code, _, stderr := runCmd([]string{"minimize", "--inject", "swap-arms", "--baseline", "v1", g}, ""); code != 2 || !strings.Contains(stderr, "repo:DIR@v1") {
		t.Errorf("minimize --baseline v1 outside: exit %d, %q; want 2 and the refusal", code, stderr)
	}
}

// TestBaselineThatIsAPath: a --baseline (or --current) value that reads
// as a path to a program, by its ./, ../ or / or, outside cfgfuzz's
// repository, by the file it names, is refused with the cmd: spec that
// names it as a command, not taken for a revision of cfgfuzz, in run,
// compare and minimize; inside cfgfuzz's repository too for ./ and /.
func TestBaselineThatIsAPath(t *testing.T) {
	for _, v := range []string{"./adapter-good", "/usr/local/bin/adapter"} {
		if _, err := revisionSpec("--baseline", v, ""); err == nil || !strings.Contains(err.Error(), "give --baseline cmd:"+v) {
			t.Errorf("%s inside cfgfuzz's repository: %v, want a refusal naming --baseline cmd:%s", v, err, v)
		}
	}
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile(filepath.Join(dir, "adapter-good"), []byte("#!/bin/sh\n"), 0o755)
	if _, err := revisionSpec("--baseline", "adapter-good", ""); err == nil || !strings.Contains(err.Error(), "give --baseline cmd:./adapter-good") {
		t.Errorf("an existing file outside: %v, want a refusal naming --baseline cmd:./adapter-good", err)
	}
	g := filepath.Join(dir, "g.cfg")
	os.WriteFile(g, []byte("{{1, 2}, {2}, {}}\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--structurizer", "./adapter-bad", "--baseline", "./adapter-good", "--graphs", "5", "--out", filepath.Join(dir, "c")}, "give --baseline cmd:./adapter-good"},
		{[]string{"run", "--baseline", "./adapter-good", "--graphs", "5", "--out", filepath.Join(dir, "r")}, "give --baseline cmd:./adapter-good"},
		{[]string{"compare", "--baseline", "self", "--current", "./adapter-good", "--graphs", "5", "--out", filepath.Join(dir, "k")}, "give --current cmd:./adapter-good"},
		{[]string{"minimize", "--inject", "swap-arms", "--baseline", "./adapter-good", g}, "give --baseline cmd:./adapter-good"},
	} {
		code, stdout, stderr := runCmd(c.args, "")
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "repo:DIR@") || strings.Contains(stderr+stdout, "go build") {
			t.Errorf("cfgfuzz %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// TestLastGoodNamesItsRepository: a good night of repo:DIR@REV is that
// repository's revision for a command without --repo, and the bare
// revision for compare --repo DIR.
func TestLastGoodNamesItsRepository(t *testing.T) {
	state := t.TempDir()
	rev := strings.Repeat("e", 40)
	os.WriteFile(filepath.Join(state, fuzz.StateFindingsFile),
		[]byte(`{"schema": "`+fuzz.StateSchema+`", "signatures": [], "last_good": {"night": "2026-12-01", "revision": "`+rev+`", "repo": "/src/app"}}`), 0o644)
	var log strings.Builder
	f := &campaignFlags{state: state}
	if got, err := f.lastGood(lastGoodBaseline, &log); err != nil || got != "repo:/src/app@"+rev {
		t.Errorf("without --repo: %q, %v; want repo:/src/app@%s", got, err, rev)
	}
	f = &campaignFlags{state: state, repo: "/src/app"}
	if got, err := f.lastGood(lastGoodBaseline, &log); err != nil || got != rev {
		t.Errorf("with --repo /src/app: %q, %v; want the bare revision", got, err)
	}
	t.Log(log.String())
}

// TestLastGoodWithoutANight: with no good night recorded, last-good is the
// parent of a repo:DIR@REV structurizer's revision, and refused for a cmd:
// structurizer (HEAD~1 would be a revision of cfgfuzz, not of it).
func TestLastGoodWithoutANight(t *testing.T) {
	state := t.TempDir()
	var log bytes.Buffer
	f := &campaignFlags{state: state, structurizerCmd: "repo:/src/app@main"}
	if got, err := f.lastGood(lastGoodBaseline, &log); err != nil || got != "repo:/src/app@HEAD~1" {
		t.Errorf("repo structurizer: %q, %v; want repo:/src/app@HEAD~1", got, err)
	}
	f = &campaignFlags{state: state, structurizerCmd: "cmd:./ss"}
	if _, err := f.lastGood(lastGoodBaseline, &log); err == nil || !strings.Contains(err.Error(), "HEAD~1 would be a revision of cfgfuzz, not of cmd:./ss") {
		t.Errorf("cmd structurizer: %v, want a refusal", err)
	}
	f = &campaignFlags{state: state}
	if got, err := f.lastGood(lastGoodBaseline, &log); err != nil || got != "HEAD~1" {
		t.Errorf("cfgfuzz's own: %q, %v; want HEAD~1", got, err)
	}
}

// TestLastGoodNotesKnownSignatures: a last good night that classed
// signatures known (good means nothing new) is named with a note on
// stderr: how many, which (the first few), and that a comparison against
// its revision cannot show them as new. One without any has no note.
func TestLastGoodNotesKnownSignatures(t *testing.T) {
	state := t.TempDir()
	rev := strings.Repeat("e", 40)
	write := func(known string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(state, fuzz.StateFindingsFile),
			[]byte(`{"schema": "`+fuzz.StateSchema+`", "signatures": [], "last_good": {"night": "2026-12-02", "revision": "`+rev+`"`+known+`}}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`, "known": [{"signature": "exec:trace-mismatch"}, {"signature": "exec:trace-mismatch", "strategy": "dispatch"}, {"signature": "rules:R12"}, {"signature": "pdom:mismatch"}]`)
	var log strings.Builder
	f := &campaignFlags{state: state}
	if got, err := f.lastGood(lastGoodBaseline, &log); err != nil || got != rev {
		t.Fatalf("last-good: %q, %v; want %s", got, err, rev)
	}
	const want = "cfgfuzz: note: the baseline is the revision of the last good night, 2026-12-02, which had 4 known signatures (exec:trace-mismatch, exec:trace-mismatch (strategy dispatch), rules:R12 and 1 more): a good night is one with nothing new, so that revision fails with them, and this comparison cannot show them as new\n"
	if !strings.Contains(log.String(), want) {
		t.Errorf("stderr:\n%s\nwant the note\n%s", log.String(), want)
	}
	rep := &fuzz.Report{State: &fuzz.StateReport{Night: "2026-12-03", Classes: map[string]int{}, BaselineLastGood: &fuzz.GoodNight{Night: "2026-12-02", Revision: rev,
		Known: []fuzz.KnownSignature{{Signature: "exec:trace-mismatch"}}}}}
	if sum := stateSummary(rep); !strings.Contains(sum, "\n  note: the baseline is the revision of the last good night, 2026-12-02, which had 1 known signature (exec:trace-mismatch): ") {
		t.Errorf("the state summary lacks the note:\n%s", sum)
	}
	write("")
	log.Reset()
	f = &campaignFlags{state: state}
	if _, err := f.lastGood(lastGoodBaseline, &log); err != nil || strings.Contains(log.String(), "note:") {
		t.Errorf("a good night without known signatures: %v, stderr %q; want no note", err, log.String())
	}
}
