// baseline_project.go writes what a project folder of the build cache
// (builds/PROJECT/, PROJECT a digest of the build and serve commands:
// Project.key) is: PROJECT/project.json names the commands, the
// repositories whose revisions were built there and when the folder was
// made, so that a user can tell the hashed folders apart and delete those
// no longer needed. A folder's builds are keyed by commit, so
// repositories built with the same two commands share one.

package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// ProjectInfoFile is the file in a project folder of the build cache that
// says what the folder is.
const ProjectInfoFile = "project.json"

// ProjectInfo is project.json.
type ProjectInfo struct {
	// Repositories are the top directories of the repositories whose
	// revisions were built in the folder, in the order they first were.
	Repositories []string `json:"repositories"`
	Build        string   `json:"build"`
	Serve        string   `json:"serve"`
	// Made is when the folder was made (RFC 3339, UTC).
	Made string `json:"made"`
}

// ReadProjectInfo reads dir's project.json.
func ReadProjectInfo(dir string) (ProjectInfo, error) {
	var info ProjectInfo
	b, err := os.ReadFile(filepath.Join(dir, ProjectInfoFile))
	if err != nil {
		return info, err
	}
	return info, json.Unmarshal(b, &info)
}

// noteProject writes the project folder dir's project.json for p, adding
// repo's top directory to its repositories when it is not there yet. It
// is best effort: a folder whose file cannot be written builds all the
// same. Two processes adding a repository at once may leave one out; its
// next build adds it.
func noteProject(dir string, p Project, repo string) {
	top, err := repoTop(repo)
	if err != nil {
		return
	}
	info, err := ReadProjectInfo(dir)
	if err != nil || info.Build != p.Build || info.Serve != p.Serve {
		info = ProjectInfo{Build: p.Build, Serve: p.Serve, Made: time.Now().UTC().Format(time.RFC3339)}
	}
	if slices.Contains(info.Repositories, top) {
		return
	}
	info.Repositories = append(info.Repositories, top)
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return
	}
	f, err := os.CreateTemp(dir, "."+ProjectInfoFile+".*")
	if err != nil {
		return
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, ProjectInfoFile))
	}
	if err != nil {
		os.Remove(f.Name())
	}
}
