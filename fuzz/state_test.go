// state_test.go checks the state directory across nights (state.go,
// classify.go, rerun.go): yesterday's signature is known tonight and the
// night passes; a planted fault removed shows as fixed and a new one as
// new; graphs checked on an earlier night are skipped; and the classes and
// the updated state are the same whatever the workers and when the shards
// are merged.
package fuzz

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// panicsOnFour is a test structurizer with a bug of its own: it panics on
// every graph of four blocks. It stands for another revision of cfgfuzz's
// structurizer, which a state written by self goes on with.
func panicsOnFour() SideFactory {
	return SideFactory{Describe: "rev:panics-on-four-blocks", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len() == 4 {
				panic("four blocks")
			}
			return structureLocal(g, opt)
		}}, nil
	}}
}

// night runs one night of n graphs against the state directory dir.
func night(t *testing.T, dir, date string, seed uint64, n int, change func(*Config)) *Report {
	t.Helper()
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := testConfig(t, n)
	c.Seed, c.State, c.Night = seed, st, date
	if change != nil {
		change(&c)
	}
	rep := mustRun(t, c).Report
	if rep.State == nil {
		t.Fatal("no state section")
	}
	t.Logf("night %s seed %d: %v; %d re-runs, %d seen", date, seed, rep.State.Classes, rep.State.Reruns, rep.State.Seen)
	for _, s := range rep.State.Signatures {
		t.Logf("  %s %s: %s (tonight %d, re-runs %d of %d)", s.Class, s.Signature, s.Reason, s.Tonight, s.RerunShowing, s.RerunGraphs)
	}
	return rep
}

// classesOf maps each signature to its class.
func classesOf(rep *Report) map[string]string {
	m := map[string]string{}
	for _, s := range rep.State.Signatures {
		m[s.Signature] = s.Class
	}
	return m
}

// copyDir copies a state directory's files.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	os.MkdirAll(to, 0o755)
	es, _ := os.ReadDir(from)
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(to, e.Name()), b, 0o644)
	}
}

const swapSig = "exec:trace-mismatch" // swap-arms on the dispatch strategy

func TestTwoNights(t *testing.T) {
	state := t.TempDir()
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	one := night(t, state, "2026-03-01", 1, 40, swap)
	if got := classesOf(one); got[swapSig] != ClassNew || one.State.NewSignatures() == 0 {
		t.Fatalf("night 1: classes %v, want %s new", got, swapSig)
	}
	yesterday := t.TempDir()
	copyDir(t, state, yesterday)

	// The same fault on the second night: known, nothing new.
	same := night(t, yesterday, "2026-03-02", 2, 40, swap)
	if got := classesOf(same); got[swapSig] != ClassKnown || same.State.NewSignatures() != 0 {
		t.Errorf("night 2, same fault: classes %v, want %s known and nothing new", got, swapSig)
	}
	if same.State.Reruns == 0 {
		t.Errorf("night 2 re-ran no kept graph")
	}

	// The fault removed and another planted: fixed and new.
	other := night(t, state, "2026-03-02", 2, 40, func(c *Config) { c.Current = panicsOnFour() })
	got := classesOf(other)
	if got[swapSig] != ClassFixed {
		t.Errorf("night 2, fault removed: %s is %q, want fixed", swapSig, got[swapSig])
	}
	newPanic := false
	for sig, class := range got {
		if sig != swapSig && class == ClassNew {
			newPanic = true
		}
	}
	if !newPanic || other.State.NewSignatures() == 0 {
		t.Errorf("night 2, new fault: classes %v, want the panic new", got)
	}
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	e := st.lookup(swapSig, "")
	if e == nil || e.Fixed != "2026-03-02" || e.FirstSeen != "2026-03-01" || e.LastSeen != "2026-03-01" || len(e.Graphs) == 0 {
		t.Errorf("stored %s: %+v", swapSig, e)
	}
}

// TestSeenGraphsSkipped: the same seed and flags on the next night skip
// every graph the filter holds.
func TestSeenGraphsSkipped(t *testing.T) {
	state := t.TempDir()
	one := night(t, state, "2026-03-01", 1, 30, nil)
	two := night(t, state, "2026-03-02", 1, 30, nil)
	if one.Seen != 0 || two.Seen != 30 || two.Graphs != 0 {
		t.Errorf("seen %d then %d (graphs %d): want 0 then 30 (0)", one.Seen, two.Seen, two.Graphs)
	}
	three := night(t, state, "2026-03-03", 1, 30, func(c *Config) { c.Inject = []string{"swap-arms"} })
	if three.Seen != 0 {
		t.Errorf("another fault planted: %d graphs skipped, want 0", three.Seen)
	}
}

