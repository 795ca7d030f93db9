// declined_test.go: a campaign on an external adapter that refuses some
// graphs lists them by reason in report.json (which validates against its
// schema), report.md and the summary, each reason's replay refusing its
// graph again; workers do not change the list. One that answers request
// errors on graphs cfgfuzz generated is told it may misread them.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
)

// pythonAdapterAnswering is the cmd: spec of the Python example adapter
// with the code first put before it structurizes a graph (Python lines,
// indented 4, that may return an answer: rid is the request's id, succs
// the graph's successor lists).
func pythonAdapterAnswering(t *testing.T, first string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "fuzz", "examples", "python-adapter", "cfgfuzz_adapter.py"))
	if err != nil {
		t.Fatal(err)
	}
	const at = "    func, stats = structurize(succs, weights, bug)\n"
	if !strings.Contains(string(src), at) {
		t.Fatalf("the example adapter no longer has the line %q", at)
	}
	path := filepath.Join(t.TempDir(), "adapter.py")
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), at, first+at, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return "cmd:python3 " + path
}

// refusingAdapter is the Python example adapter refusing graphs of more
// than 6 blocks (its reason naming the count) and graphs with a switch.
func refusingAdapter(t *testing.T) string {
	return pythonAdapterAnswering(t, "    if len(succs) > 6:\n        return {\"id\": rid, \"outcome\": \"refused\", \"reason\": \"more than 6 blocks (%d)\" % len(succs)}\n"+
		"    if any(len(s) > 2 for s in succs):\n        return {\"id\": rid, \"outcome\": \"refused\", \"reason\": \"switch\"}\n")
}

func TestDeclinedByReason(t *testing.T) {
	spec := refusingAdapter(t)
	var lists []string
	for _, workers := range []string{"1", "3"} {
		out := filepath.Join(t.TempDir(), "c")
		code, stdout, stderr := runCmd([]string{"run", "--structurizer", spec, "--graphs", "200", "--workers", workers, "--progress", "none", "--out", out}, "")
		if code != exitOK {
			t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
		}
		if !strings.Contains(stdout, "declined: ") || !strings.Contains(stdout, " refused: more than N blocks (N)") || !strings.Contains(stdout, " refused: switch") {
			t.Errorf("the summary does not list the reasons:\n%s", stdout)
		}
		b, err := os.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(b); err != nil {
			t.Errorf("report.json does not validate: %v", err)
		}
		rep := readReportJSON(t, out)
		if rep.Declined == nil || len(rep.Declined.Reasons) != 2 {
			t.Fatalf("declined %+v, want the two reasons", rep.Declined)
		}
		total := 0
		for _, r := range rep.Declined.Reasons {
			total += r.Graphs
		}
		if total != rep.Outcomes[fuzz.OutRefused] {
			t.Errorf("the reasons count %d graphs, the outcomes %d refused", total, rep.Outcomes[fuzz.OutRefused])
		}
		first := rep.Declined.Reasons[0]
		cmd := exec.Command("sh", "-c", strings.ReplaceAll(first.Replay, "cfgfuzz ", cfgfuzzBinary(t)+" "))
		if got, _ := cmd.CombinedOutput(); !strings.Contains(string(got), "refused") {
			t.Errorf("the replay %q of %q does not refuse its graph:\n%s", first.Replay, first.Reason, got)
		}
		if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "## Declined graphs by reason") {
			t.Errorf("report.md has no declined section")
		}
		lists = append(lists, timelessDeclined(rep))
	}
	if lists[0] != lists[1] {
		t.Errorf("1 and 3 workers list the reasons differently:\n%s\n%s", lists[0], lists[1])
	}
}

// TestEveryGraphRefused: a structurizer that refuses every graph judged
// none: the campaign warns, says it is incomplete, exits 2, and report.md
// does not claim that modules ran the checks; one refusing most graphs
// warns and passes on the rest.
func TestEveryGraphRefused(t *testing.T) {
	for _, c := range []struct {
		name, first, warning string
		code                 int
	}{
		{"every", "    return {\"id\": rid, \"outcome\": \"refused\", \"reason\": \"not yet\"}\n", "warning: 30 of 30 graphs declined (30 refused, 0 unsupported)", exitUsage},
		{"most", "    if len(succs) > 5:\n        return {\"id\": rid, \"outcome\": \"refused\", \"reason\": \"not yet\"}\n", " declined (", exitOK},
	} {
		out := filepath.Join(t.TempDir(), "c")
		code, stdout, stderr := runCmd([]string{"run", "--structurizer", pythonAdapterAnswering(t, c.first), "--graphs", "30", "--progress", "none", "--out", out}, "")
		incomplete := strings.Contains(stderr, "declined every graph, so the campaign judged none: incomplete (exit 2)")
		if code != c.code || !strings.Contains(stderr, c.warning) || incomplete != (c.code == exitUsage) {
			t.Errorf("%s refused: exit %d, want %d, the warning %q, incomplete %v:\n%s%s", c.name, code, c.code, c.warning, c.code == exitUsage, stdout, stderr)
		}
		if md := readFile(t, filepath.Join(out, "report.md")); strings.Contains(md, "Every module ran the checks") == (c.code == exitUsage) {
			t.Errorf("%s refused: report.md says of the checks:\n%s", c.name, md)
		}
	}
}

// timelessDeclined is a report's declined reasons as text.
func timelessDeclined(rep *fuzz.Report) string {
	var b strings.Builder
	for _, r := range rep.Declined.Reasons {
		b.WriteString(r.Outcome + " " + r.Reason + " " + r.First.Graph + " " + r.Replay + "\n")
	}
	return b.String()
}

// TestRequestErrorsHinted: an adapter that answers a request error on
// some graphs cfgfuzz generated (a misreading of the compact notation)
// gets a note naming the first graph and the command that shows its
// answer, which shows it.
func TestRequestErrorsHinted(t *testing.T) {
	spec := pythonAdapterAnswering(t, "    if len(succs) >= 7:\n        return {\"id\": rid, \"outcome\": \"error\", \"reason\": REQUEST_ERROR + \"bad graph\"}\n")
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", spec, "--graphs", "60", "--progress", "none", "--out", filepath.Join(t.TempDir(), "c")}, "")
	_, cmdline, ok := strings.Cut(stderr, "note: the structurizer answered a request error on graphs cfgfuzz generated")
	if code != exitUsage || !ok {
		t.Fatalf("exit %d, want 2 and the note\n%s%s", code, stdout, stderr)
	}
	_, cmdline, _ = strings.Cut(cmdline, "`")
	cmdline, _, _ = strings.Cut(cmdline, "`")
	out, _ := exec.Command("sh", "-c", strings.Replace(cmdline, "cfgfuzz check", cfgfuzzBinary(t)+" check", 1)).CombinedOutput()
	if !strings.Contains(string(out), "request: bad graph") {
		t.Errorf("the note's command %q does not show the answer:\n%s", cmdline, out)
	}
}
