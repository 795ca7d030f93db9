package fuzz

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForceClearsTheOldCampaign: a forced new campaign removes every file
// and directory the old one wrote, and leaves the user's own files.
func TestForceClearsTheOldCampaign(t *testing.T) {
	dir := t.TempDir()
	for _, name := range campaignFiles {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "x"), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &Config{Dir: dir}
	if _, err := c.openDir(); err == nil {
		t.Fatal("a new campaign without force took over the old one's directory")
	}
	c.Force = true
	unlock, err := c.openDir()
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for _, name := range append(campaignFiles, PicturesDir, RerunFile, StateUpdateDir) {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s of the old campaign is left", name)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the user's own file is gone: %v", err)
	}
}

// TestCheckDirFreeHintsOnlyAResumeThatCanRun: a directory holding an
// interrupted night names the resume with its state; one holding a
// finished night, whose end committed its update into the state (so the
// state is no longer the one it read), names no resume.
func TestCheckDirFreeHintsOnlyAResumeThatCanRun(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	if err := saveCampaign(dir, Settings{Seed: 1, Graphs: 10}, thisWriter, state, SideFiles{}); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.json")
	for _, c := range []struct {
		report, want, not string
	}{
		{"", "continue it with --resume " + dir + " --state " + state, "finished"},
		{`{"graphs": 10, "incomplete": {"reason": "interrupted (SIGINT)"}}`, "continue it with --resume " + dir + " --state " + state, "finished"},
		{`{"graphs": 10}`, dir + " holds a finished night of the state " + state + " (its report is complete and its update committed): replace it with --force", "--resume"},
	} {
		os.Remove(report)
		if c.report != "" {
			if err := os.WriteFile(report, []byte(c.report), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := CheckDirFree(dir, false)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not) {
			t.Errorf("report %q: %v, want %q and not %q", c.report, err, c.want, c.not)
		}
	}
	// A finished shard committed nothing: its merge commits the night.
	if err := saveCampaign(dir, Settings{Seed: 1, Graphs: 10, Shard: Shard{I: 1, N: 2}, Night: "2026-03-01"}, thisWriter, state, SideFiles{}); err != nil {
		t.Fatal(err)
	}
	want := dir + " holds finished shard 1/2 of night 2026-03-01 of the state " + state + " (its report is complete; nothing committed: the merge of the night's shards commits it): replace it with --force, or choose another --out"
	if err := CheckDirFree(dir, false); err == nil || err.Error() != want {
		t.Errorf("a finished shard: %v, want %q", err, want)
	}
}

// TestCheckDirFreeRefusesOtherFiles: a directory holding files no
// campaign writes, and no campaign, is refused, forced or not (naming
// them); a missing or empty one, one holding only hidden files, a lock
// and a temporary file, or one holding a campaign beside other files
// (its resume and --force are for that campaign) is not refused for them.
// A forced campaign into a directory holding a campaign's names but no
// campaign (a findings/ of the user's) removes none of them.
func TestCheckDirFreeRefusesOtherFiles(t *testing.T) {
	base := t.TempDir()
	mk := func(name string, files ...string) string {
		dir := filepath.Join(base, name)
		for _, f := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, force := range []bool{false, true} {
		dir := mk(fmt.Sprint("user", force), "precious.txt")
		if err := CheckDirFree(dir, force); err == nil || !strings.Contains(err.Error(), "no campaign's (precious.txt)") {
			t.Errorf("force %v: %v, want the directory refused naming precious.txt", force, err)
		}
	}
	for _, dir := range []string{filepath.Join(base, "missing"), mk("empty"), mk("quiet", ".gitkeep", LockFile, "report.html.tmp")} {
		if err := CheckDirFree(dir, false); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
	names := mk("names", "findings/mynotes.txt", "pictures/holiday.jpg")
	c := &Config{Dir: names, Force: true}
	unlock, err := c.openDir()
	if err != nil {
		t.Fatalf("forced into a directory of a campaign's names and no campaign: %v", err)
	}
	unlock()
	for _, f := range []string{"findings/mynotes.txt", "pictures/holiday.jpg"} {
		if _, err := os.Stat(filepath.Join(names, f)); err != nil {
			t.Errorf("--force with no campaign there removed %s: %v", f, err)
		}
	}
	withCampaign := mk("campaign", CampaignFile, "notes.txt")
	if err := CheckDirFree(withCampaign, true); err != nil {
		t.Errorf("a campaign beside a note, forced: %v", err)
	}
}