// TestNightDeterministic: with a state, 1 and 2 workers and two shards
// merged give the same report and the same updated state.
func TestNightDeterministic(t *testing.T) {
	base := t.TempDir()
	night(t, base, "2026-03-01", 1, 40, func(c *Config) { c.Inject = []string{"swap-arms"} })
	tonight := func(c *Config) { c.Current = panicsOnFour() }
	run := func(workers int, shard Shard) (string, string) {
		st := t.TempDir()
		copyDir(t, base, st)
		state, err := LoadState(st)
		if err != nil {
			t.Fatal(err)
		}
		c := testConfig(t, 40)
		c.Seed, c.State, c.Night, c.Workers, c.Shard = 2, state, "2026-03-02", workers, shard
		tonight(&c)
		mustRun(t, c)
		return c.Dir, st
	}
	w1, s1 := run(1, Shard{})
	w2, s2 := run(2, Shard{})
	if a, b := reportJSON(t, w1), reportJSON(t, w2); a != b {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n---\n%s", a, b)
	}
	sameState(t, s1, s2)
	var dirs []string
	for i := range 2 {
		d, _ := run(2, Shard{I: i, N: 2})
		dirs = append(dirs, d)
	}
	st := t.TempDir()
	copyDir(t, base, st)
	state, err := LoadState(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := MergeNight(dirs, MergeOptions{}); err == nil {
		t.Errorf("shards run with a state merged without one")
	}
	out := mergeNightInto(t, dirs, MergeOptions{State: state}, st)
	if a, m := reportJSON(t, w1), reportJSON(t, out); a != m {
		t.Errorf("merged shards differ from the whole night:\n%s\n---\n%s", a, m)
	}
	sameState(t, s1, st)
}

// TestNightRunAgainGivesItsVerdict: the same night run again on the state
// its first run wrote classes the signature that run first saw new again
// (the night fails again) and says its skipped graphs were checked by
// that earlier run; two shards of the re-run merged give the same report
// and state as the whole re-run; the next night classes it known.
func TestNightRunAgainGivesItsVerdict(t *testing.T) {
	base := t.TempDir()
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	if one := night(t, base, "2026-03-01", 1, 40, swap); classesOf(one)[swapSig] != ClassNew {
		t.Fatalf("night 1: classes %v, want %s new", classesOf(one), swapSig)
	}
	again := t.TempDir()
	copyDir(t, base, again)
	whole := night(t, again, "2026-03-01", 1, 40, swap)
	if got := classesOf(whole)[swapSig]; got != ClassNew || whole.State.NewSignatures() == 0 {
		t.Errorf("the night run again: %s is %q (%v), want new", swapSig, got, whole.State.Classes)
	}
	if !whole.State.RepeatedNight || whole.Seen == 0 || !strings.Contains(stateProse(whole), "checked by an earlier run of this night") {
		t.Errorf("the night run again: repeated %v, %d seen; prose %q", whole.State.RepeatedNight, whole.Seen, stateProse(whole))
	}
	for _, s := range whole.State.Signatures {
		if s.Signature == swapSig && s.Strategy == "" && s.Reason != FirstSeenThisNight {
			t.Errorf("the night run again: %s's reason %q, want %q", swapSig, s.Reason, FirstSeenThisNight)
		}
	}
	sharded := t.TempDir()
	copyDir(t, base, sharded)
	state, err := LoadState(sharded)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for i := range 2 {
		c := testConfig(t, 40)
		c.Seed, c.State, c.Night, c.Shard = 1, state, "2026-03-01", Shard{I: i, N: 2}
		swap(&c)
		mustRun(t, c)
		dirs = append(dirs, c.Dir)
	}
	out := mergeNightInto(t, dirs, MergeOptions{State: state}, sharded)
	wholeDir := t.TempDir()
	if err := WriteReports(wholeDir, whole, testSource{}); err != nil {
		t.Fatal(err)
	}
	if a, m := reportJSON(t, wholeDir), reportJSON(t, out); a != m {
		t.Errorf("merged shards of the night run again differ from the whole re-run:\n%s\n---\n%s", a, m)
	}
	sameState(t, again, sharded)
	if next := night(t, again, "2026-03-02", 2, 40, swap); classesOf(next)[swapSig] != ClassKnown || next.State.RepeatedNight {
		t.Errorf("the next night: %s is %q, repeated %v; want known, not repeated", swapSig, classesOf(next)[swapSig], next.State.RepeatedNight)
	}
}

// TestRegressionRunAgainStaysNew: a signature fixed on one night that
// shows again is new (regressed); the same night run again classes it new
// again with the same fixed night in its reason; the next night it shows
// on classes it known and forgets the regression.
func TestRegressionRunAgainStaysNew(t *testing.T) {
	dir := t.TempDir()
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	night(t, dir, "2026-03-01", 1, 40, swap)
	if got := classesOf(night(t, dir, "2026-03-02", 2, 40, nil))[swapSig]; got != ClassFixed {
		t.Fatalf("night 2 without the fault: %s is %q, want fixed", swapSig, got)
	}
	const reason = "regressed: fixed since 2026-03-02"
	for run := range 2 {
		rep := night(t, dir, "2026-03-03", 3, 40, swap)
		for _, sig := range rep.State.Signatures {
			if sig.Signature == swapSig && sig.Strategy == "" && (sig.Class != ClassNew || !strings.HasPrefix(sig.Reason, reason)) {
				t.Errorf("night 3, run %d: %s is %s (%s), want new: %s", run+1, swapSig, sig.Class, sig.Reason, reason)
			}
		}
	}
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e := st.lookup(swapSig, ""); e == nil || e.Regressed == nil || *e.Regressed != (Regressed{Night: "2026-03-03", FixedSince: "2026-03-02"}) {
		t.Errorf("the store after night 3: %+v, want regressed on 2026-03-03, fixed since 2026-03-02", e)
	}
	if got := classesOf(night(t, dir, "2026-03-04", 4, 40, swap))[swapSig]; got != ClassKnown {
		t.Errorf("night 4: %s is %q, want known", swapSig, got)
	}
	if st, err = LoadState(dir); err != nil {
		t.Fatal(err)
	}
	if e := st.lookup(swapSig, ""); e == nil || e.Regressed != nil {
		t.Errorf("the store after night 4 still records the regression: %+v", e)
	}
}

// dropStoreCurrent removes the store's top-level "current" line from the
// state directory dir: a store that records the structurizer only in its
// entries.
func dropStoreCurrent(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, StateFindingsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if !strings.HasPrefix(l, `  "current": `) {
			lines = append(lines, l)
		}
	}
	if len(lines) == len(strings.SplitAfter(string(b), "\n")) {
		t.Fatalf("%s has no top-level \"current\" line to drop", path)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameState compares two state directories byte for byte.
// mergeNightInto merges the shards' directories as `cfgfuzz merge` does,
// writes the merged reports into a fresh directory, which it returns, and
// the state update into stateDir ("" for none).
func mergeNightInto(t *testing.T, dirs []string, opt MergeOptions, stateDir string) string {
	t.Helper()
	rep, up, _, err := MergeNight(dirs, opt)
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	out := t.TempDir()
	if err := WriteReports(out, rep, testSource{}); err != nil {
		t.Fatal(err)
	}
	if stateDir != "" {
		if err := WriteStateUpdate(stateDir, *up); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func sameState(t *testing.T, a, b string) {
	t.Helper()
	for _, f := range []string{StateFindingsFile, StateSeenFile} {
		x, err1 := os.ReadFile(filepath.Join(a, f))
		y, err2 := os.ReadFile(filepath.Join(b, f))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs (%v, %v)", f, err1, err2)
		}
	}
}

// TestKnownNotReminimized: a known signature keeps the store's minimized
// graph; only new ones are minimized.
func TestKnownNotReminimized(t *testing.T) {
	state := t.TempDir()
	calls := map[string]int{}
	minimize := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls[sig]++
		return cfg.FromSuccs([][]int{{0, 1}, {}}), nil
	}
	swap := func(c *Config) { c.Inject, c.Minimize, c.Workers = []string{"swap-arms"}, minimize, 1 }
	night(t, state, "2026-03-01", 1, 40, swap)
	if calls[swapSig] != 1 {
		t.Fatalf("night 1 minimized %v, want %s once", calls, swapSig)
	}
	two := night(t, state, "2026-03-02", 2, 40, swap)
	if calls[swapSig] != 1 {
		t.Errorf("night 2 minimized the known %s again (%d calls)", swapSig, calls[swapSig])
	}
	for _, f := range two.Findings {
		if f.Signature == swapSig && f.Minimized != "{{0, 1}, {}}" {
			t.Errorf("night 2: %s minimized %q, want the store's", swapSig, f.Minimized)
		}
	}
}

// TestKnownUnminimizedMinimizedLater: a night without minimization
// stores a signature with no minimized graph; the next night it shows,
// known, it is minimized once, and the night after keeps that graph.
func TestKnownUnminimizedMinimizedLater(t *testing.T) {
	state := t.TempDir()
	calls := 0
	minimize := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls++
		return cfg.FromSuccs([][]int{{0, 1}, {}}), nil
	}
	night(t, state, "2026-03-01", 1, 40, func(c *Config) { c.Inject, c.Workers = []string{"swap-arms"}, 1 })
	swap := func(c *Config) { c.Inject, c.Minimize, c.Workers = []string{"swap-arms"}, minimize, 1 }
	two := night(t, state, "2026-03-02", 2, 40, swap)
	if classesOf(two)[swapSig] != ClassKnown || calls != 1 {
		t.Fatalf("night 2: %s %s, minimized %d times, want known and once", swapSig, classesOf(two)[swapSig], calls)
	}
	night(t, state, "2026-03-03", 3, 40, swap)
	if calls != 1 {
		t.Errorf("night 3 minimized %s again (%d calls), want the store's graph", swapSig, calls)
	}
}

// TestTriageFile: the format's errors name the line; a signature with a
// space is written quoted.
func TestTriageFile(t *testing.T) {
	good := "# comment\n\nknown   exec:trace-mismatch  tracked upstream\nignored rules:R12\tnot ours\n" +
		"known \"structurize:crash:exit status 3\"\tcrashes on purpose\nknown \"a\\\"b\" escaped quote\n"
	m, err := ParseTriage("triage.txt", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]TriageEntry{
		"exec:trace-mismatch":             {TriageKnown, "tracked upstream", 3},
		"rules:R12":                       {TriageIgnored, "not ours", 4},
		"structurize:crash:exit status 3": {TriageKnown, "crashes on purpose", 5},
		`a"b`:                             {TriageKnown, "escaped quote", 6},
	}
	if len(m) != len(want) {
		t.Errorf("parsed %v, want %v", m, want)
	}
	for sig, e := range want {
		if m[sig] != e {
			t.Errorf("%s: %+v, want %+v", sig, m[sig], e)
		}
	}
	for _, bad := range []string{"known exec:x\n", "fixed exec:x because\n", "known a r\nignored a r\n", "known\n",
		"known \"open quote reason\n", "known \"sig\"reason\n", "known \"\" empty\n", "known \"sig\"\n"} {
		if _, err := ParseTriage("triage.txt", []byte(bad)); err == nil || !strings.Contains(err.Error(), "triage.txt:") {
			t.Errorf("%q: error %v, want one naming the line", bad, err)
		}
	}
	for sig, want := range map[string]string{"exec:x": "exec:x", "structurize:crash:exit status 3": `"structurize:crash:exit status 3"`, "#x": `"#x"`} {
		if got := TriageSignature(sig); got != want {
			t.Errorf("TriageSignature(%q) = %s, want %s", sig, got, want)
		}
		line := "known " + TriageSignature(sig) + " why"
		if m, err := ParseTriage("t", []byte(line)); err != nil || m[sig].Reason != "why" {
			t.Errorf("%s reads back as %v, %v", line, m, err)
		}
	}
}

// TestTriageFileAsEditorsSave: a triage file saved with a byte order mark
// or CRLF line endings reads as the plain file, and a line's length has no
// limit.
func TestTriageFileAsEditorsSave(t *testing.T) {
	for _, text := range []string{"\ufeffknown exec:x why\n", "known exec:x why\r\n# note\r\n"} {
		m, err := ParseTriage("triage.txt", []byte(text))
		if err != nil || m["exec:x"] != (TriageEntry{TriageKnown, "why", 1}) {
			t.Errorf("%q: %v, %v", text, m, err)
		}
	}
	long := strings.Repeat("y", 1<<17)
	if m, err := ParseTriage("triage.txt", []byte("known exec:x "+long+"\n")); err != nil || m["exec:x"].Reason != long {
		t.Errorf("a reason of 128 KiB: %v", err)
	}
}

// TestClassifyTriage: a regression is new even when the triage file says
// known; a quoted signature with spaces is triaged; a line whose
// signature nothing holds is reported, with the signature it meant when
// its text begins with one.
func TestClassifyTriage(t *testing.T) {
	const (
		regressed = "exec:trace-mismatch"
		crash3    = "structurize:crash:exit status 3"
		crash4    = "structurize:crash:exit status 4"
	)
	triage, err := ParseTriage("triage.txt", []byte("known exec:trace-mismatch tracked upstream\n"+
		"known \"structurize:crash:exit status 3\" on purpose\n"+
		"ignored structurize:crash:exit status 4 upstream bug\n"+
		"ignored rules:R99 a typo\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := &State{Triage: triage, Seen: NewBloom(), Store: []StoredSignature{
		{Signature: regressed, Outcome: OutInvalid, FirstSeen: "2026-03-01", LastSeen: "2026-03-01", Fixed: "2026-03-02"},
	}}
	rep := &Report{Settings: Settings{Night: "2026-03-03", Current: SpecSelf}, Findings: []Finding{
		{Signature: regressed, Outcome: OutInvalid, Count: 2, New: 2},
		{Signature: crash3, Outcome: OutCrash, Count: 1, New: 1},
		{Signature: crash4, Outcome: OutCrash, Count: 1, New: 1},
	}}
	sr := ClassifyState(st, rep, nil)
	got := map[string]SignatureState{}
	for _, s := range sr.Signatures {
		got[s.Signature] = s
	}
	if s := got[regressed]; s.Class != ClassNew || !strings.Contains(s.Reason, "regressed: fixed since 2026-03-02") || !strings.Contains(s.Reason, "triage.txt:1 says known") {
		t.Errorf("%s: %s (%s), want new: a regression despite the known line", regressed, s.Class, s.Reason)
	}
	if s := got[crash3]; s.Class != ClassKnown {
		t.Errorf("%s: %s (%s), want known from its quoted triage line", crash3, s.Class, s.Reason)
	}
	if s := got[crash4]; s.Class != ClassNew {
		t.Errorf("%s: %s (%s), want new: its triage line is unquoted", crash4, s.Class, s.Reason)
	}
	want := []TriageNote{{Line: 3, Signature: "structurize:crash:exit", Meant: crash4}, {Line: 4, Signature: "rules:R99"}}
	if !slices.Equal(sr.Unmatched, want) {
		t.Errorf("unmatched triage lines %+v, want %+v", sr.Unmatched, want)
	}
	if n := sr.Unmatched[0].String(); !strings.Contains(n, "triage.txt:3") || !strings.Contains(n, `"structurize:crash:exit status 4"`) {
		t.Errorf("note %q names neither the line nor the quoted signature", n)
	}
	// The whole signature and nothing after it, unquoted.
	bare, err := ParseTriage("triage.txt", []byte("ignored structurize:crash:exit status 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := unmatchedTriage(bare, map[string]bool{crash4: true}); len(got) != 1 || got[0].Meant != crash4 {
		t.Errorf("an unquoted signature with nothing after it: %+v, want it meant %s", got, crash4)
	}
	if _, err := ParseTriage("triage.txt", []byte("known structurize:crash:exit status 3 a\nknown structurize:crash:exit status 4 b\n")); err == nil || !strings.Contains(err.Error(), "double quotes") {
		t.Errorf("two unquoted signatures with spaces: %v, want the quoting hint", err)
	}
}

// TestIgnoredRegressionSaysSo: a signature the store had fixed that comes
// back under an ignored triage line stays ignored, its reason saying it
// regressed.
func TestIgnoredRegressionSaysSo(t *testing.T) {
	const sig = "rules:R3"
	triage, err := ParseTriage("triage.txt", []byte("ignored rules:R3 not ours\n"))
	if err != nil {
		t.Fatal(err)
	}
	stored := &StoredSignature{Signature: sig, Outcome: OutInvalid, FirstSeen: "2026-03-01", LastSeen: "2026-03-02", Fixed: "2026-03-03"}
	class, reason := showingClass(sig, "2026-03-04", false, stored, triage)
	if class != ClassIgnored || reason != "triage: not ours; regressed: fixed since 2026-03-03" {
		t.Errorf("class %s, reason %q; want ignored, saying it regressed", class, reason)
	}
	stored.Fixed = ""
	if class, reason := showingClass(sig, "2026-03-04", false, stored, triage); class != ClassIgnored || reason != "triage: not ours" {
		t.Errorf("not fixed before: class %s, reason %q; want ignored by the triage line alone", class, reason)
	}
}

// TestTriageLineWithNumbersNamesItsSignature: a triage line whose
// signature writes a number where tonight's reads N is unmatched, and its
// note names tonight's signature it matches once its numbers read as N; a
// line that matches nothing so read keeps the plain note.
func TestTriageLineWithNumbersNamesItsSignature(t *testing.T) {
	const tonight = "structurize:crash:signal: aborted: assertion failed: n != N"
	triage, err := ParseTriage("triage.txt", []byte(`known "structurize:crash:signal: aborted: assertion failed: n != 9" seen in CI`+"\n"+
		`known "structurize:crash:signal: aborted: assertion failed: m != 9" another`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := unmatchedTriage(triage, map[string]bool{tonight: true})
	if len(got) != 2 || got[0].Normalized != tonight || got[1].Normalized != "" {
		t.Fatalf("unmatched %+v, want line 1 normalized to %s, line 2 not", got, tonight)
	}
	if n := got[0].String(); !strings.Contains(n, "triage.txt:1") || !strings.Contains(n, "reads its numbers as N") || !strings.Contains(n, `write "`+tonight+`"`) {
		t.Errorf("note %q names neither the line nor the signature it matches with its numbers as N", n)
	}
	if n := got[1].String(); !strings.Contains(n, "(a typo, or one not seen yet") {
		t.Errorf("note %q, want the plain note", n)
	}
}

// TestBloom: added keys are found, the measured false-positive rate at
// two million keys is the stated one (1.9%) within a fifth, the count
// estimate is within 1%, and OR merges.
func TestBloom(t *testing.T) {
	a, b := NewBloom(), NewBloom()
	const n = 2_000_000
	key := func(tag byte, i int) []byte { return binary.LittleEndian.AppendUint64([]byte{tag}, uint64(i)) }
	for i := range n {
		if i%2 == 0 {
			a.Add(key('k', i))
		} else {
			b.Add(key('k', i))
		}
	}
	a.Or(b)
	for i := range n {
		if !a.Has(key('k', i)) {
			t.Fatalf("key %d lost", i)
		}
	}
	fp := 0
	const probe = 100_000
	for i := range probe {
		if a.Has(key('o', i)) {
			fp++
		}
	}
	want, got := BloomFalsePositive(n), float64(fp)/probe
	t.Logf("%d keys: false positives %d of %d (%.4f), stated %.4f; count estimate %d", n, fp, probe, got, want, a.Count())
	if got < want*0.8 || got > want*1.2 {
		t.Errorf("false-positive rate %.4f, stated %.4f", got, want)
	}
	if c := a.Count(); c < n*99/100 || c > n*101/100 {
		t.Errorf("count estimate %d, want about %d", c, n)
	}
	if p := BloomFalsePositive(1_000_000); p < 0.0004 || p > 0.0006 {
		t.Errorf("stated rate at a million: %.2g, the docs say 0.05%%", p)
	}
}

// TestGraphFingerprint: a renumbering that keeps the entry gives the same
// fingerprint; swapped arms or another weight do not.
func TestGraphFingerprint(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {}, {}})
	if GraphFingerprint(g) != GraphFingerprint(g.Permute([]int{0, 3, 1, 2})) {
		t.Errorf("a renumbering changed the fingerprint")
	}
	if GraphFingerprint(g) == GraphFingerprint(cfg.FromSuccs([][]int{{2, 1}, {3}, {}, {}})) {
		t.Errorf("swapped arms share the fingerprint")
	}
	w := g.Clone()
	w.Weights[1] = 16
	if GraphFingerprint(g) == GraphFingerprint(w) {
		t.Errorf("a weight did not change the fingerprint")
	}
	// Dead blocks: a graph with one is another input than its reachable
	// part, or than the graph with other dead blocks, to a structurizer
	// that crashes on dead code; the same graph is the same.
	dead := cfg.FromSuccs([][]int{{1, 2}, {3}, {}, {}, {1}})
	for name, h := range map[string]*cfg.Graph{
		"its reachable part":       g,
		"another dead block":       cfg.FromSuccs([][]int{{1, 2}, {3}, {}, {}, {2}}),
		"a second dead block":      cfg.FromSuccs([][]int{{1, 2}, {3}, {}, {}, {1}, {4}}),
		"a dead block's weight":    func() *cfg.Graph { h := dead.Clone(); h.Weights[4] = 16; return h }(),
		"a conditional dead block": cfg.FromSuccs([][]int{{1, 2}, {3}, {}, {}, {1, 0}}),
	} {
		if GraphFingerprint(dead) == GraphFingerprint(h) {
			t.Errorf("%v and %s (%v) share the fingerprint", dead, name, h)
		}
	}
	if GraphFingerprint(dead) != GraphFingerprint(dead.Clone()) {
		t.Errorf("a copy of %v changed the fingerprint", dead)
	}
}

// TestStateRecordsLastGoodNight: a night without a new signature on a
// committed revision becomes the state's last good night; a night with a
// new signature, or on a tree with uncommitted changes, leaves it.
func TestStateRecordsLastGoodNight(t *testing.T) {
	dir := t.TempDir()
	rev := func(c byte) string { return strings.Repeat(string(c), 40) }
	for i, n := range []struct {
		date, current string
		buggy         bool
		want          *GoodNight
	}{
		{"2026-12-01", "rev:" + rev('a'), false, &GoodNight{Night: "2026-12-01", Revision: rev('a')}},
		{"2026-12-02", "rev:" + rev('b'), true, &GoodNight{Night: "2026-12-01", Revision: rev('a')}},
		{"2026-12-03", "rev:" + rev('c') + "+dirty:" + rev('d'), false, &GoodNight{Night: "2026-12-01", Revision: rev('a')}},
		{"2026-12-04", "rev:HEAD", false, &GoodNight{Night: "2026-12-01", Revision: rev('a')}},
		{"2026-12-05", "repo:/src/app@" + rev('e'), false, &GoodNight{Night: "2026-12-05", Revision: rev('e'), Repo: "/src/app"}},
	} {
		night(t, dir, n.date, uint64(i+1), 40, func(c *Config) {
			side := SideFactory{New: func() (Side, error) { return &InProcess{}, nil }}
			if n.buggy {
				side = panicsOnFour()
			}
			side.Describe = n.current // the spec the report names
			c.Current = side
			c.StateNewStructurizer = strings.HasPrefix(n.current, "repo:") // from cfgfuzz's to the repository's
		})
		st, err := LoadState(dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.LastGood == nil || !reflect.DeepEqual(*st.LastGood, *n.want) {
			t.Errorf("after night %s on %s (bug %v): last good %+v, want %+v", n.date, n.current, n.buggy, st.LastGood, n.want)
		}
		if want := "repo:/src/app@" + rev('e'); n.want.Repo != "" && st.LastGood.Spec() != want {
			t.Errorf("after night %s: last good spec %s, want %s", n.date, st.LastGood.Spec(), want)
		}
	}
	// The fifth night's seed again: every graph was checked before, so
	// the night checks none and proves nothing.
	rep := night(t, dir, "2026-12-06", 5, 40, func(c *Config) {
		c.Current = SideFactory{Describe: "rev:" + rev('f'), New: func() (Side, error) { return &InProcess{}, nil }}
		c.StateNewStructurizer = true // back from the repository's to cfgfuzz's
	})
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Graphs != 0 || st.LastGood == nil || st.LastGood.Revision != rev('e') {
		t.Errorf("a night of %d graphs, all seen before, left last good %+v; want the fifth night's", rep.Graphs, st.LastGood)
	}
}

// TestShardsMergeSeenNight: the shards of a night whose graphs were all
// checked on an earlier night (records marked seen, without an outcome)
// merge into the report the whole night gives.
func TestShardsMergeSeenNight(t *testing.T) {
	base := t.TempDir()
	night(t, base, "2026-03-01", 1, 40, nil)
	state, err := LoadState(base)
	if err != nil {
		t.Fatal(err)
	}
	dirs := nightShards(t, state, "2026-03-02", 1, nil)
	rep, _, _, err := MergeNight(dirs, MergeOptions{State: state})
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	if rep.Seen != 40 || rep.Graphs != 0 {
		t.Errorf("merged: %d seen, %d graphs run; want 40 seen, 0 run", rep.Seen, rep.Graphs)
	}
}

// nightShards runs the two shards of night date on state, 40 graphs of
// seed, change applied to each shard's config (nil: none), and returns
// their directories.
func nightShards(t *testing.T, state *State, date string, seed uint64, change func(*Config)) []string {
	t.Helper()
	var dirs []string
	for i := range 2 {
		c := testConfig(t, 40)
		c.Seed, c.State, c.Night, c.Shard = seed, state, date, Shard{I: i, N: 2}
		if change != nil {
			change(&c)
		}
		mustRun(t, c)
		dirs = append(dirs, c.Dir)
	}
	return dirs
}

// TestTriageEditedBeforeTheMerge: a triage line added while a night's
// shards run (after they read the state, before their merge) is no other
// night's commit: the merge takes the night, and classes its signatures
// by the file as the merge reads it.
func TestTriageEditedBeforeTheMerge(t *testing.T) {
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	base := t.TempDir()
	night(t, base, "2026-03-01", 1, 40, swap)
	state, err := LoadState(base)
	if err != nil {
		t.Fatal(err)
	}
	dirs := nightShards(t, state, "2026-03-02", 2, swap)
	const sig = "exec:trace-mismatch"
	if err := os.WriteFile(filepath.Join(base, StateTriageFile), []byte("ignored "+sig+" planted on purpose\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edited, err := LoadState(base)
	if err != nil {
		t.Fatal(err)
	}
	rep, _, _, err := MergeNight(dirs, MergeOptions{State: edited})
	if err != nil {
		t.Fatalf("merge after a triage edit: %v", err)
	}
	if got := classesOf(rep)[sig]; got != ClassIgnored {
		t.Errorf("%s classed %q after the edit, want %s: %v", sig, got, ClassIgnored, classesOf(rep))
	}
}

// TestInterruptedNightLeavesTheState: a night interrupted part-way leaves
// the state directory as it read it (its update stays in OUT/state), so
// its resume reads the same state and gives the whole night's report and
// state.
func TestInterruptedNightLeavesTheState(t *testing.T) {
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	state := t.TempDir()
	night(t, state, "2026-03-01", 1, 40, swap)
	wholeState := t.TempDir()
	copyDir(t, state, wholeState)
	whole := testConfig(t, 120)
	st, err := LoadState(wholeState)
	if err != nil {
		t.Fatal(err)
	}
	whole.Seed, whole.State, whole.Night, whole.Inject = 2, st, "2026-03-02", []string{"swap-arms"}
	mustRun(t, whole)

	before := map[string][]byte{}
	for _, f := range []string{StateFindingsFile, StateSeenFile} {
		before[f], _ = os.ReadFile(filepath.Join(state, f))
	}
	part := testConfig(t, 120)
	if part.State, err = LoadState(state); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	part.Seed, part.Night, part.Inject = 2, "2026-03-02", []string{"swap-arms"}
	part.Context, part.Source = ctx, &cancelSource{n: 50, cancel: cancel}
	if o := mustRun(t, part); o.Report.Incomplete == nil {
		t.Fatal("the night was not interrupted")
	}
	for _, f := range []string{StateFindingsFile, StateSeenFile} {
		if after, _ := os.ReadFile(filepath.Join(state, f)); !bytes.Equal(before[f], after) {
			t.Errorf("the interrupted night rewrote %s of the state directory", f)
		}
	}
	saved, err := LoadSettings(part.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if part.State, err = LoadState(state); err != nil {
		t.Fatal(err)
	}
	part.Settings, part.Resume, part.Context, part.Source = saved, true, nil, testSource{}
	mustRun(t, part)
	if a, b := reportJSON(t, whole.Dir), reportJSON(t, part.Dir); a != b {
		t.Errorf("the resumed night's report differs from the whole night's:\n%s\n---\n%s", a, b)
	}
	for _, f := range []string{StateFindingsFile, StateSeenFile} {
		a, _ := os.ReadFile(filepath.Join(wholeState, f))
		b, _ := os.ReadFile(filepath.Join(state, f))
		if !bytes.Equal(a, b) {
			t.Errorf("the resumed night's %s differs from the whole night's", f)
		}
	}
}

// TestFullFilterStartsAfresh: a filter past BloomRestartAt, which would
// skip most of a night's graphs as seen without having checked them, is
// started afresh: the night checks its graphs and its filter holds them
// alone. A filter below the bound is kept.
func TestFullFilterStartsAfresh(t *testing.T) {
	state := t.TempDir()
	night(t, state, "2026-03-01", 1, 30, nil)
	path := filepath.Join(state, StateSeenFile)
	fill := func(word uint64) {
		b, err := ReadBloom(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.bits {
			b.bits[i] |= word
		}
		if err := WriteBloom(path, b); err != nil {
			t.Fatal(err)
		}
		storeWithSeen(t, state)
	}
	fill(0x00000000ffffffff) // half the bits: about 1.66 million graphs, 0.8% false positives
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if st.SeenRestarted != 0 || st.Seen.Count() < 1_000_000 {
		t.Fatalf("a filter of %d graphs (%.2g false positives) restarted at %d: want it kept", st.Seen.Count(), BloomFalsePositive(st.Seen.Count()), st.SeenRestarted)
	}
	fill(0x1f1f1f1f1f1f1f1f) // five eighths: 3.8% false positives
	two := night(t, state, "2026-03-02", 1, 30, nil)
	if two.Seen != 0 || two.Graphs != 30 || two.State.FilterRestarted < 2_000_000 || two.State.FilterGraphs != 0 {
		t.Errorf("night on a full filter: %d seen, %d graphs, filter restarted at %d graphs, read as %d: want 0, 30, the full filter's count, 0",
			two.Seen, two.Graphs, two.State.FilterRestarted, two.State.FilterGraphs)
	}
	b, err := ReadBloom(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := b.Count(); n < 20 || n > 40 {
		t.Errorf("the night's filter holds about %d graphs, want tonight's 30", n)
	}
	fill(^uint64(0)) // every bit: a count the estimate cannot give
	three := night(t, state, "2026-03-03", 1, 30, nil)
	if three.Seen != 0 || three.Graphs != 30 || three.State.FilterRestarted != math.MaxUint64 {
		t.Errorf("night on a saturated filter: %d seen, %d graphs, filter restarted at %d: want 0, 30, MaxUint64", three.Seen, three.Graphs, three.State.FilterRestarted)
	}
	if note := stateProse(three); !strings.Contains(note, "every bit set (saturated)") || strings.Contains(note, "18446744073709551615") {
		t.Errorf("the note on a saturated filter: %q, want it named as saturated, not by a count", note)
	}
}

// storeWithSeen names, in the state dir's findings.json, the seen.bloom
// there (seen_sha256), as a night that wrote that filter would.
func storeWithSeen(t *testing.T, dir string) {
	t.Helper()
	seen, err := os.ReadFile(filepath.Join(dir, StateSeenFile))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, StateFindingsFile)
	var f map[string]json.RawMessage
	if b, err := os.ReadFile(path); err != nil || json.Unmarshal(b, &f) != nil {
		t.Fatalf("%s: %v", path, err)
	}
	f["seen_sha256"], _ = json.Marshal(sha256Hex(seen))
	b, _ := json.MarshalIndent(f, "", "  ")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShardClassesFixedOnAllKeptGraphs: a shard re-runs only its share of
// a signature's kept graphs, so its own report classes a signature that
// none of them showed unverified, not fixed, and its reason names the
// minimized graph where the shard re-ran that too; the merge, which has
// every re-run, classes it fixed.
func TestShardClassesFixedOnAllKeptGraphs(t *testing.T) {
	base := t.TempDir()
	keep := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) { return g, nil } // its first graph as minimized
	one := night(t, base, "2026-03-01", 1, 40, func(c *Config) { c.Inject, c.Minimize = []string{"swap-arms"}, keep })
	if classesOf(one)[swapSig] != ClassNew {
		t.Fatalf("night 1: classes %v, want %s new", classesOf(one), swapSig)
	}
	state, err := LoadState(base)
	if err != nil {
		t.Fatal(err)
	}
	kept := len(state.lookup(swapSig, "").Graphs)
	if kept < 2 {
		t.Fatalf("%s keeps %d graphs: the test needs 2 or more", swapSig, kept)
	}
	if state.lookup(swapSig, "").Minimized == "" {
		t.Fatalf("%s has no minimized graph: the test needs one", swapSig)
	}
	var dirs []string
	minimizedHere := 0 // shards that re-ran the minimized graph
	for i := range 3 {
		c := testConfig(t, 40)
		c.Seed, c.State, c.Night, c.Shard = 2, state, "2026-03-02", Shard{I: i, N: 3}
		rep := mustRun(t, c).Report
		dirs = append(dirs, c.Dir)
		for _, s := range rep.State.Signatures {
			if s.Class == ClassFixed && s.RerunGraphs < kept {
				t.Errorf("shard %d/3: %s fixed on %d of its %d kept graphs (%s)", i, s.Signature, s.RerunGraphs, kept, s.Reason)
			}
			if s.Class == ClassUnverified && s.Minimized != "" {
				minimizedHere++
				if !strings.Contains(s.Reason, "its minimized graph re-run here") {
					t.Errorf("shard %d/3 re-ran %s's minimized graph (%s), but its reason leaves it out: %s", i, s.Signature, s.Minimized, s.Reason)
				}
			}
		}
	}
	if minimizedHere != 1 {
		t.Errorf("%d shards re-ran %s's minimized graph and classed it unverified, want 1", minimizedHere, swapSig)
	}
	rep, _, _, err := MergeNight(dirs, MergeOptions{State: state})
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	if got := classesOf(rep)[swapSig]; got != ClassFixed {
		t.Errorf("merged: %s is %q, want fixed", swapSig, got)
	}
}

// TestSeenKeyFaultOrder: the same faults given in another order are the
// same faults, so a graph checked under them is seen.
func TestSeenKeyFaultOrder(t *testing.T) {
	state := t.TempDir()
	night(t, state, "2026-03-01", 1, 30, func(c *Config) { c.Inject = []string{"swap-arms", "drop-merge"} })
	two := night(t, state, "2026-03-02", 1, 30, func(c *Config) { c.Inject = []string{"drop-merge", "swap-arms"} })
	if two.Seen != 30 {
		t.Errorf("the same faults in another order: %d of 30 graphs seen, want 30", two.Seen)
	}
}

// TestGoodNightKeepsItsSizeLimit: a night that found nothing new but grew
// its output past --max-growth failed (exit 1), so it is no good night.
func TestGoodNightKeepsItsSizeLimit(t *testing.T) {
	rep := &Report{Graphs: 10, Outcomes: map[string]int{}, State: &StateReport{Classes: map[string]int{}},
		Settings:    Settings{Night: "2026-12-05", Current: "rev:" + strings.Repeat("a", 40), Baseline: "rev:" + strings.Repeat("b", 40)},
		Divergences: &Divergences{Size: &SizeDiff{Graphs: 10, BaselineBlocks: 100, CurrentBlocks: 120}}}
	if goodNight(rep) == nil {
		t.Fatal("a night without a limit is not good")
	}
	limit := 5.0
	rep.Divergences.Size.judge(&limit)
	if !rep.SizeOverLimit() || goodNight(rep) != nil {
		t.Errorf("a night over its size limit is good: over %v", rep.SizeOverLimit())
	}
}

// TestStateRecordsDeclaredName: a command whose protocol v2 hello declares
// a name is recorded in the store (first_revision, revision) and the
// report's state section with that name after its spec, as self is with
// what it was built from; a store that records the structurizer only in
// its entries' revisions still knows the command for the same program
// (another night of it runs) and refuses another one.
func TestStateRecordsDeclaredName(t *testing.T) {
	bin := redteamServer(t)
	spec := "cmd:" + bin + " v2-limited"
	adapter := func(c *Config) {
		c.Inject = []string{"swap-arms"}
		c.Current = ProcessFactory(spec, []string{bin, "v2-limited"}, "")
	}
	state := t.TempDir()
	one := night(t, state, "2026-12-04", 1, 40, adapter)
	want := spec + ` (declares itself "redteam/v2-limited")`
	if one.State.Revision != want {
		t.Errorf("report's state revision %q, want %q", one.State.Revision, want)
	}
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Store) == 0 {
		t.Fatal("the night stored no signature")
	}
	for _, e := range st.Store {
		if e.Revision != want || e.FirstRevision != want {
			t.Errorf("stored %s: revision %q, first revision %q; want %q", e.Signature, e.Revision, e.FirstRevision, want)
		}
	}
	dropStoreCurrent(t, state)
	st, err = LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CheckNight("2026-12-05", "cmd:"+bin+" v2-limited --another-flag", false); err != nil {
		t.Errorf("the same program from a store of declared revisions: %v", err)
	}
	if err := st.CheckNight("2026-12-05", "cmd:/opt/other-adapter", false); err == nil || !strings.Contains(err.Error(), "was written by nights of the command "+bin+" ("+want+")") {
		t.Errorf("another program from a store of declared revisions: %v", err)
	}
}

// TestSpecOfRevision: a store's revision less what follows its spec, also
// when the declared name or the command holds " (".
func TestSpecOfRevision(t *testing.T) {
	for rev, want := range map[string]string{
		`cmd:/opt/adapter2 (declares itself "mystruct 1.1 (git def456)")`:       "cmd:/opt/adapter2",
		`cmd:/opt/adapter2 --x "a (b)" (declares itself "my \"struct\" (1.1)")`: `cmd:/opt/adapter2 --x "a (b)"`,
		`cmd:/opt/adapter2 --x (declares itself`:                                `cmd:/opt/adapter2 --x (declares itself`,
		"cmd:/opt/adapter2 (y)":                                                 "cmd:/opt/adapter2 (y)",
		"self (the structurizer compiled into this cfgfuzz binary)":             "self",
	} {
		if got := specOfRevision(rev); got != want {
			t.Errorf("specOfRevision(%q) = %q, want %q", rev, got, want)
		}
	}
}

// TestNightRefusedOnAnotherStructurizerOrEarlier: a state written by one
// structurizer refuses a night of another (a cmd: command for cfgfuzz's
// own, or the reverse), naming both and the flag that takes it over, also
// when its store records the structurizer only in its entries' revisions;
// another revision of the same structurizer goes on. A night earlier than
// the store's latest is refused; the same night again is not.
func TestNightRefusedOnAnotherStructurizerOrEarlier(t *testing.T) {
	adapter := func(c *Config) {
		c.Inject = []string{"swap-arms"}
		c.Current = SideFactory{Describe: "cmd:/opt/adapter --serve", New: func() (Side, error) { return &InProcess{}, nil }}
	}
	runOn := func(dir, date string, change func(*Config)) error {
		st, err := LoadState(dir)
		if err != nil {
			t.Fatal(err)
		}
		c := testConfig(t, 20)
		c.State, c.Night = st, date
		change(&c)
		_, err = Run(c)
		return err
	}
	state := t.TempDir()
	night(t, state, "2026-12-04", 1, 40, adapter)
	noCurrent := t.TempDir() // a store that records the structurizer only in its entries
	copyDir(t, state, noCurrent)
	dropStoreCurrent(t, noCurrent)
	for _, dir := range []string{state, noCurrent} {
		self := func(c *Config) {}
		err := runOn(dir, "2026-12-05", self)
		if err == nil || !strings.Contains(err.Error(), "was written by nights of the command /opt/adapter (cmd:/opt/adapter --serve)") ||
			!strings.Contains(err.Error(), "this night tests cfgfuzz's own structurizer (self)") || !strings.Contains(err.Error(), "--state-new-structurizer") {
			t.Errorf("%s: a night of self on an adapter's state: %v", dir, err)
		}
	}
	other := func(c *Config) {
		c.Current = SideFactory{Describe: "cmd:/opt/other-adapter", New: func() (Side, error) { return &InProcess{}, nil }}
	}
	if err := runOn(state, "2026-12-05", other); err == nil || !strings.Contains(err.Error(), "this night tests the command /opt/other-adapter (cmd:/opt/other-adapter)") {
		t.Errorf("another adapter: %v", err)
	}
	otherArgs := func(c *Config) {
		c.Current = SideFactory{Describe: "cmd:/opt/adapter --serve --fixed", New: func() (Side, error) { return &InProcess{}, nil }}
	}
	if err := runOn(state, "2026-12-04", otherArgs); err != nil {
		t.Errorf("the same adapter with other arguments: %v", err)
	}
	if err := runOn(state, "2026-11-01", adapter); err == nil || !strings.Contains(err.Error(), "night 2026-11-01 is earlier than the latest night of state") || !strings.Contains(err.Error(), "(2026-12-04)") {
		t.Errorf("an earlier night: %v", err)
	}
	if err := runOn(state, "2026-12-04", adapter); err != nil {
		t.Errorf("the same night again: %v", err)
	}
	if err := runOn(state, "2026-12-05", func(c *Config) { c.StateNewStructurizer = true }); err != nil {
		t.Errorf("self taking the state over: %v", err)
	}
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if st.Current != SpecSelf || st.Night != "2026-12-05" {
		t.Errorf("the state taken over records %q on %s, want self on 2026-12-05", st.Current, st.Night)
	}
	// Another revision of cfgfuzz's structurizer needs no flag.
	if err := runOn(state, "2026-12-06", func(c *Config) { c.Current = panicsOnFour() }); err != nil {
		t.Errorf("another revision of self: %v", err)
	}
}

// TestNightRelativeProgram: a store written by a night of a command given
// by a relative path records it absolute (Resolve); a night that gives the
// same relative path from the same working directory tests the same
// structurizer, and one that gives it from another directory (another
// file) is refused, naming the absolute path it read.
func TestNightRelativeProgram(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	st := &State{Dir: filepath.Join(dir, "state"), Night: "2026-12-01", Current: "cmd:" + filepath.Join(dir, "build", "adapter") + " --serve"}
	for _, spec := range []string{"cmd:./build/adapter", "cmd:build/adapter --fixed", "cmd:" + filepath.Join(dir, "build", "adapter")} {
		if err := st.CheckNight("2026-12-02", spec, false); err != nil {
			t.Errorf("%s from %s: %v", spec, dir, err)
		}
	}
	other := t.TempDir()
	t.Chdir(other)
	err := st.CheckNight("2026-12-02", "cmd:./build/adapter", false)
	if err == nil || !strings.Contains(err.Error(), "this night tests the command "+filepath.Join(other, "build", "adapter")+" (cmd:./build/adapter)") {
		t.Errorf("the same relative path from another directory: %v; want a refusal naming %s", err, filepath.Join(other, "build", "adapter"))
	}
}

// TestStateTableSaysWhatItCounts: a new signature that shows on another's
// kept graphs has none of its own re-run, and the table does not make
// that "3 of 0"; with a state, the findings table's column of what is new
// is the signature's class, not the graphs no baseline passed.
func TestStateTableSaysWhatItCounts(t *testing.T) {
	rep := &Report{Settings: Settings{Night: "2026-12-05", Current: "self"}, Graphs: 975,
		Findings: []Finding{{Signature: "exec:trace-mismatch", Count: 804, New: 804, First: Example{Graph: "{{}}"}}}}
	rep.State = &StateReport{Night: "2026-12-05", Classes: map[string]int{ClassNew: 1, ClassKnown: 1}, Reruns: 3, Signatures: []SignatureState{
		{Signature: "exec:trace-mismatch", Class: ClassKnown, Reason: "seen since 2026-12-01", Tonight: 804, RerunGraphs: 3, RerunShowing: 0, Minimized: MinimizedShows},
		{Signature: "filler:short", Class: ClassNew, Reason: "first seen tonight", RerunShowing: 3},
	}}
	md := Markdown(rep)
	for _, want := range []string{
		"| class | signature | strategy | tonight | its kept graphs re-run | re-runs showing it | its minimized graph | why |",
		"| new | filler:short | default | 0 | 0 | 3 | - | first seen tonight |",
		"| known | exec:trace-mismatch | default | 804 | 3 | 0 | shows | seen since 2026-12-01 |",
		"| signature | strategy | graphs | class | first graph |",
		"| exec:trace-mismatch | default | 804 | known | `{{}}` |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "3 of 0") || strings.Contains(md, "| 804 | 804 |") {
		t.Errorf("report.md counts a signature's re-runs or its new graphs as before:\n%s", md)
	}
	rep.Settings.Baseline = "rev:HEAD~1"
	if md := Markdown(rep); !strings.Contains(md, "| graphs | class (newly failing against the baseline) |") || !strings.Contains(md, "| 804 | known (804) |") {
		t.Errorf("with a baseline, report.md's findings table:\n%s", md)
	}
}

// TestOccupiedNightDirNamesItsState: a new campaign into the directory of
// a finished night is refused naming its state and no resume, which the
// state its end changed would refuse (an interrupted night's directory
// names the resume with its state: TestCheckDirFreeHintsOnlyAResumeThatCanRun).
func TestOccupiedNightDirNamesItsState(t *testing.T) {
	state := t.TempDir()
	var dir string
	night(t, state, "2026-03-01", 1, 10, func(c *Config) { dir = c.Dir })
	err := CheckDirFree(dir, false)
	if err == nil || !strings.Contains(err.Error(), "holds a finished night of the state "+state) || strings.Contains(err.Error(), "--resume") {
		t.Errorf("CheckDirFree on a finished night's directory: %v", err)
	}
}

// TestKnownUnderAnotherFailure: a known signature whose kept and
// minimized graphs fail tonight with another check first (a second fault
// planted) still shows on them: it stays known, not "not the defect the
// store knows".
func TestKnownUnderAnotherFailure(t *testing.T) {
	state := t.TempDir()
	// a diamond: swap-arms fails exec on it, drop-merge the rules first
	keep := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		return cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}}), nil
	}
	night(t, state, "2026-03-01", 1, 30, func(c *Config) { c.Strategy, c.Inject, c.Minimize = "structured", []string{"swap-arms"}, keep })
	rep := night(t, state, "2026-03-02", 1, 30, func(c *Config) {
		c.Strategy, c.Inject, c.Minimize = "structured", []string{"swap-arms", "drop-merge"}, keep
	})
	var masked bool
	for _, s := range rep.State.Signatures {
		if s.Signature == swapSig {
			if s.Class != ClassKnown {
				t.Errorf("%s: %s (%s), want known", s.Signature, s.Class, s.Reason)
			}
		} else if s.Class == ClassNew {
			masked = true // the second fault's signature, failing first
		}
	}
	if !masked {
		t.Fatalf("no new signature from drop-merge: the test needs one failing before %s", swapSig)
	}
}

// TestUnsupportedRerunsAreNoVerdict: a known signature whose kept and
// minimized graphs the structurizer no longer serves (its hello declares
// them unsupported, so none was structurized) or now refuses is
// unverified, not fixed; the same re-runs passing make it fixed.
func TestUnsupportedRerunsAreNoVerdict(t *testing.T) {
	base := t.TempDir()
	keep := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) { return g, nil }
	night(t, base, "2026-03-01", 1, 40, func(c *Config) { c.Inject, c.Minimize = []string{"swap-arms"}, keep })
	state, err := LoadState(base)
	if err != nil {
		t.Fatal(err)
	}
	if e := state.lookup(swapSig, ""); e == nil || len(e.Graphs) == 0 || e.Minimized == "" {
		t.Fatalf("the store's %s: %+v, want kept graphs and a minimized one", swapSig, e)
	}
	for _, c := range []struct{ outcome, class string }{{OutUnsupported, ClassUnverified}, {OutRefused, ClassUnverified}, {OutOK, ClassFixed}} {
		reruns := rerunPlan(state)
		for i := range reruns {
			reruns[i].Result = SideResult{Outcome: c.outcome}
		}
		rep := &Report{Settings: Settings{Night: "2026-03-02"}}
		var got *SignatureState
		for _, s := range ClassifyState(state, rep, reruns).Signatures {
			if s.Signature == swapSig {
				got = &s
			}
		}
		if got == nil || got.Class != c.class {
			t.Errorf("every re-run %s: %s classed %+v, want %s", c.outcome, swapSig, got, c.class)
		}
	}
}

// TestStructurizerOfAnInterpretersScript: a command run by an
// interpreter names its structurizer by the script its first path
// argument names, so two scripts under one interpreter are two
// structurizers and the same script with other flags is one.
func TestStructurizerOfAnInterpretersScript(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"cmd:sh /tmp/q/a.sh", "cmd:sh /tmp/q/b.sh", false},
		{"cmd:python3 /opt/toy.py", "cmd:python3 /opt/toy.py --fixed", true},
		{"cmd:java -jar /opt/a.jar", "cmd:java -jar /opt/b.jar", false},
		{"cmd:python3 -m mypkg", "cmd:python3 -m otherpkg", true}, // no path: the interpreter alone
		{"cmd:/opt/adapter --serve", "cmd:/opt/adapter /opt/model.bin", true},
	} {
		a, b := structurizerOf(c.a), structurizerOf(c.b)
		if (a == b) != c.same {
			t.Errorf("%s is %q, %s is %q: want the same %v", c.a, a, c.b, b, c.same)
		}
	}
	if got := structurizerOf("cmd:sh /tmp/q/a.sh"); got != "the command sh /tmp/q/a.sh" {
		t.Errorf("structurizerOf(sh /tmp/q/a.sh) = %q", got)
	}
}

