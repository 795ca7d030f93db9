// dir.go prepares a campaign directory for Run: created, locked for the
// run (lock.go), and, for a new campaign, free of another campaign's files
// unless Config.Force lets the new one replace them.

package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// campaignFiles are the files and directories a campaign writes into its
// directory, which a forced new campaign removes: nothing of the old
// campaign (its pictures, its night's re-runs and state update) is left
// to be read as the new one's.
var campaignFiles = []string{ResultsFile, CampaignFile, "report.json", "report.md", "report.html", "findings", PicturesDir, RerunFile, StateUpdateDir}

// DirError is a campaign directory that could not be made.
type DirError struct {
	Dir string
	Err error
}

func (e *DirError) Error() string { return fmt.Sprintf("campaign directory %s: %v", e.Dir, e.Err) }
func (e *DirError) Unwrap() error { return e.Err }

// openDir creates and locks c.Dir and clears an old campaign from it when
// c.Force allows; it returns what unlocks the directory.
func (c *Config) openDir() (unlock func(), err error) {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, &DirError{Dir: c.Dir, Err: err}
	}
	unlock, err = LockDir(c.Dir, c.Notes)
	if err != nil {
		return nil, err
	}
	if c.Resume {
		return unlock, nil
	}
	if err := CheckDirFree(c.Dir, c.Force); err != nil {
		unlock()
		return nil, err
	}
	if c.Force && holdsCampaign(c.Dir) != "" { // with no campaign there, its names are someone else's
		for _, name := range campaignFiles {
			if err := os.RemoveAll(filepath.Join(c.Dir, name)); err != nil {
				unlock()
				return nil, err
			}
		}
	}
	return unlock, nil
}

// CheckDirFree fails when a new campaign may not write into dir: dir
// holds another campaign and force is false. Run checks it under the
// directory's lock; a command checks it first too, so that it fails before
// building a revision.
func CheckDirFree(dir string, force bool) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is not a directory: choose another --out", dir)
	}
	old := holdsCampaign(dir)
	if old == "" {
		if foreign := foreignEntries(dir); len(foreign) > 0 {
			return fmt.Errorf("%s holds files that are no campaign's (%s): a campaign writes into a new or empty directory, or one holding a campaign (--force replaces only a campaign's files): choose another --out", dir, strings.Join(foreign, ", "))
		}
	}
	if old != "" && !force {
		if err := InUse(dir); err != nil { // a campaign being run there: no resume to offer
			return err
		}
		state := recordedStateDir(dir)
		if state != "" && finishedReport(dir) {
			if sh, night := recordedShard(dir); sh.N > 1 { // a shard commits nothing: its merge does
				return fmt.Errorf("%s holds finished shard %s of night %s of the state %s (its report is complete; nothing committed: the merge of the night's shards commits it): replace it with --force, or choose another --out", dir, sh, night, state)
			}
			// Its end committed the night into the state, which a
			// resume would no longer find as the campaign read it.
			return fmt.Errorf("%s holds a finished night of the state %s (its report is complete and its update committed): replace it with --force, or choose another --out", dir, state)
		}
		resume := "--resume " + quotedPath(dir)
		if state != "" {
			resume += " --state " + quotedPath(state) // a night's resume reads its state again
		}
		return fmt.Errorf("%s holds a campaign (%s): continue it with %s, replace it with --force, or choose another --out", dir, old, resume)
	}
	return nil
}

// recordedShard is the shard and the night DIR/campaign.json records
// (the zero Shard when it records none, or cannot be read).
func recordedShard(dir string) (Shard, string) {
	var f settingsFile
	b, err := readCampaignFile(dir)
	if err != nil || json.Unmarshal(b, &f) != nil {
		return Shard{}, ""
	}
	return f.Shard, f.Night
}

// foreignEntries names (up to 3, then "...") the entries of dir that no
// campaign writes: neither a campaign file, nor its lock, nor a temporary
// file (*.tmp) of an atomic write; hidden entries (.gitkeep, .DS_Store)
// are left out too. A campaign's first write into a directory holding
// other files would mix its files among them. (A campaign's names with
// no campaign, a findings/ of the user's, say, are not removed by
// --force: openDir removes a campaign's files only where one is.)
func foreignEntries(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // missing (a new campaign makes it), or unreadable: the lock or a write says so
	}
	var foreign []string
	for _, e := range entries {
		n := e.Name()
		if slices.Contains(campaignFiles, n) || n == LockFile || strings.HasPrefix(n, ".") || strings.HasSuffix(n, ".tmp") {
			continue
		}
		if len(foreign) == 3 {
			return append(foreign, "...")
		}
		foreign = append(foreign, n)
	}
	return foreign
}

// finishedReport says whether dir's report.json is a complete campaign's:
// it reads as a report (within MaxReportFile) and has no "incomplete"
// object.
func finishedReport(dir string) bool {
	b, err := readReportFile(dir)
	if err != nil {
		return false
	}
	var r struct {
		Incomplete *json.RawMessage `json:"incomplete"`
		Graphs     *int             `json:"graphs"`
	}
	return json.Unmarshal(b, &r) == nil && r.Graphs != nil && r.Incomplete == nil
}

// holdsCampaign names the first campaign file present in dir, "" none.
// A file that cannot be looked at for another reason than its absence (or
// a path through a file) counts as present.
func holdsCampaign(dir string) string {
	for _, name := range []string{CampaignFile, ResultsFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return name
		}
	}
	return ""
}
