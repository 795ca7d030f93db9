// state_test.go: two nights of `cfgfuzz run --state DIR` through the
// command line: yesterday's signatures known and exit 0; a planted fault
// removed fixed and a new one new, exit 1; a triaged signature known or
// ignored; and two shards merged with `cfgfuzz merge --state` leave the
// same report and state as the whole night, minimizing into the merged
// findings store.
package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// nightArgs is a small night on the default strategy with a planted fault.
func nightArgs(state, date, seed, fault, out string, extra ...string) []string {
	return append([]string{"run", "--graphs", "200", "--seed", seed, "--inject", fault, "--dispatch-every", "0",
		"--state", state, "--night", date, "--progress", "none", "--minimize=false", "--out", out}, extra...)
}

// runNight runs one night and returns its exit status and report.
func runNight(t *testing.T, args []string) (int, *fuzz.Report) {
	t.Helper()
	code, stdout, stderr := runCmd(args, "")
	t.Logf("cfgfuzz %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
	out := args[len(args)-1]
	for i, a := range args {
		if a == "--out" {
			out = args[i+1]
		}
	}
	return code, readJSONReport(t, out)
}

func readJSONReport(t *testing.T, dir string) *fuzz.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep fuzz.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.State == nil {
		t.Fatalf("%s: no state section", dir)
	}
	return &rep
}

func classOf(rep *fuzz.Report) map[string]string {
	m := map[string]string{}
	for _, s := range rep.State.Signatures {
		m[s.Signature] = s.Class
	}
	return m
}

func copyState(t *testing.T, from, to string) {
	t.Helper()
	os.MkdirAll(to, 0o755)
	es, _ := os.ReadDir(from)
	for _, e := range es {
		b, _ := os.ReadFile(filepath.Join(from, e.Name()))
		os.WriteFile(filepath.Join(to, e.Name()), b, 0o644)
	}
}

func TestNightsExitStatus(t *testing.T) {
	dir := t.TempDir()
	state, known := filepath.Join(dir, "state"), filepath.Join(dir, "known")
	code, one := runNight(t, nightArgs(state, "2026-03-01", "1", "drop-merge", filepath.Join(dir, "n1")))
	if code != exitFail || one.State.Classes[fuzz.ClassNew] == 0 {
		t.Fatalf("night 1: exit %d, classes %v; want 1 and new signatures", code, one.State.Classes)
	}
	copyState(t, state, known)
	code, same := runNight(t, nightArgs(known, "2026-03-02", "2", "drop-merge", filepath.Join(dir, "n2same")))
	if code != exitOK || same.State.Classes[fuzz.ClassNew] != 0 || same.State.Classes[fuzz.ClassKnown] == 0 {
		t.Errorf("night 2, same fault: exit %d, classes %v; want 0, known and nothing new", code, same.State.Classes)
	}
	code, other := runNight(t, nightArgs(state, "2026-03-02", "2", "clone-wrong-id", filepath.Join(dir, "n2other")))
	got := classOf(other)
	for sig := range classOf(one) {
		if got[sig] != fuzz.ClassFixed && got[sig] != fuzz.ClassKnown {
			t.Errorf("night 2, drop-merge removed: %s is %q, want fixed", sig, got[sig])
		}
	}
	if code != exitFail || got["exec:trace-mismatch"] != fuzz.ClassNew || other.State.Classes[fuzz.ClassFixed] == 0 {
		t.Errorf("night 2, clone-wrong-id planted: exit %d, classes %v; want 1, exec:trace-mismatch new, something fixed", code, got)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "n2other", "report.md"))
	if !strings.Contains(string(md), "| new | exec:trace-mismatch |") || !strings.Contains(string(md), "| fixed | rules:R12 |") {
		t.Errorf("report.md lacks the classes:\n%s", md)
	}
	// The user triages the new signature: the same night again passes.
	triaged := filepath.Join(dir, "triaged")
	copyState(t, filepath.Join(dir, "known"), triaged)
	os.WriteFile(filepath.Join(triaged, fuzz.StateTriageFile), []byte("# triage\nignored exec:trace-mismatch  clone ids are checked elsewhere\n"), 0o644)
	code, ign := runNight(t, nightArgs(triaged, "2026-03-03", "3", "clone-wrong-id", filepath.Join(dir, "n3")))
	if code != exitOK || classOf(ign)["exec:trace-mismatch"] != fuzz.ClassIgnored {
		t.Errorf("ignored signature: exit %d, classes %v; want 0 and ignored", code, classOf(ign))
	}
}