// TestStateHoldingACampaignRefused: a --state directory holding a
// campaign's output files is refused, naming them, and nothing of a state
// is written into it.
func TestStateHoldingACampaignRefused(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"report.json", CampaignFile} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := LoadState(dir)
	if err == nil || !strings.Contains(err.Error(), "holds a campaign's output (report.json, "+CampaignFile+"), not a state") {
		t.Errorf("LoadState of a campaign's output: %v, want a refusal naming its files", err)
	}
	for _, name := range []string{StateFindingsFile, StateSeenFile, LockFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("the refusal wrote %s", name)
		}
	}
	if _, err := LoadState(t.TempDir()); err != nil {
		t.Errorf("LoadState of an empty directory: %v", err)
	}
}

// TestLastGoodNightRecordsKnown: a good night records the signatures it
// classed known, and a campaign whose baseline is that night's revision
// says in its state section (report.json, report.md) that it cannot show
// them as new; one on another baseline says nothing.
func TestLastGoodNightRecordsKnown(t *testing.T) {
	dir := t.TempDir()
	rev := func(c byte) string { return strings.Repeat(string(c), 40) }
	buggy := func(r byte) func(*Config) {
		return func(c *Config) {
			side := panicsOnFour()
			side.Describe = "rev:" + rev(r)
			c.Current = side
		}
	}
	night(t, dir, "2026-12-01", 1, 40, buggy('a')) // new: not good
	rep := night(t, dir, "2026-12-02", 2, 40, buggy('b'))
	if rep.State.Classes[ClassKnown] != 1 || rep.State.Classes[ClassNew] != 0 {
		t.Fatalf("night 2: classes %v, want one known signature and none new", rep.State.Classes)
	}
	sig := rep.State.Signatures[0].Signature
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := (GoodNight{Night: "2026-12-02", Revision: rev('b'), Known: []KnownSignature{{Signature: sig}}}); st.LastGood == nil || !reflect.DeepEqual(*st.LastGood, want) {
		t.Fatalf("last good %+v, want %+v", st.LastGood, want)
	}
	against := func(date string, seed uint64, baseline byte) *Report {
		return night(t, dir, date, seed, 40, func(c *Config) {
			c.Current = SideFactory{Describe: "rev:" + rev('c'), New: func() (Side, error) { return &InProcess{}, nil }}
			base := panicsOnFour()
			base.Describe = "rev:" + rev(baseline)
			c.Baseline = base
		})
	}
	rep = against("2026-12-03", 3, 'b')
	want := "the baseline is the revision of the last good night, 2026-12-02, which had 1 known signature (" + sig + "): a good night is one with nothing new, so that revision fails with them, and this comparison cannot show them as new"
	if rep.State.BaselineLastGood == nil || rep.State.BaselineNote() != want {
		t.Errorf("against the last good night's revision: note %q, want %q", rep.State.BaselineNote(), want)
	}
	if md := Markdown(rep); !strings.Contains(md, upperFirst(want)) {
		t.Errorf("report.md lacks the note:\n%s", md)
	}
	if rep = against("2026-12-04", 4, 'd'); rep.State.BaselineLastGood != nil {
		t.Errorf("against another revision: %+v, want no note", rep.State.BaselineLastGood)
	}
}

