// keptfunc_test.go: a campaign on a structurizer answering a failing
// graph with a structured function of megabytes keeps none of it in its
// results log or report, only its size (func_cut), as it keeps a bounded
// prefix of the server's other texts.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// hugeFunc relays every request to the server it is given and adds to
// each func answer's entry block 200,000 stores of a variable that does
// not exist: a function of megabytes that the emitter refuses (a finding).
const hugeFunc = `import json, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    child.stdin.write(line)
    child.stdin.flush()
    resp = json.loads(child.stdout.readline())
    if resp.get("func"):
        resp["func"]["blocks"][0]["stores"] = [{"var": 99999}] * 200000
    sys.stdout.write(json.dumps(resp) + "\n")
    sys.stdout.flush()
`

func TestCampaignBoundsAHugeFunc(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	bin := cfgfuzzBinary(t)
	tmp := t.TempDir()
	script, dir := filepath.Join(tmp, "huge.py"), filepath.Join(tmp, "c")
	if err := os.WriteFile(script, []byte(hugeFunc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := exitCode(t, exec.Command(bin, "run", "--structurizer", "cmd:python3 "+script+" "+bin+" structurize",
		"--graphs", "3", "--kinds", "reducible", "--workers", "1", "--progress", "none", "--minimize=false", "--out", dir))
	if code != exitFail {
		t.Fatalf("exit %d, want %d (findings)\n%s", code, exitFail, out)
	}
	rep := readReportJSON(t, dir)
	if len(rep.Findings) == 0 {
		t.Fatalf("no finding\n%s", out)
	}
	for _, f := range rep.Findings {
		if f.Func != nil || f.FuncCut <= fuzz.MaxKeptFunc {
			t.Errorf("finding %s: func kept %v, func_cut %d; want none kept and its size past %d", f.Signature, f.Func != nil, f.FuncCut, fuzz.MaxKeptFunc)
		}
	}
	for _, name := range []string{"results.jsonl", "report.json", "report.html"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() > 1<<20 {
			t.Errorf("%s: %v, want under 1 MiB whatever the functions answered", name, st.Size())
		}
	}
	if html := readFile(t, filepath.Join(dir, "report.html")); !strings.Contains(html, "the structured function is not kept") {
		t.Errorf("report.html does not say why the after picture is missing")
	}
}
