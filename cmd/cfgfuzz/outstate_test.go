// outstate_test.go: run, compare and merge refuse an --out that is the
// --state directory, holds it or lies inside it, before any work
// (outstate.go).
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestOutAndStateOverlapRefused(t *testing.T) {
	tmp := t.TempDir()
	st := filepath.Join(tmp, "st")
	if err := os.Mkdir(st, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(st, filepath.Join(tmp, "link")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args string // @ is the temporary directory
		want string
		made string // a directory the refusal must not make
	}{
		{"run --graphs 2 --state @/sw-st --out @/sw-st", "are one directory", "sw-st"},
		{"run --graphs 2 --state @/nest/state --out @/nest", "--state @/nest/state is inside --out @/nest", "nest"},
		{"run --graphs 2 --state @/st --out @/st/out", "--out @/st/out is inside --state @/st", "st/out"},
		{"run --graphs 2 --state @/st/ --out @/./st", "are one directory", ""},
		{"run --graphs 2 --state @/st --out @/link/out", "is inside --state", "st/out"},
		{"compare --graphs 2 --baseline self --state @/link --out @/st", "are one directory", ""},
		{"run --resume @/st --state @/st", "are one directory", ""},
		{"merge --state @/st --out @/st @/shard0", "are one directory", ""},
		{"merge --state @/m/state --out @/m @/shard0", "--state @/m/state is inside --out @/m", "m"},
	} {
		args := strings.Fields(strings.ReplaceAll(c.args, "@", tmp))
		want := strings.ReplaceAll(c.want, "@", tmp)
		code, _, stderr := runCmd(args, "")
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, want 2 and %q:\n%s", c.args, code, want, stderr)
		}
		if c.made != "" {
			if _, err := os.Stat(filepath.Join(tmp, c.made)); err == nil {
				t.Errorf("%s: the refusal made %s", c.args, c.made)
			}
		}
		if _, err := os.Stat(filepath.Join(st, fuzz.CampaignFile)); err == nil {
			t.Fatalf("%s: a campaign ran in %s", c.args, st)
		}
	}
}

// TestStateThatIsACampaignsOutputRefused: run --state DIR, DIR a
// campaign's output, is refused naming its files, and DIR gets no state.
func TestStateThatIsACampaignsOutputRefused(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	if code, _, stderr := runCmd([]string{"run", "--graphs", "2", "--progress", "none", "--out", out}, ""); code != 0 {
		t.Fatalf("the campaign: exit %d\n%s", code, stderr)
	}
	code, _, stderr := runCmd([]string{"run", "--graphs", "2", "--state", out, "--out", filepath.Join(tmp, "night")}, "")
	if code != exitUsage || !strings.Contains(stderr, "holds a campaign's output (report.json, "+fuzz.CampaignFile+", "+fuzz.ResultsFile+"), not a state") {
		t.Errorf("run --state OUT: exit %d, want 2 naming the campaign's files:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, fuzz.StateFindingsFile)); err == nil {
		t.Errorf("the refusal wrote %s into the campaign's output", fuzz.StateFindingsFile)
	}
}

func TestCheckOutStateSeparate(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range [][2]string{
		{filepath.Join(tmp, "a"), filepath.Join(tmp, "ab")},
		{filepath.Join(tmp, "ab"), filepath.Join(tmp, "a")},
		{filepath.Join(tmp, "x", "out"), filepath.Join(tmp, "x", "state")},
		{filepath.Join(tmp, "..a"), filepath.Join(tmp, "b")},
	} {
		if err := checkOutState(c[0], c[1]); err != nil {
			t.Errorf("--out %s --state %s: %v, want two directories accepted", c[0], c[1], err)
		}
	}
}
