// lint_test.go: `cfgfuzz lint` exit codes and output: 0 clean, 1
// violations (rule ids on stdout, in text and JSON), 2 unreadable input.
package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lintFiles assembles the template module, a copy that lost a selection
// merge, and a file that is not SPIR-V.
func lintFiles(t *testing.T) (clean, broken, garbage string) {
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Skip("spirv-as not installed")
	}
	src, err := os.ReadFile("../../oracle/testdata/template-module.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, text []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p+".spvasm", text, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(as, "--target-env", "vulkan1.1", "-o", p, p+".spvasm").CombinedOutput(); err != nil {
			t.Fatalf("spirv-as: %v %s", err, out)
		}
		return p
	}
	clean = write("clean.spv", src)
	broken = write("broken.spv", []byte(strings.Replace(string(src), "OpSelectionMerge %if_merge None\n", "", 1)))
	garbage = filepath.Join(dir, "garbage.spv")
	if err := os.WriteFile(garbage, []byte("hello, not a module"), 0o644); err != nil {
		t.Fatal(err)
	}
	return clean, broken, garbage
}

func TestLintExitCodes(t *testing.T) {
	clean, broken, garbage := lintFiles(t)
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{clean}, exitOK, "clean"},
		{[]string{clean, broken}, exitFail, "R12"},
		{[]string{broken, garbage}, exitUsage, "R12"},
		{[]string{}, exitUsage, ""},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"lint"}, c.args...), nil, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String(), c.out) {
			t.Errorf("lint %v: exit %d, want %d; stdout %q stderr %q", c.args, code, c.code, stdout.String(), stderr.String())
		}
	}
}

func TestLintJSON(t *testing.T) {
	_, broken, garbage := lintFiles(t)
	var stdout, stderr bytes.Buffer
	code := run([]string{"lint", "--json", broken, garbage}, nil, &stdout, &stderr)
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	dec := json.NewDecoder(&stdout)
	var recs []lintRecord
	for dec.More() {
		var r lintRecord
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if len(recs) != 2 || len(recs[0].Violations) == 0 || recs[0].Violations[0].Rule != "R12" || recs[1].Error == "" {
		t.Fatalf("records %+v", recs)
	}
	v := recs[0].Violations[0]
	if v.Func.Name != "main" || len(v.Blocks) == 0 || v.Blocks[0].Name != "body" {
		t.Errorf("violation should name main and the block body: %+v", v)
	}
}