// TestStateCommitHalfDoneCompletes: a commit whose second rename fails
// (seen.bloom cannot be replaced: a directory in its way) keeps
// seen.bloom.tmp and says the commit is half done, to be completed; with
// the old seen.bloom back, the state reads as the new night, and the next
// night that commits there renames the filter into place.
func TestStateCommitHalfDoneCompletes(t *testing.T) {
	dir := t.TempDir()
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := NewBloom()
	first.Add([]byte("a"))
	if err := CommitState(st, StateUpdate{Seen: first, Night: "2026-03-01"}, nil); err != nil {
		t.Fatal(err)
	}
	if st, err = LoadState(dir); err != nil {
		t.Fatal(err)
	}
	seenPath := filepath.Join(dir, StateSeenFile)
	old, err := os.ReadFile(seenPath)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(seenPath)
	if err := os.MkdirAll(filepath.Join(seenPath, "in-the-way"), 0o755); err != nil {
		t.Fatal(err)
	}
	second := NewBloom()
	second.Add([]byte("a"))
	second.Add([]byte("b"))
	err = WriteStateUpdate(dir, StateUpdate{Seen: second, Night: "2026-03-02"})
	if !errors.Is(err, ErrHalfCommitted) || !strings.Contains(err.Error(), "the commit is half done") || !strings.Contains(err.Error(), "the next night or merge that commits there completes the commit") {
		t.Errorf("a commit whose second rename fails: %v, want it said half done, to be completed", err)
	}
	if err := os.RemoveAll(seenPath); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(seenPath, old, 0o644); err != nil { // the old filter, beside the new store
		t.Fatal(err)
	}
	st, err = LoadState(dir)
	if err != nil {
		t.Fatalf("the state after a half-done commit: %v", err)
	}
	if st.Night != "2026-03-02" || !st.Seen.Has([]byte("b")) {
		t.Errorf("the state after a half-done commit reads night %q (has b: %v), want the new night", st.Night, st.Seen.Has([]byte("b")))
	}
	if err := st.CheckWritable(nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(seenPath); err != nil || !bytes.Equal(b, second.bytes()) {
		t.Errorf("seen.bloom after the next night's check: %v; want the new filter renamed into place", err)
	}
}

// TestLoadStateRacingACommit: a commit that lands between LoadState's
// reading of findings.json and of seen.bloom (which it reads without the
// lock) is no mismatch: LoadState reads both again and finds the new
// night.
func TestLoadStateRacingACommit(t *testing.T) {
	dir := t.TempDir()
	first := NewBloom()
	first.Add([]byte("a"))
	if err := WriteStateUpdate(dir, StateUpdate{Seen: first, Night: "2026-03-01"}); err != nil {
		t.Fatal(err)
	}
	second := NewBloom()
	second.Add([]byte("b"))
	commits := 0
	betweenStateReads = func() {
		if commits++; commits == 1 {
			if err := WriteStateUpdate(dir, StateUpdate{Seen: second, Night: "2026-03-02"}); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { betweenStateReads = nil }()
	st, err := LoadState(dir)
	if err != nil {
		t.Fatalf("LoadState with a commit landing between its reads: %v", err)
	}
	if st.Night != "2026-03-02" || !st.Seen.Has([]byte("b")) {
		t.Errorf("LoadState read night %q (has b: %v), want the night committed meanwhile", st.Night, st.Seen.Has([]byte("b")))
	}
}

// TestLoadStateMissingSeenReadsItsTmp: a missing seen.bloom beside a
// seen.bloom.tmp that findings.json names is read from the .tmp (a commit
// cut short); with neither, the filter is empty.
func TestLoadStateMissingSeenReadsItsTmp(t *testing.T) {
	dir := t.TempDir()
	seen := NewBloom()
	seen.Add([]byte("b"))
	if err := WriteStateUpdate(dir, StateUpdate{Seen: seen, Night: "2026-03-02"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, StateSeenFile)
	if err := os.Rename(path, path+".tmp"); err != nil {
		t.Fatal(err)
	}
	if st, err := LoadState(dir); err != nil || !st.Seen.Has([]byte("b")) {
		t.Fatalf("a missing seen.bloom beside its .tmp: %v, want the filter read from the .tmp", err)
	}
	os.Remove(path + ".tmp")
	if st, err := LoadState(dir); err != nil || st.Seen.Has([]byte("b")) {
		t.Errorf("neither seen.bloom nor its .tmp: %v, want an empty filter", err)
	}
}

// TestDeletedOrCutFilter: a seen.bloom deleted while findings.json names
// it is a new filter, and the night's reports say so; one cut short is an
// error naming it and what to do.
func TestDeletedOrCutFilter(t *testing.T) {
	state := t.TempDir()
	night(t, state, "2026-03-01", 1, 30, nil)
	path := filepath.Join(state, StateSeenFile)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	two := night(t, state, "2026-03-02", 1, 30, nil)
	if !two.State.FilterMissing || two.Seen != 0 || !strings.Contains(stateProse(two), FilterMissingNote) {
		t.Errorf("night on a deleted filter: missing %v, %d seen, prose %q: want the note, 0 seen", two.State.FilterMissing, two.Seen, stateProse(two))
	}
	three := night(t, state, "2026-03-03", 1, 30, nil)
	if three.State.FilterMissing || three.Seen != 30 {
		t.Errorf("the night after: missing %v, %d seen; want no note, its 30 graphs seen", three.State.FilterMissing, three.Seen)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadState(state)
	if err == nil || !strings.Contains(err.Error(), "not a cfgfuzz-bloom/v1 filter") || !strings.Contains(err.Error(), "OUT/state/seen.bloom") || !strings.Contains(err.Error(), "delete "+path) {
		t.Errorf("a cut filter: %v, want an error naming it, the night's OUT/state/seen.bloom to restore, and delete", err)
	}
}
