package fuzz

import (
	"os"
	"path/filepath"
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
