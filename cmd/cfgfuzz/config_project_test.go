// config_project_test.go: report.json's config.project records only the
// build and serve commands given on the command line: absent when
// .cfgfuzz.json gives both, and without the key of one not given.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestConfigProjectRecordsOnlyTheFlagsGiven(t *testing.T) {
	ownBuildCache(t)
	repo, good, bad := plantedToyRepo(t, toyConfig)
	work := t.TempDir()
	project := func(out string, flags ...string) (json.RawMessage, bool) {
		t.Helper()
		args := append([]string{"compare", "--repo", repo, "--baseline", good, "--current", bad, "--kinds", "exhaustive", "--graphs", "5",
			"--minimize=false", "--progress", "none", "--out", filepath.Join(work, out)}, flags...)
		if code, _, stderr := cliIn(t, work, args...); code != exitFail {
			t.Fatalf("compare %s: exit %d, want 1 (the planted bug):\n%s", out, code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(work, out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Config map[string]json.RawMessage `json:"config"`
		}
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		p, ok := rep.Config["project"]
		return p, ok
	}
	if p, ok := project("file"); ok {
		t.Errorf("build and serve from .cfgfuzz.json: config.project is %s, want it absent", p)
	}
	build := "python3 -m py_compile toy.py && cp toy.py {out}/toy.py"
	p, ok := project("build", "--build", build)
	var keys map[string]string
	if err := json.Unmarshal(p, &keys); !ok || err != nil || len(keys) != 1 || keys["build"] != build {
		t.Errorf("--build alone: config.project is %s (%v), want the build command alone", p, err)
	}
}
