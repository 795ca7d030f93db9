// check_repeat_test.go tests `check --repeat N` on a structurizer whose
// processes answer differently: every other process it starts plants a
// fault, so judgements on sides of their own disagree in a known way.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestCheckRepeatSilentStructurizer: on a structurizer that answers the
// protocol's hello and then nothing, --repeat 4 waits one --timeout for a
// graph, not four: the judgement that timed out is the graph's verdict (a
// finding), the 3 left are not run and the note and --json say how many
// and why, never counting them as alike; a server that does not answer
// even its hello ends them likewise. No server is left running.
func TestCheckRepeatSilentStructurizer(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	// Each process started counts itself, answers the hello, then waits.
	mute := filepath.Join(dir, "mute.sh")
	body := "#!/bin/sh\necho >> \"$0.count\"\nread -r line\n" +
		"id=$(printf '%s' \"$line\" | sed 's/.*\"id\":\\([0-9]*\\).*/\\1/')\n" +
		"printf '{\"id\":%s,\"outcome\":\"ok\",\"hello\":{\"v\":2,\"name\":\"mute\"}}\\n' \"$id\"\nexec sleep 1000\n"
	silentScript := filepath.Join(dir, "silent.sh")
	for path, text := range map[string]string{mute: body, silentScript: "#!/bin/sh\necho >> \"$0.count\"\nexec sleep 1000\n"} {
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		script, outcome, reason string
		code                    int
	}{
		{mute, outcomeFail, "judgement 1 timed out (structurize:timeout)", exitFail},
		{silentScript, outcomeError, "judgement 1 got no answer to the protocol's hello", exitUsage},
	} {
		for _, asJSON := range []bool{false, true} {
			os.Remove(tc.script + ".count")
			args := []string{"check", "--structurizer", "cmd:" + tc.script, "--timeout", "1s", "--start-timeout", "1s", "--repeat", "4", g}
			if asJSON {
				args = append(args, "--json")
			}
			cmd := exec.Command(bin, args...)
			var out, errs bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errs
			code, token := runWithServerToken(t, cmd)
			counted, _ := os.ReadFile(tc.script + ".count")
			if code != tc.code || strings.Count(string(counted), "\n") != 1 {
				t.Errorf("%s: exit %d, want %d; %d processes started, want 1 (the others of the graph's judgements not run)\n%s%s",
					filepath.Base(tc.script), code, tc.code, strings.Count(string(counted), "\n"), out.String(), errs.String())
			}
			if asJSON {
				var rec checkRecord
				want := judgements{Alike: 1, Judged: 1, NotRun: 3, NotRunReason: tc.reason}
				if err := json.Unmarshal(out.Bytes(), &rec); err != nil || rec.Outcome != tc.outcome || rec.Judgements == nil || *rec.Judgements != want {
					t.Errorf("%s --json: outcome %q, judgements %+v, want %q and %+v (%v)\n%s", filepath.Base(tc.script), rec.Outcome, rec.Judgements, tc.outcome, want, err, out.String())
				}
				if err := schema.Validate(out.Bytes()); err != nil {
					t.Errorf("the --repeat line does not validate: %v\n%s", err, out.String())
				}
			} else if want := "[1 of 1 judgements alike; 3 not run: " + tc.reason + ","; !strings.Contains(out.String(), want) {
				t.Errorf("%s: no %q in\n%s", filepath.Base(tc.script), want, out.String())
			}
			if left := leftAfter(token, 5*time.Second); len(left) > 0 {
				t.Errorf("%s: processes of the server left: %v", filepath.Base(tc.script), left)
				killPids(left)
			}
		}
	}
}
