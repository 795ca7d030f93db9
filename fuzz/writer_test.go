// writer_test.go: campaign directories written by two cfgfuzz builds,
// made through Config.Writer and MergeOptions.Writer: --resume refuses a
// log another writer started, naming both; merge refuses shards of two
// writers (or of another writer than the merging one) unless Mixed, whose
// report names each shard's writer and is not a good night; a log format
// newer than this cfgfuzz reads, or a campaign.json with no writer, is
// named; a state store of a newer format is refused; the seen filter's
// key names the default checks; one build with two SPIRV-Tools versions is
// two writers.

package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Two fake builds of cfgfuzz, as WriterOf names them.
var (
	writerA = WriterOf(Build{Version: "v1.4.0", Revision: strings.Repeat("a", 40)}, nil)
	writerB = WriterOf(Build{Version: "v1.5.0", Revision: strings.Repeat("b", 40)}, nil)
)

// runAs runs a campaign of n graphs (shard sh) written by w into a new
// directory and returns it.
func runAs(t *testing.T, w Writer, n int, sh Shard) string {
	t.Helper()
	c := testConfig(t, n)
	c.Writer, c.Shard = w, sh
	mustRun(t, c)
	return c.Dir
}

func TestWriterOf(t *testing.T) {
	digest := func() string { return "0123456789abcdef" }
	for _, tc := range []struct {
		b    Build
		want string
	}{
		{Build{Version: "v1.4.0", Revision: "abc"}, "v1.4.0 rev abc"},
		{Build{Version: "(devel)", Revision: "abc", Dirty: true}, "(devel) rev abc+dirty exe sha256:0123456789abcdef"},
		{Build{Version: "(devel)"}, "(devel) revision unknown, exe sha256:0123456789abcdef"},
	} {
		if got := WriterOf(tc.b, digest); got != (Writer{Format: LogFormat, Build: tc.want}) {
			t.Errorf("WriterOf(%+v) = %+v, want build %q", tc.b, got, tc.want)
		}
	}
	if w := ThisWriter(); w.Format != LogFormat || w.Build == "" || strings.Contains(w.Build, "unreadable") {
		t.Errorf("ThisWriter() = %+v", w)
	}
}

// TestResumeRefusesAnotherWriter: a log written by A is resumed by A,
// refused by B with both named and the log left as it was.
func TestResumeRefusesAnotherWriter(t *testing.T) {
	dir := runAs(t, writerA, 40, Shard{})
	_, w, err := LoadCampaign(dir)
	if err != nil || w != writerA {
		t.Fatalf("campaign.json records writer %+v (%v), want %+v", w, err, writerA)
	}
	if got := readReport(t, dir).Provenance.Writer; got != writerA {
		t.Errorf("report.json provenance writer %+v, want %+v", got, writerA)
	}
	before := readDirFiles(t, dir, CampaignFile, ResultsFile)
	c := testConfigIn(dir, 40)
	c.Writer, c.Resume = writerB, true
	_, err = Run(c)
	var mm *WriterMismatch
	if !errors.As(err, &mm) || mm.Log != writerA || mm.This != writerB {
		t.Fatalf("resume by B: %v, want a WriterMismatch of A and B", err)
	}
	for _, want := range []string{writerA.Build, writerB.Build, "log format 2", "--force"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("resume by B: %q does not name %q", err, want)
		}
	}
	if after := readDirFiles(t, dir, CampaignFile, ResultsFile); !slices.Equal(before, after) {
		t.Errorf("a refused resume changed the campaign's files")
	}
	c.Writer = writerA
	if o := mustRun(t, c); o.Report.Throughput.Resumed != 40 {
		t.Errorf("resume by A replayed %d records, want 40", o.Report.Throughput.Resumed)
	}
}

