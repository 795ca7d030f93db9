// check_repeat_test.go tests `check --repeat N` on a structurizer whose
// processes answer differently: every other process it starts plants a
// fault, so judgements on sides of their own disagree in a known way.

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
)

// alternating writes a cmd: structurizer script that starts cfgfuzz's
// own structurizer server, counting its processes in a file beside it,
// with swap-arms planted in the processes of every other side: a side
// (one judgement) starts perSide processes (the meta check starts one of
// its own), which the test measures first, planting in every process.
func alternating(t *testing.T) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "alternating.sh")
	body := "#!/bin/sh\nn=$(cat \"$0.count\" 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > \"$0.count\"\n" +
		"k=$(cat \"$0.per-side\" 2>/dev/null || echo $((n+1)))\n" +
		"if [ $(( (n-1) / k % 2 )) = 0 ]; then exec '" + cfgfuzzBinary(t) + "' structurize --inject swap-arms; fi\nexec '" + cfgfuzzBinary(t) + "' structurize\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	// One judgement without --repeat counts the processes of a side.
	if code, out, errs := runCmd([]string{"check", "--structurizer", "cmd:" + script}, "{{1, 2}, {2}, {}}"); code != exitFail {
		t.Fatalf("the first side does not plant its fault: exit %d\n%s%s", code, out, errs)
	}
	if err := os.Rename(script+".count", script+".per-side"); err != nil {
		t.Fatal(err)
	}
	return script
}

// TestCheckRepeat: --repeat 3 judges each graph on three sides, says how
// many judgements ended alike and calls disagreeing ones flaky (text and
// --json), keeps the failing judgement's line and exit status, and
// refuses a count below 1.
func TestCheckRepeat(t *testing.T) {
	const graph = "{{1, 2}, {2}, {}}"
	script := alternating(t)
	code, out, errs := runCmd([]string{"check", "--structurizer", "cmd:" + script, "--repeat", "3"}, graph)
	if code != exitFail || !strings.HasPrefix(out, "FAIL exec:trace-mismatch ") || !strings.Contains(out, "[flaky: 2 of 3 judgements alike;") {
		t.Errorf("check --repeat 3 on an alternating structurizer: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd([]string{"check", "--structurizer", "cmd:" + script, "--repeat", "3", "--json"}, graph)
	var rec checkRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != exitFail || rec.Judgements == nil || *rec.Judgements != (judgements{Alike: 1, Judged: 3}) {
		// sides 4, 5 and 6: clean, planted, clean
		t.Errorf("--json: exit %d, judgements %+v (%v)\n%s%s", code, rec.Judgements, err, out, errs)
	}
	if err := schema.Validate([]byte(out)); err != nil {
		t.Errorf("the --repeat line does not validate: %v\n%s", err, out)
	}
	code, out, errs = runCmd([]string{"check", "--repeat", "3"}, graph)
	if code != exitOK || !strings.HasPrefix(out, "ok ") || !strings.HasSuffix(strings.TrimSpace(out), "[3 of 3 judgements alike]") {
		t.Errorf("check --repeat 3 on the own structurizer: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCmd([]string{"check", "--repeat", "0"}, graph); code != exitUsage || !strings.Contains(errs, "--repeat 0") {
		t.Errorf("--repeat 0: exit %d, %s", code, errs)
	}
}