// TestSameNightAgainSaysWhyItFails: a night run again on its seed skips
// every graph its earlier run checked, so its own graphs show nothing,
// while the re-runs of the state's graphs show the signature its earlier
// run recorded, new again (exit 1). The summary says both: no finding in
// tonight's graphs, the signature classed new and shown by the re-runs,
// and why the night exits 1.
func TestSameNightAgainSaysWhyItFails(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	args := func(out string) []string {
		return nightArgs(state, "2026-12-03", "20261203", "swap-arms", filepath.Join(dir, out), "--kinds", "reducible", "--graphs", "100")
	}
	if code, _, stderr := runCmd(args("first"), ""); code != exitFail {
		t.Fatalf("the first run: exit %d, want 1\n%s", code, stderr)
	}
	code, stdout, stderr := runCmd(args("again"), "")
	if code != exitFail {
		t.Fatalf("the night again: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"0 findings (0 signatures) in tonight's graphs; 1 signature classed against the state",
		"  new exec:trace-mismatch: first seen tonight (recorded by an earlier run of this night); not in tonight's graphs: shown by ",
		"  exit 1: 1 new signature (exec:trace-mismatch), shown tonight by the re-runs of the state's graphs, not by tonight's graphs\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
}

// TestNightShardsMerge: two shards and `cfgfuzz merge --state` equal the
// whole night (report and state), and the merge minimizes the new
// signatures into its findings store.
func TestNightShardsMerge(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	runNight(t, nightArgs(base, "2026-03-01", "1", "drop-merge", filepath.Join(dir, "n1")))
	whole, sharded := filepath.Join(dir, "whole"), filepath.Join(dir, "sharded")
	copyState(t, base, whole)
	copyState(t, base, sharded)
	wcode, _ := runNight(t, nightArgs(whole, "2026-03-02", "2", "clone-wrong-id", filepath.Join(dir, "w"), "--minimize=true"))
	var shards []string
	for i, sh := range []string{"0/2", "1/2"} {
		out := filepath.Join(dir, "s"+string(rune('0'+i)))
		runNight(t, nightArgs(sharded, "2026-03-02", "2", "clone-wrong-id", out, "--shard", sh, "--minimize=true"))
		shards = append(shards, out)
	}
	// A partial merge (one shard) leaves the state as it was: the merge of
	// both then commits the night.
	before := stateFiles(t, sharded)
	part := filepath.Join(dir, "part")
	if code, _, stderr := runCmd([]string{"merge", "--partial", "--state", sharded, "--out", part, shards[0]}, ""); code == exitUsage || !strings.Contains(stderr, "leaves") {
		t.Errorf("partial merge: exit %d, %q; want it to say the state is left as it was", code, stderr)
	}
	if after := stateFiles(t, sharded); after != before {
		t.Errorf("a partial merge changed the state directory")
	}
	// A shard killed before its end (no report, no state update) merges
	// partially too, and a shard given twice (a copy) is refused.
	killed := copyDir(t, shards[1], filepath.Join(dir, "killed"))
	os.RemoveAll(filepath.Join(killed, fuzz.StateUpdateDir))
	os.Remove(filepath.Join(killed, "report.json"))
	if code, _, stderr := runCmd([]string{"merge", "--partial", "--state", sharded, "--out", filepath.Join(dir, "part-killed"), shards[0], killed}, ""); code == exitUsage || !strings.Contains(stderr, "leaves") {
		t.Errorf("partial merge with a killed shard: exit %d, %q; want it to say the state is left as it was", code, stderr)
	}
	if code, _, stderr := runCmd([]string{"merge", "--state", sharded, "--out", filepath.Join(dir, "twice"), shards[0], shards[1], killed}, ""); code != exitUsage || !strings.Contains(stderr, killed+": shard 1/2 again, as "+shards[1]) {
		t.Errorf("merge with a shard twice: exit %d, %q; want 2 naming the copy", code, stderr)
	}
	if after := stateFiles(t, sharded); after != before {
		t.Errorf("a refused or partial merge changed the state directory")
	}
	merged := filepath.Join(dir, "m")
	code, stdout, stderr := runCmd(append([]string{"merge", "--state", sharded, "--out", merged}, shards...), "")
	t.Logf("merge: exit %d\n%s%s", code, stdout, stderr)
	if code != wcode || code != exitFail {
		t.Errorf("merge exit %d, whole night %d; want 1", code, wcode)
	}
	if a, b := timeless(t, filepath.Join(dir, "w")), timeless(t, merged); a != b {
		t.Errorf("merged report differs from the whole night's:\n%s\n---\n%s", a, b)
	}
	for _, f := range []string{fuzz.StateFindingsFile, fuzz.StateSeenFile} {
		a, _ := os.ReadFile(filepath.Join(whole, f))
		b, _ := os.ReadFile(filepath.Join(sharded, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("state %s differs between the whole night and the merged shards", f)
		}
	}
	if es, _ := os.ReadDir(filepath.Join(merged, "findings")); len(es) == 0 {
		t.Errorf("the merge wrote no findings store")
	}
	// The merge run again (a retried CI job) is refused: the state holds
	// the night already.
	if code, _, stderr := runCmd(append([]string{"merge", "--state", sharded, "--out", filepath.Join(dir, "again")}, shards...), ""); code != exitUsage || !strings.Contains(stderr, "holds night 2026-03-02 already") ||
		!strings.Contains(stderr, "or an unsharded run of that night") || !strings.Contains(stderr, "state/findings.json is the same file as "+filepath.Join(sharded, fuzz.StateFindingsFile)) {
		t.Errorf("merge again: exit %d, %q; want 2 saying the night is in the state, and how to find the --out that committed it", code, stderr)
	}
	// What it says: the committing merge's state/findings.json is the state's.
	a, _ := os.ReadFile(filepath.Join(merged, "state", fuzz.StateFindingsFile))
	b, _ := os.ReadFile(filepath.Join(sharded, fuzz.StateFindingsFile))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the committing merge's state/findings.json differs from the state's")
	}
	a, _ = os.ReadFile(filepath.Join(dir, "w", "state", fuzz.StateFindingsFile))
	b, _ = os.ReadFile(filepath.Join(whole, fuzz.StateFindingsFile))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the unsharded night's OUT/state/findings.json differs from its state's")
	}
}

// stateFiles is the contents of a state directory's findings.json and
// seen.bloom.
func stateFiles(t *testing.T, dir string) string {
	var b strings.Builder
	for _, f := range []string{fuzz.StateFindingsFile, fuzz.StateSeenFile} {
		data, _ := os.ReadFile(filepath.Join(dir, f))
		b.Write(data)
	}
	return b.String()
}

// timeless is report.json without its throughput, shard and provenance.
func timeless(t *testing.T, dir string) string {
	rep := readJSONReport(t, dir)
	rep.Throughput, rep.Settings.Shard, rep.Provenance = fuzz.Throughput{}, fuzz.Shard{}, nil
	b, _ := json.MarshalIndent(rep, "", " ")
	return string(b)
}

// TestNightsExternalStructurizer: the nights work the same on an external
// structurizer (this binary serving protocol v1 with a bug of its own):
// the kept graphs re-run through the process, the bug removed is fixed.
func TestNightsExternalStructurizer(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	bin := cfgfuzzBinary(t)
	night := func(date, seed, spec, out string) (int, *fuzz.Report) {
		return runNight(t, []string{"run", "--graphs", "60", "--seed", seed, "--structurizer", spec, "--state", state, "--night", date,
			"--progress", "none", "--minimize=false", "--out", filepath.Join(dir, out)})
	}
	code, one := night("2026-03-01", "1", "cmd:"+bin+" structurize --inject swap-arms", "n1")
	if code != exitFail || classOf(one)["exec:trace-mismatch"] != fuzz.ClassNew {
		t.Fatalf("night 1: exit %d, classes %v; want 1 and exec:trace-mismatch new", code, classOf(one))
	}
	code, two := night("2026-03-02", "2", "cmd:"+bin+" structurize", "n2")
	if code != exitOK || classOf(two)["exec:trace-mismatch"] != fuzz.ClassFixed || two.State.Reruns == 0 {
		t.Errorf("night 2, the bug removed: exit %d, classes %v, %d re-runs; want 0, fixed, re-runs", code, classOf(two), two.State.Reruns)
	}
}

// TestNightRunAgainFailsAgain: the same --night run again on the state its
// first run committed (a CI job re-run on the same day) exits 1 as the
// first run did, and its note says the skipped graphs were checked by the
// earlier run of this night, not on an earlier night.
func TestNightRunAgainFailsAgain(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	for _, out := range []string{"rr1", "rr2"} {
		args := nightArgs(state, "2026-12-05", "20261205", "swap-arms", filepath.Join(dir, out))
		code, stdout, stderr := runCmd(args, "")
		t.Logf("%s: exit %d\n%s%s", out, code, stdout, stderr)
		if code != exitFail || !strings.Contains(stdout, "new exec:trace-mismatch: first seen tonight") {
			t.Errorf("%s: exit %d; want 1 and exec:trace-mismatch new", out, code)
		}
		if out == "rr2" && (!strings.Contains(stdout, "checked by an earlier run of this night") || strings.Contains(stdout, "checked on an earlier night and skipped")) {
			t.Errorf("%s: the note calls the first run's graphs an earlier night's", out)
		}
	}
}

// TestSameSeedNightSaysSo: a night whose graphs an earlier night checked
// (the same seed) runs none of them, reports no rate for them, and says
// to give each night its own seed.
func TestSameSeedNightSaysSo(t *testing.T) {
	state := t.TempDir()
	args := func(date string) []string {
		return []string{"run", "--graphs", "60", "--seed", "5", "--state", state, "--night", date, "--progress", "none", "--out", filepath.Join(t.TempDir(), "out")}
	}
	if code, out, errs := runCmd(args("2026-03-01"), ""); code != 0 || strings.Contains(out, "own --seed") {
		t.Fatalf("night 1: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCmd(args("2026-03-02"), "")
	t.Logf("night 2: exit %d\n%s%s", code, out, errs)
	if code != 0 || !strings.Contains(out, "give each night its own --seed") {
		t.Errorf("night 2 on the same seed: want the note")
	}
}

// TestExhaustiveWalkGoesOn: with --state, a night's exhaustive graphs
// start where the last night's stopped, whatever the seeds (consecutive
// dates would otherwise walk nearly the same positions).
func TestExhaustiveWalkGoesOn(t *testing.T) {
	state := t.TempDir()
	type walk struct {
		positions map[uint64]bool
		first     uint64
		last      uint64
	}
	nightWalk := func(date, seed string) walk {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out")
		args := []string{"run", "--graphs", "120", "--seed", seed, "--state", state, "--night", date, "--progress", "none", "--out", out}
		if code, stdout, stderr := runCmd(args, ""); code != 0 {
			t.Fatalf("night %s: exit %d\n%s%s", date, code, stdout, stderr)
		}
		s, err := fuzz.LoadSettings(out)
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := fuzz.ReadRecords(out)
		if err != nil {
			t.Fatal(err)
		}
		w := walk{positions: map[uint64]bool{}, first: ^uint64(0)}
		for _, r := range recs {
			if s.Streams[r.Stream].Kind == fuzz.ExhaustiveKind {
				w.positions[r.Seed] = true
				w.first, w.last = min(w.first, r.Seed), max(w.last, r.Seed)
			}
		}
		if len(w.positions) == 0 {
			t.Fatalf("night %s ran no exhaustive graph", date)
		}
		t.Logf("night %s, seed %s: exhaustive positions %d to %d (%d graphs)", date, seed, w.first, w.last, len(w.positions))
		return w
	}
	one := nightWalk("2026-12-01", "20261201")
	two := nightWalk("2026-12-02", "20261202")
	if two.first != one.last+1 {
		t.Errorf("night 2 starts its walk at %d, want %d (one past night 1's last)", two.first, one.last+1)
	}
	for p := range two.positions {
		if one.positions[p] {
			t.Errorf("position %d walked on both nights", p)
		}
	}
	var f struct {
		ExhaustiveNext *uint64 `json:"exhaustive_next"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(state, fuzz.StateFindingsFile))), &f); err != nil || f.ExhaustiveNext == nil || *f.ExhaustiveNext != two.last+1 {
		t.Errorf("findings.json records exhaustive_next %v (%v), want %d", f.ExhaustiveNext, err, two.last+1)
	}
}

// TestResumeNamesTheNight: a resume given another --night than the
// campaign's, or a --state the campaign ran without, is refused with a
// message naming the flag, not a bare "the settings differ"; one of a
// finished night says there is nothing to resume, and one of a killed
// night without the --state it read names that directory.
func TestResumeNamesTheNight(t *testing.T) {
	dir := t.TempDir()
	state, out, plain := filepath.Join(dir, "state"), filepath.Join(dir, "out"), filepath.Join(dir, "plain")
	if code, _ := runNight(t, nightArgs(state, "2026-05-01", "1", "swap-arms", out)); code != 1 {
		t.Fatalf("night: exit %d, want 1", code)
	}
	// An empty state, as the night read it: only the night differs.
	code, _, stderr := runCmd([]string{"run", "--resume", out, "--state", filepath.Join(dir, "empty"), "--night", "2026-05-02", "--progress", "none"}, "")
	if code != 2 || !strings.Contains(stderr, "--night 2026-05-02") || !strings.Contains(stderr, "2026-05-01") {
		t.Errorf("resume with another --night: exit %d, stderr %q; want 2 naming both nights", code, stderr)
	}
	if code, stdout, stderr := runCmd([]string{"run", "--graphs", "20", "--progress", "none", "--out", plain}, ""); code != 0 {
		t.Fatalf("campaign without a state: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = runCmd([]string{"run", "--resume", out, "--progress", "none"}, "")
	if code != 2 || !strings.Contains(stderr, "finished: its end committed the night") || !strings.Contains(stderr, "start a new night") {
		t.Errorf("resume of a finished night: exit %d, stderr %q; want 2 saying there is nothing to resume", code, stderr)
	}
	code, _, stderr = runCmd([]string{"run", "--resume", out, "--state", state, "--progress", "none"}, "")
	if code != 2 || !strings.Contains(stderr, "finished: its end committed the night") {
		t.Errorf("resume of a finished night with its --state: exit %d, stderr %q; want 2 saying there is nothing to resume", code, stderr)
	}
	killed := copyDir(t, out, filepath.Join(dir, "killed")) // as a night killed before its reports
	os.Remove(filepath.Join(killed, "report.json"))
	code, _, stderr = runCmd([]string{"run", "--resume", killed, "--progress", "none"}, "")
	if code != 2 || !strings.Contains(stderr, "give --state "+state+" again") {
		t.Errorf("resume without the --state the campaign read: exit %d, stderr %q; want 2 naming %s", code, stderr, state)
	}
	code, _, stderr = runCmd([]string{"run", "--resume", plain, "--state", state, "--progress", "none"}, "")
	if code != 2 || !strings.Contains(stderr, "without --state") {
		t.Errorf("resume with a --state the campaign ran without: exit %d, stderr %q; want 2 saying so", code, stderr)
	}
}

// TestResumeChecksTheStateFirst: a killed night whose state another night
// has committed to since is refused before its structurizer, a revision
// of a repository, is resolved or built: no build runs, however the cache
// no longer holds the build.
func TestResumeChecksTheStateFirst(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ownBuildCache(t)
	dir := t.TempDir()
	builds := filepath.Join(dir, "builds")
	repo, _, rev := plantedToyRepo(t, `{"build": "echo built >> `+builds+` && cp toy.py {out}/toy.py", "serve": "python3 {out}/toy.py"}`)
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", "repo:" + repo + "@" + rev, "--kinds", "exhaustive", "--graphs", "40", "--minimize=false",
		"--state", state, "--night", "2026-05-01", "--progress", "none", "--out", out}, "")
	if code != exitFail || readFile(t, builds) != "built\n" {
		t.Fatalf("night: exit %d, builds %q; want 1 and one build\n%s%s", code, readFile(t, builds), stdout, stderr)
	}
	killed := copyDir(t, out, filepath.Join(dir, "killed")) // killed before its reports, on the state before the night committed
	os.Remove(filepath.Join(killed, "report.json"))
	if err := os.RemoveAll(os.Getenv("XDG_CACHE_HOME")); err != nil { // a resolve would build again
		t.Fatal(err)
	}
	code, stdout, stderr = runCmd([]string{"run", "--resume", killed, "--state", state, "--progress", "none"}, "")
	if code != exitUsage || !strings.Contains(stderr, "changed since the campaign started") {
		t.Errorf("resume on a changed state: exit %d, want 2 saying the state changed\n%s%s", code, stdout, stderr)
	}
	if b := readFile(t, builds); b != "built\n" || strings.Contains(stderr, "built") || strings.Contains(stderr, "building") {
		t.Errorf("the refused resume built its structurizer (builds %q):\n%s", b, stderr)
	}
}

// TestNightOnAnotherStructurizerRefused: a night without --structurizer
// (cfgfuzz's own) on a state an adapter's nights wrote exits 2 naming both
// and the flag, and leaves the state as it was; --state-new-structurizer
// runs it. A night earlier than the state's latest exits 2.
func TestNightOnAnotherStructurizerRefused(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	adapter := "cmd:" + cfgfuzzBinary(t) + " structurize"
	args := func(date, out string, more ...string) []string {
		return append([]string{"run", "--graphs", "30", "--seed", "1", "--state", state, "--night", date, "--progress", "none", "--minimize=false", "--out", filepath.Join(dir, out)}, more...)
	}
	if code, out, errs := runCmd(args("2026-12-04", "n1", "--structurizer", adapter), ""); code != exitOK {
		t.Fatalf("night 1: exit %d\n%s%s", code, out, errs)
	}
	before, err := os.ReadFile(filepath.Join(state, fuzz.StateFindingsFile))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCmd(args("2026-12-05", "n2"), "")
	if code != exitUsage || !strings.Contains(errs, "the command "+cfgfuzzBinary(t)) || !strings.Contains(errs, "cfgfuzz's own structurizer (self)") || !strings.Contains(errs, "--state-new-structurizer") {
		t.Errorf("a night of self on an adapter's state: exit %d\n%s", code, errs)
	}
	code, _, errs = runCmd(args("2026-11-01", "n3", "--structurizer", adapter), "")
	if code != exitUsage || !strings.Contains(errs, "night 2026-11-01 is earlier than the latest night") {
		t.Errorf("an earlier night: exit %d\n%s", code, errs)
	}
	if after, _ := os.ReadFile(filepath.Join(state, fuzz.StateFindingsFile)); !bytes.Equal(before, after) {
		t.Errorf("a refused night changed %s", fuzz.StateFindingsFile)
	}
	if code, out, errs := runCmd(args("2026-12-05", "n4", "--state-new-structurizer"), ""); code != exitOK {
		t.Errorf("--state-new-structurizer: exit %d\n%s%s", code, out, errs)
	}
}

// TestNightsOfARelativeAdapter: nights of an adapter given by a relative
// path from the same directory go on with the state its first night wrote
// (which records the path absolute): the second is not refused as
// another structurizer.
func TestNightsOfARelativeAdapter(t *testing.T) {
	dir := t.TempDir()
	adapterScript(t, filepath.Join(dir, "build", "adapter"), `"$@"`)
	t.Chdir(dir)
	args := func(date, seed, out string) []string {
		return []string{"run", "--structurizer", "./build/adapter", "--graphs", "20", "--seed", seed, "--allow-fallbacks",
			"--state", "nightly", "--night", date, "--progress", "none", "--minimize=false", "--out", out}
	}
	if code, out, errs := runCmd(args("2026-12-01", "20261201", "night1"), ""); code != exitOK {
		t.Fatalf("night 1: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd(args("2026-12-02", "20261202", "night2"), ""); code != exitOK {
		t.Errorf("night 2, the same relative path from the same directory: exit %d, want 0\n%s%s", code, out, errs)
	}
}

// TestNightsSayAnAdapterAfterACdWasRebuilt: an adapter a shell runs
// after a cd (sh -c 'cd sub && ./prog'), rewritten at the same path
// between two nights, is another build: the second night's summary says
// that its build differs from the first night's.
func TestNightsSayAnAdapterAfterACdWasRebuilt(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "sub", "prog")
	cfgfuzzBinary(t) // built from the package's directory
	t.Chdir(dir)
	night := func(date, seed, out string) (int, string, *fuzz.Report) {
		args := []string{"run", "--graphs", "20", "--seed", seed, "--structurizer", "cmd:sh -c 'cd sub && ./prog'", "--allow-fallbacks",
			"--state", "state", "--night", date, "--progress", "none", "--minimize=false", "--out", out}
		code, stdout, stderr := runCmd(args, "")
		t.Logf("cfgfuzz %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		return code, stdout, readJSONReport(t, filepath.Join(dir, out))
	}

	adapterScript(t, prog, `"$@"`)
	code, _, one := night("2026-04-01", "1", "n1")
	if code != exitOK || one.State.Build == "" {
		t.Fatalf("night 1: exit %d, build %q; want 0 and a build", code, one.State.Build)
	}
	adapterScript(t, prog, `"$@" # rebuilt`)
	code, stdout, two := night("2026-04-02", "2", "n2")
	if code != exitOK || two.State.PreviousBuild != one.State.Build || two.State.Build == one.State.Build {
		t.Errorf("night 2 after sub/prog was rebuilt: exit %d, build %q, previous %q; want 0, a new build, night 1's (%q) as previous", code, two.State.Build, two.State.PreviousBuild, one.State.Build)
	}
	if !strings.Contains(stdout, "note: the structurizer's build differs from night 2026-04-01's") {
		t.Errorf("night 2's summary does not note the rebuild:\n%s", stdout)
	}
}

// TestNightsSayTheAdapterWasRebuilt: a script adapter rewritten at the
// same path between two nights (its bug removed) is another build: the
// state records each night's build (findings.json "build"), and the
// second night's report and summary say that the build differs from the
// first night's, beside the signature it reads fixed. A state without
// "build" (written before it recorded one) loads, and says nothing of it.
func TestNightsSayTheAdapterWasRebuilt(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	adapter := filepath.Join(dir, "adapter.sh")
	bin := cfgfuzzBinary(t)
	build := func(flags string, notes ...string) {
		text := "#!/bin/sh\n" + strings.Join(notes, "") + "exec " + bin + " structurize " + flags + " \"$@\"\n"
		if err := os.WriteFile(adapter, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	night := func(date, seed, out string) (int, string, *fuzz.Report) {
		args := []string{"run", "--graphs", "60", "--seed", seed, "--structurizer", "cmd:" + adapter, "--state", state, "--night", date,
			"--progress", "none", "--minimize=false", "--out", filepath.Join(dir, out)}
		code, stdout, stderr := runCmd(args, "")
		t.Logf("cfgfuzz %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		return code, stdout, readJSONReport(t, filepath.Join(dir, out))
	}
	storedBuild := func() string {
		var f struct {
			Build string `json:"build"`
		}
		b, _ := os.ReadFile(filepath.Join(state, fuzz.StateFindingsFile))
		json.Unmarshal(b, &f)
		return f.Build
	}

	build("--inject swap-arms")
	code, _, one := night("2026-03-01", "1", "n1")
	if code != exitFail || one.State.Build == "" || storedBuild() != one.State.Build || one.State.PreviousBuild != "" {
		t.Fatalf("night 1: exit %d, build %q (state %q), previous %q; want 1, a build the state records, no previous", code, one.State.Build, storedBuild(), one.State.PreviousBuild)
	}

	build("") // the bug removed, at the same path
	code, stdout, two := night("2026-03-02", "2", "n2")
	if code != exitOK || classOf(two)["exec:trace-mismatch"] != fuzz.ClassFixed {
		t.Fatalf("night 2: exit %d, classes %v; want 0 and the signature fixed", code, classOf(two))
	}
	if s := two.State; s.Build == "" || s.Build == one.State.Build || s.PreviousBuild != one.State.Build || s.PreviousNight != "2026-03-01" || storedBuild() != s.Build {
		t.Errorf("night 2: build %q, previous %q of %q, state %q; want a new build, night 1's as previous, the state recording the new one", s.Build, s.PreviousBuild, s.PreviousNight, storedBuild())
	}
	if want := "note: the structurizer's build differs from night 2026-03-01's (" + one.State.Build + " then, " + two.State.Build + " tonight)"; !strings.Contains(stdout, want) {
		t.Errorf("night 2's summary lacks %q:\n%s", want, stdout)
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "n2", "report.md")); !strings.Contains(string(md), "The structurizer's build differs from night 2026-03-01's") {
		t.Errorf("night 2's report.md does not say the build differs:\n%s", md)
	}

	// a state file without "build": the next night loads it and notes nothing
	p := filepath.Join(state, fuzz.StateFindingsFile)
	b, _ := os.ReadFile(p)
	old := strings.Replace(string(b), "\"build\": "+strconv.Quote(two.State.Build)+",\n", "", 1)
	if old == string(b) {
		t.Fatalf("findings.json has no build line to remove:\n%s", b)
	}
	os.WriteFile(p, []byte(old), 0o644)
	build("", "# another build, which the state cannot tell apart\n")
	code, stdout, three := night("2026-03-03", "3", "n3")
	if code == exitUsage || three.State.PreviousBuild != "" || strings.Contains(stdout, "build differs") || storedBuild() != three.State.Build {
		t.Errorf("night 3 on a state without a build: exit %d, previous %q, state %q; want it loaded, no note, the build recorded\n%s", code, three.State.PreviousBuild, storedBuild(), stdout)
	}
}

// TestStateOfNewerRevisionNoted: a night on a state a newer cfgfuzz wrote,
// in a later revision of the format with a key this one does not know,
// runs and says so on stderr, naming the file and the key; its update is
// of this cfgfuzz's revision.
func TestStateOfNewerRevisionNoted(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	findings := filepath.Join(state, fuzz.StateFindingsFile)
	text := `{"schema": "cfgfuzz-state/v1", "format_minor": 9, "bisect_cache": {}, "signatures": []}` + "\n"
	if err := os.WriteFile(findings, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd([]string{"run", "--graphs", "5", "--kinds", "reducible", "--state", state, "--night", "2026-12-01",
		"--progress", "none", "--minimize=false", "--out", filepath.Join(dir, "out")}, "")
	want := "cfgfuzz: note: " + findings + " was written by a newer cfgfuzz (cfgfuzz-state/v1, format_minor 9; this cfgfuzz reads and writes cfgfuzz-state/v1, format_minor 1): it holds keys this cfgfuzz does not know (bisect_cache)"
	if code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want 0 and %q:\n%s%s", code, want, stdout, stderr)
	}
	if b, _ := os.ReadFile(findings); !strings.Contains(string(b), `"format_minor": 1,`) || strings.Contains(string(b), "bisect_cache") {
		t.Errorf("the night's store:\n%s", b)
	}
}

// TestNightFlagNotADate: a --night that is no YYYY-MM-DD date (a US-style
// date of a CI script) is refused naming the flag and the form it wants,
// not compared with the state's latest night and called earlier than it.
func TestNightFlagNotADate(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	args := func(date, out string) []string {
		return []string{"run", "--graphs", "30", "--seed", "1", "--state", state, "--night", date, "--progress", "none", "--minimize=false", "--out", filepath.Join(dir, out)}
	}
	if code, out, errs := runCmd(args("2026-12-04", "n1"), ""); code != exitOK {
		t.Fatalf("night 1: exit %d\n%s%s", code, out, errs)
	}
	for _, night := range []string{"12/05/2026", "2026-12-5", "tonight"} {
		code, _, errs := runCmd(args(night, "n2"), "")
		want := "invalid value \"" + night + "\" for flag --night: want a date YYYY-MM-DD"
		if code != exitUsage || !strings.Contains(errs, want) || strings.Contains(errs, "earlier") {
			t.Errorf("--night %s: exit %d, want %d and %q\n%s", night, code, exitUsage, want, errs)
		}
	}
}