// TestValidatorIsPartOfTheWriter: one build with two SPIRV-Tools versions
// (a system upgrade between two runs) is two writers: --resume refuses
// the log, saying the validator changed, and a merge of their shards is
// mixed; ThisWriter records the validator this build links.
func TestValidatorIsPartOfTheWriter(t *testing.T) {
	if v := ThisWriter().Validator; v != oracle.ValidatorVersion() || !strings.HasPrefix(v, "SPIRV-Tools v") {
		t.Errorf("ThisWriter().Validator = %q, want oracle.ValidatorVersion() %q, starting SPIRV-Tools v", v, oracle.ValidatorVersion())
	}
	old, upgraded := writerA, writerA
	old.Validator, upgraded.Validator = "SPIRV-Tools v2023.1 unknown hash, 2023-02-15T14:03:51", "SPIRV-Tools v2025.1 unknown hash, 2025-03-01T10:00:00"
	dir := runAs(t, old, 20, Shard{I: 0, N: 2})
	if _, w, err := LoadCampaign(dir); err != nil || w != old {
		t.Fatalf("campaign.json records writer %+v (%v), want %+v", w, err, old)
	}
	c := testConfigIn(dir, 20)
	c.Writer, c.Resume, c.Shard = upgraded, true, Shard{I: 0, N: 2}
	_, err := Run(c)
	var mm *WriterMismatch
	if !errors.As(err, &mm) {
		t.Fatalf("resume after the upgrade: %v, want a WriterMismatch", err)
	}
	for _, want := range []string{"v2023.1", "v2025.1", "the same build with another SPIRV-Tools"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("resume after the upgrade: %q does not name %q", err, want)
		}
	}
	if got := validatorChange(writerA, old); !strings.Contains(got, "recording no SPIRV-Tools version") {
		t.Errorf("a writer without a validator against one with: %q", got)
	}
	if got := validatorChange(writerA, writerB); got != "" {
		t.Errorf("two builds: %q, want nothing said of the validator", got)
	}
	other := runAs(t, upgraded, 20, Shard{I: 1, N: 2})
	var me *MixedError
	if _, err := MergeWith([]string{dir, other}, MergeOptions{Writer: old}); !errors.As(err, &me) || !strings.Contains(err.Error(), "one SPIRV-Tools") {
		t.Errorf("merge of shards judged by two validators: %v, want a MixedError asking for one SPIRV-Tools", err)
	}
}

// TestResumeRefusesUnrecordedWriter: a campaign.json without a writer
// (log format 1) is resumed by no build: nothing says which one wrote it.
func TestResumeRefusesUnrecordedWriter(t *testing.T) {
	dir := runAs(t, writerA, 20, Shard{})
	dropWriter(t, dir)
	c := testConfigIn(dir, 20)
	c.Writer, c.Resume = writerA, true
	_, err := Run(c)
	if err == nil || !strings.Contains(err.Error(), "recorded no version (log format 1)") || !strings.Contains(err.Error(), writerA.Build) {
		t.Fatalf("resume of a format 1 log: %v, want a refusal naming format 1 and %s", err, writerA.Build)
	}
}

// TestNewerLogFormatRefused: a campaign.json of a newer log format is
// read by nothing here (settings, records, merge, even --mixed), named.
func TestNewerLogFormatRefused(t *testing.T) {
	dir := runAs(t, writerA, 20, Shard{})
	setWriter(t, dir, Writer{Format: LogFormat + 1, Build: "v9.0.0 rev " + strings.Repeat("c", 40)})
	_, _, rerr := ReadRecords(dir)
	_, merr := MergeWith([]string{dir}, MergeOptions{Writer: writerA, Mixed: true})
	for what, err := range map[string]error{"read": rerr, "merge --mixed": merr} {
		if err == nil || !strings.Contains(err.Error(), "log format 3") || !strings.Contains(err.Error(), "a newer log format than this cfgfuzz reads (2)") || !strings.Contains(err.Error(), CampaignFile) {
			t.Errorf("%s of a newer format: %v", what, err)
		}
	}
	setWriter(t, dir, Writer{Format: LogFormat})
	if _, err := LoadSettings(dir); err == nil || !strings.Contains(err.Error(), `build ""`) {
		t.Errorf("a writer without a build: %v", err)
	}
}

