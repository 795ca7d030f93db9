// baseline_failed.go remembers failed builds: a build command that fails
// on a revision leaves, next to where the build would be kept, a record
// (REVISION.failed: the command, its error and its output, as the
// BuildError said them) that every later build of that revision with the
// same commands reports at once instead of building again, for
// FailedFor: long enough for a bisection or a night's commands, short
// enough that a failure the machine caused (a tool missing, the network)
// is tried again the next night without anyone deleting the record.
// Changing the build or serve command changes the project's cache
// directory, so the new command is tried; deleting the record (or the
// project's directory) builds the revision again at once. A stopped build
// (a signal) and a failure of git or of the cache itself are not recorded.

package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// FailedSuffix ends the name of a failed build's record in the cache:
// builds/PROJECT/REVISION.failed.
const FailedSuffix = ".failed"

// FailedFor is how long a failed build's record stands, from when it was
// written (its modification time).
const FailedFor = 12 * time.Hour

// failedBuild is the record of a failed build.
type failedBuild struct {
	Rev     string `json:"rev"`
	Command string `json:"command"`
	Error   string `json:"error"`
	Output  string `json:"output"`
}

// recordFailure writes be's record for the build entry, whole or not at
// all (written aside and renamed into place).
func recordFailure(entry string, be *BuildError) error {
	raw, err := json.MarshalIndent(failedBuild{Rev: be.Rev.String(), Command: be.unplace(be.Command), Error: be.Err.Error(), Output: be.unplace(be.Output)}, "", "  ")
	if err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s%s.tmp%d", entry, FailedSuffix, os.Getpid())
	if err := os.WriteFile(tmp, append(raw, '\n'), 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, entry+FailedSuffix); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// cachedFailure is the recorded failure of the build entry of rev, or nil
// when there is none, it is older than FailedFor (or dated ahead of this
// machine's clock), or it cannot be read: then the build runs again.
func cachedFailure(rev Revision, entry string) *BuildError {
	st, err := os.Stat(entry + FailedSuffix)
	if err != nil {
		return nil
	}
	if age := time.Since(st.ModTime()); age > FailedFor || age < -time.Minute {
		return nil // stale, or written by a clock ahead of this one's (a shared cache): built again
	}
	raw, err := os.ReadFile(entry + FailedSuffix)
	if err != nil {
		return nil
	}
	var f failedBuild
	if err := json.Unmarshal(raw, &f); err != nil || f.Rev != rev.String() || f.Error == "" {
		return nil
	}
	return &BuildError{Rev: rev, Command: f.Command, Err: errors.New(f.Error), Output: f.Output}
}