// TestMergeOfTwoWriters: shards of A and B are refused by A and by B; a
// merge of A's shards by B is refused; merged with Mixed they give the
// report of A's shards with Mixed naming who wrote what.
func TestMergeOfTwoWriters(t *testing.T) {
	a0, a1 := runAs(t, writerA, 60, Shard{I: 0, N: 2}), runAs(t, writerA, 60, Shard{I: 1, N: 2})
	b1 := runAs(t, writerB, 60, Shard{I: 1, N: 2})
	for _, tc := range []struct {
		dirs []string
		by   Writer
	}{{[]string{a0, b1}, writerA}, {[]string{a0, b1}, writerB}, {[]string{a0, a1}, writerB}} {
		_, err := MergeWith(tc.dirs, MergeOptions{Writer: tc.by})
		var me *MixedError
		if !errors.As(err, &me) {
			t.Fatalf("merge of %v by %s: %v, want a MixedError", tc.dirs, tc.by.Build, err)
		}
		for _, want := range []string{writerA.Build, tc.by.Build, tc.dirs[1] + " (1/2)", "--mixed"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("merge of %v by %s: %q does not name %q", tc.dirs, tc.by.Build, err, want)
			}
		}
	}
	same, err := MergeWith([]string{a0, a1}, MergeOptions{Writer: writerA})
	if err != nil || same.Mixed != nil {
		t.Fatalf("merge of A's shards by A: mixed %+v, %v", same.Mixed, err)
	}
	mixed, err := MergeWith([]string{a0, b1}, MergeOptions{Writer: writerA, Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	// Each shard judged 30 of the 60 graphs, none a repeat or a finding
	// (the dispatch strategy passes the test source's graphs).
	want := &Mixed{MergedBy: writerA, Shards: []ShardWriter{
		{Dir: a0, Shard: "0/2", Writer: writerA, Graphs: 30},
		{Dir: b1, Shard: "1/2", Writer: writerB, Graphs: 30},
	}}
	if got, _ := json.Marshal(mixed.Mixed); string(got) != mustJSON(t, want) {
		t.Errorf("mixed = %s, want %s", got, mustJSON(t, want))
	}
	if s := mixed.Mixed.Summary(); !strings.Contains(s, "2 cfgfuzz builds") || !strings.Contains(s, writerB.String()+" wrote "+b1+" (1/2)") {
		t.Errorf("summary %q", s)
	}
	out := t.TempDir()
	if err := WriteReports(out, mixed, testSource{}); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	for name, text := range map[string][]byte{"report.md": md, "report.html": html} {
		if !strings.Contains(string(text), "not one cfgfuzz") {
			t.Errorf("%s does not say the verdicts are mixed", name)
		}
	}
	mixed.Mixed, same.Mixed = nil, nil
	mixed.Provenance, same.Provenance = nil, nil
	mixed.Throughput, same.Throughput = Throughput{}, Throughput{}
	if mustJSON(t, mixed) != mustJSON(t, same) {
		t.Errorf("the mixed merge's counts differ from the merge of A's shards")
	}
}

// TestMergeOfTwoStructurizerBuilds: shards of one cfgfuzz whose cmd
// side's files differ (the adapter rebuilt at its path between shards)
// are refused, naming which shard ran which digest; with Mixed the report
// names them and says the verdicts are not one structurizer build's.
// Shards that recorded the same digest merge as one build's.
func TestMergeOfTwoStructurizerBuilds(t *testing.T) {
	a0, a1 := runAs(t, writerA, 60, Shard{I: 0, N: 2}), runAs(t, writerA, 60, Shard{I: 1, N: 2})
	setSides := func(dir, digest string) {
		editCampaign(t, dir, func(m map[string]json.RawMessage) {
			m["side_files"] = json.RawMessage(mustJSON(t, SideFiles{Current: digest}))
		})
	}
	setSides(a0, "sha256:1111111111111111")
	setSides(a1, "sha256:1111111111111111")
	if rep, err := MergeWith([]string{a0, a1}, MergeOptions{Writer: writerA}); err != nil || rep.Mixed != nil {
		t.Fatalf("shards of one build: mixed %+v, %v", rep.Mixed, err)
	}
	setSides(a1, "sha256:2222222222222222")
	_, err := MergeWith([]string{a0, a1}, MergeOptions{Writer: writerA})
	var me *MixedError
	if !errors.As(err, &me) {
		t.Fatalf("shards of two builds: %v, want a MixedError", err)
	}
	for _, want := range []string{"current sha256:1111111111111111 in " + a0 + " (0/2)", "current sha256:2222222222222222 in " + a1 + " (1/2)", "one build of the structurizer", "--mixed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "one cfgfuzz") {
		t.Errorf("%q blames the cfgfuzz builds, which are one", err)
	}
	mixed, err := MergeWith([]string{a0, a1}, MergeOptions{Writer: writerA, Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	if m := mixed.Mixed; m == nil || m.Shards[1].SideFiles == nil || m.Shards[1].SideFiles.Current != "sha256:2222222222222222" {
		t.Fatalf("mixed = %+v, want each shard's side files", m)
	}
	if h := mixed.Mixed.Headline(); h != "These verdicts are not one structurizer build's" {
		t.Errorf("headline %q", h)
	}
	out := t.TempDir()
	if err := WriteReports(out, mixed, testSource{}); err != nil {
		t.Fatal(err)
	}
	if md, _ := os.ReadFile(filepath.Join(out, "report.md")); !strings.Contains(string(md), "not one structurizer build's") {
		t.Errorf("report.md does not say the verdicts are of two structurizer builds")
	}
}

// TestMergeOfADuplicateShard: one shard given twice under two names (a
// copy) is not a whole set: refused, and merged with Partial the report
// names the copy.
func TestMergeOfADuplicateShard(t *testing.T) {
	a0, a1 := runAs(t, writerA, 60, Shard{I: 0, N: 2}), runAs(t, writerA, 60, Shard{I: 1, N: 2})
	again := filepath.Join(t.TempDir(), "copy")
	copyDir(t, a1, again)
	_, err := MergeWith([]string{a0, a1, again}, MergeOptions{Writer: writerA})
	if err == nil || !strings.Contains(err.Error(), again+": shard 1/2 again, as "+a1) {
		t.Fatalf("merge with a copy of a shard: %v", err)
	}
	rep, err := MergeWith([]string{a0, a1, again}, MergeOptions{Writer: writerA, Partial: true})
	if err != nil || rep.Incomplete == nil {
		t.Fatalf("partial merge with a copy: %v, incomplete %+v", err, rep)
	}
}

// TestMixedNightIsNoGoodNight: a mixed merge's night is not recorded as
// the last good one, whatever it found.
func TestMixedNightIsNoGoodNight(t *testing.T) {
	rep := &Report{Graphs: 10, Outcomes: map[string]int{}, State: &StateReport{Classes: map[string]int{}},
		Settings: Settings{Night: "2026-12-05", Current: "rev:" + strings.Repeat("a", 40)}}
	if goodNight(rep) == nil {
		t.Fatal("a clean night of one writer is not good")
	}
	rep.Mixed = &Mixed{MergedBy: writerA}
	if goodNight(rep) != nil {
		t.Error("a mixed night is good")
	}
}

// TestNewerStateRefused: a findings.json of a newer state format, or of no
// state format, is refused by name; the directory is left as it was.
func TestNewerStateRefused(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`"cfgfuzz-state/v2"`, `schema "cfgfuzz-state/v2": a newer state format than this cfgfuzz reads ("cfgfuzz-state/v1")`},
		{`""`, "no schema: not a cfgfuzz-state/v1 store"},
		{`"cfgfuzz-report/v1"`, `schema "cfgfuzz-report/v1": not a cfgfuzz state store`},
		{`"cfgfuzz-state/vX"`, `schema "cfgfuzz-state/vX": not a cfgfuzz state store`},
	} {
		dir := t.TempDir()
		text := `{"schema": ` + tc.schema + `, "signatures": [], "filter_keys": "v2"}` + "\n"
		path := filepath.Join(dir, StateFindingsFile)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadState(dir)
		if err == nil || !strings.Contains(err.Error(), path+": "+tc.want) {
			t.Errorf("schema %s: %v, want %q", tc.schema, err, tc.want)
		}
		if got, _ := os.ReadFile(path); string(got) != text {
			t.Errorf("schema %s: findings.json changed", tc.schema)
		}
	}
}

// TestSeenKeyNamesDefaultChecks: a campaign that names no checks keys its
// graphs by the default set's names, so it sees the graphs of one that
// named that set, and a cfgfuzz with other defaults would not.
func TestSeenKeyNamesDefaultChecks(t *testing.T) {
	var fp Fingerprint
	defaults := &Settings{}
	named := &Settings{Checks: slices.Clone(oracle.DefaultChecks)}
	slices.Reverse(named.Checks)
	fewer := &Settings{Checks: oracle.DefaultChecks[1:]}
	if string(seenKey(defaults, "", fp)) != string(seenKey(named, "", fp)) {
		t.Errorf("the defaults and the default set named differ: %s, %s", seenKey(defaults, "", fp), seenKey(named, "", fp))
	}
	if string(seenKey(defaults, "", fp)) == string(seenKey(fewer, "", fp)) {
		t.Errorf("a set without %s has the defaults' key", oracle.DefaultChecks[0])
	}
}

// readDirFiles is the contents of dir's named files.
func readDirFiles(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	var out []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// setWriter rewrites campaign.json's writer, keeping its settings.
func setWriter(t *testing.T, dir string, w Writer) {
	t.Helper()
	editCampaign(t, dir, func(m map[string]json.RawMessage) { m["writer"] = json.RawMessage(mustJSON(t, w)) })
}

// dropWriter removes campaign.json's writer, as a format 1 file has none.
func dropWriter(t *testing.T, dir string) {
	t.Helper()
	editCampaign(t, dir, func(m map[string]json.RawMessage) { delete(m, "writer") })
}

func editCampaign(t *testing.T, dir string, edit func(map[string]json.RawMessage)) {
	t.Helper()
	path := filepath.Join(dir, CampaignFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if err := os.WriteFile(path, []byte(mustJSON(t, m)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMixedMergeSaysWhatEachShardCounts: in a mixed merge whose second
// shard's build judges graphs by other rules (here a structurizer of the
// same name that panics on graphs of an even block count, standing for a
// build whose oracle names failures the other does not), the report's
// counts add both shards' records, and Mixed says per shard what it
// holds of them: A's shard no finding, B's every panic, by signature. The
// summary (and so report.md, report.html and the console) says it too.
func TestMixedMergeSaysWhatEachShardCounts(t *testing.T) {
	a0 := runAs(t, writerA, 60, Shard{I: 0, N: 2})
	c := testConfig(t, 60)
	c.Writer, c.Shard = writerB, Shard{I: 1, N: 2}
	c.Current = SideFactory{Describe: SpecSelf, New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len()%2 == 0 {
				panic("even blocks")
			}
			return structureLocal(g, opt)
		}}, nil
	}}
	mustRun(t, c)
	b1 := c.Dir
	rep, err := MergeWith([]string{a0, b1}, MergeOptions{Writer: writerA, Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	a, b := rep.Mixed.Shards[0], rep.Mixed.Shards[1]
	if a.Findings != 0 || b.Findings == 0 || a.Graphs+b.Graphs != rep.Graphs || a.Skipped+b.Skipped != rep.Skipped {
		t.Fatalf("shards %+v and %+v of a report of %d graphs, %d skipped: want A's without a finding, B's with, adding up to the report's", a, b, rep.Graphs, rep.Skipped)
	}
	if len(rep.Findings) != 1 || b.Signatures[rep.Findings[0].Signature] != rep.Findings[0].Count || len(b.Signatures) != 1 {
		t.Errorf("findings %+v; B's shard counts %v: want its count of the one finding", rep.Findings, b.Signatures)
	}
	s := rep.Mixed.Summary()
	for _, want := range []string{
		"the counts add up each shard's graphs as its own build judged them",
		fmt.Sprintf("%s (0/2) %s, 0 findings;", a0, Plural(a.Graphs, "graph")),
		fmt.Sprintf("%s (1/2) %s", b1, Plural(b.Graphs, "graph")),
		fmt.Sprintf("%s (%s %d)", Plural(b.Findings, "finding"), rep.Findings[0].Signature, b.Findings),
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary %q does not say %q", s, want)
		}
	}
}
