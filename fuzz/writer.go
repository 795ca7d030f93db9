// writer.go: which cfgfuzz wrote a campaign directory. campaign.json
// records its Writer: the log format (LogFormat, the layout of
// campaign.json and results.jsonl), the build (module version, VCS
// revision, and for a build that names no clean revision a digest of the
// executable) and the validator's version (SPIRV-Tools, linked or on
// PATH, which a system upgrade changes under an unchanged build). A
// campaign's verdicts are one oracle's only when one build with one
// validator judged every graph, so --resume refuses a log another writer started
// (WriterMismatch) and merge refuses shards of several writers unless told
// to merge them as a mixed night (MergeOptions.Mixed, Report.Mixed), whose
// report names each shard's writer and what of its counts each shard's
// records, judged by that writer's rules, are.

package fuzz

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// LogFormat is the format of a campaign directory's campaign.json and
// results.jsonl that this cfgfuzz writes and reads. It grows by one when a
// record or a setting changes its meaning or a reader of the other number
// would misread it. A campaign.json without a writer is format 1.
const LogFormat = 2

// unrecordedFormat is the format of a campaign.json that names no writer.
const unrecordedFormat = 1

// Writer is the cfgfuzz that wrote a campaign: what campaign.json records
// under "writer". Two writers are the same cfgfuzz when every field is
// equal.
type Writer struct {
	// Format is the log format (LogFormat when this cfgfuzz wrote it).
	Format int `json:"format"`
	// Build names the build: "VERSION rev REVISION" for a build of a clean
	// checkout, with "+dirty exe sha256:HEX" for uncommitted changes and
	// "revision unknown, exe sha256:HEX" for a build without VCS
	// information, whose revision does not say what it runs.
	Build string `json:"build"`
	// Validator is the SPIRV-Tools version the build validated with
	// (oracle.ValidatorVersion); empty in a log whose writer recorded none.
	Validator string `json:"validator,omitempty"`
}

// String is the writer as messages name it: "cfgfuzz BUILD (log format N;
// VALIDATOR)", without the validator where the log records none.
func (w Writer) String() string {
	if w.Format == unrecordedFormat && w.Build == "" {
		return "a cfgfuzz that recorded no version (log format 1)"
	}
	if w.Validator == "" {
		return fmt.Sprintf("cfgfuzz %s (log format %d)", w.Build, w.Format)
	}
	return fmt.Sprintf("cfgfuzz %s (log format %d; %s)", w.Build, w.Format, w.Validator)
}

var (
	thisWriterOnce sync.Once
	thisWriter     Writer
)

// ThisWriter is the running binary as a Writer (its build information,
// LogFormat and the validator's version). A command passes it as
// Config.Writer and MergeOptions.Writer; tests pass others.
func ThisWriter() Writer {
	thisWriterOnce.Do(func() {
		thisWriter = WriterOf(ThisBuild(), executableDigest)
		thisWriter.Validator = oracle.ValidatorVersion()
	})
	return thisWriter
}

// WriterOf is the Writer of build b at LogFormat; digest gives the
// executable's digest, asked only for a build whose revision does not
// name what it runs (dirty or unknown).
func WriterOf(b Build, digest func() string) Writer {
	id := b.Version + " rev " + b.Revision
	switch {
	case b.Revision == "":
		id = b.Version + " revision unknown, exe sha256:" + digest()
	case b.Dirty:
		id += "+dirty exe sha256:" + digest()
	}
	return Writer{Format: LogFormat, Build: id}
}

// executableDigest is 16 hex digits of the SHA-256 of the running
// executable, "unreadable" when it cannot be read.
func executableDigest() string {
	path, err := os.Executable()
	if err != nil {
		return "unreadable"
	}
	f, err := os.Open(path)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))[:sumLen]
}

// writerOr is w, or ThisWriter when w is the zero value.
func writerOr(w Writer) Writer {
	if w == (Writer{}) {
		return ThisWriter()
	}
	return w
}

// WriterMismatch is the refusal of a campaign directory another cfgfuzz
// wrote: --resume would mix two oracles' verdicts in one log.
type WriterMismatch struct {
	Dir  string
	Log  Writer // the writer campaign.json records
	This Writer // the cfgfuzz asked to continue it
}

func (e *WriterMismatch) Error() string {
	return fmt.Sprintf("%s was written by %s; this is %s%s. One campaign's verdicts must come from one cfgfuzz: "+
		"resume it with the cfgfuzz that started it, or start it again with this one (--force, or another --out)",
		e.Dir, e.Log, e.This, validatorChange(e.Log, e.This))
}

// validatorChange says so when writers a and b differ only in the
// validator's version, else it is "": a SPIRV-Tools upgrade leaves the
// build's name as it was.
func validatorChange(a, b Writer) string {
	switch {
	case a.Format != b.Format || a.Build != b.Build || a.Validator == b.Validator:
		return ""
	case a.Validator == "" || b.Validator == "":
		return ", the same build, one of them recording no SPIRV-Tools version"
	}
	return ", the same build with another SPIRV-Tools (a system upgrade between the runs?)"
}

// Mixed is report.json's "mixed": a merge of shards that were not all
// written by the merging cfgfuzz (MergeOptions.Mixed). Its verdicts are
// several oracles' and its state update is not committed. Each shard's
// records are as its writer judged them: its oracle named their
// signatures, its checks ran, its repeat hash chose what it skipped, and
// the report's counts add them up across those rules, each graph counted
// once (a graph is in one shard). So Shards says, per shard, what of those
// counts is its (ShardWriter.Graphs and the rest).
type Mixed struct {
	// MergedBy is the cfgfuzz that merged the shards (and minimized the
	// new findings); Shards each shard's writer, in the order given.
	MergedBy Writer        `json:"merged_by"`
	Shards   []ShardWriter `json:"shards"`
}

// ShardWriter is one merged directory and the cfgfuzz that wrote it.
type ShardWriter struct {
	Dir    string `json:"dir"`
	Shard  string `json:"shard,omitempty"` // "i/n"; absent for an unsharded directory
	Writer Writer `json:"writer"`
	// SideFiles is the digest of the files each cmd side's command named
	// where the shard ran (campaign.json's side_files), given when the
	// shards' digests differ: they ran other builds of the structurizer.
	SideFiles *SideFiles `json:"side_files,omitempty"`
	// Graphs, Skipped and Findings are what the merged report's counts
	// hold of this shard's records: its distinct graphs, its repeats
	// skipped and its graphs with a finding; Signatures counts those by
	// signature, with " (strategy S)" for the dispatch share's, as the
	// report names its findings. Checks is the checks the shard's report
	// says its graphs ran, given when they are not the merged report's
	// (the checks every shard ran).
	Graphs     int            `json:"graphs"`
	Skipped    int            `json:"skipped,omitempty"`
	Findings   int            `json:"findings,omitempty"`
	Signatures map[string]int `json:"signatures,omitempty"`
	Checks     []string       `json:"checks,omitempty"`
}

// count adds record r, merged from this shard, to its counts.
func (sw *ShardWriter) count(r *Record) {
	switch {
	case r.Skipped:
		sw.Skipped++
		return
	case r.Seen:
		return
	}
	sw.Graphs++
	if !isFailure(r.Current.Outcome) {
		return
	}
	sw.Findings++
	if sw.Signatures == nil {
		sw.Signatures = map[string]int{}
	}
	name := r.Current.Signature
	if r.Strategy != "" {
		name += " (strategy " + r.Strategy + ")"
	}
	sw.Signatures[name]++
}

// judged words a shard's counts: "DIR (0/2) 30 graphs, 2 repeats
// skipped, 5 findings (exec:trace-mismatch 5), checks pdom,rules".
func (sw ShardWriter) judged() string {
	s := sw.name() + " " + Plural(sw.Graphs, "graph")
	if sw.Skipped > 0 {
		s += ", " + Plural(sw.Skipped, "repeat") + " skipped"
	}
	s += ", " + Plural(sw.Findings, "finding")
	if len(sw.Signatures) > 0 {
		var parts []string
		for _, sig := range slices.Sorted(maps.Keys(sw.Signatures)) {
			parts = append(parts, fmt.Sprintf("%s %d", sig, sw.Signatures[sig]))
		}
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if sw.Checks != nil {
		s += ", checks " + strings.Join(sw.Checks, ",")
	}
	return s
}

// Summary is the one-line statement of a mixed merge: which cfgfuzz wrote
// which shards, and which merged them; which shards ran which build of
// the structurizer; and what of the report's counts each shard's records
// are, as its own build judged them.
func (m *Mixed) Summary() string {
	var judged []string
	for _, sw := range m.Shards {
		judged = append(judged, sw.judged())
	}
	return "mixed: " + m.describe() + "; the counts add up each shard's graphs as its own build judged them (its signatures, its checks, its repeats): " +
		strings.Join(judged, "; ")
}

// Headline says whose verdicts a mixed merge's are not: one cfgfuzz's,
// one structurizer build's, or both.
func (m *Mixed) Headline() string {
	switch w, s := m.writersDiffer(), m.sidesDiffer(); {
	case w && s:
		return "These verdicts are neither one cfgfuzz's nor one structurizer build's"
	case s:
		return "These verdicts are not one structurizer build's"
	}
	return "These verdicts are not one cfgfuzz's"
}

// describe is Summary without its "mixed: " label.
func (m *Mixed) describe() string {
	var out []string
	if m.writersDiffer() {
		var parts []string
		for _, w := range m.writers() {
			var dirs []string
			for _, sw := range m.Shards {
				if sw.Writer == w {
					dirs = append(dirs, sw.name())
				}
			}
			parts = append(parts, w.String()+" wrote "+strings.Join(dirs, ", "))
		}
		out = append(out, fmt.Sprintf("shards of %s merged by %s: %s", Plural(len(parts), "cfgfuzz build"), m.MergedBy, strings.Join(parts, "; ")))
	}
	if m.sidesDiffer() {
		var groups []string
		var seen []SideFiles
		for _, sw := range m.Shards {
			if slices.Contains(seen, *sw.SideFiles) {
				continue
			}
			seen = append(seen, *sw.SideFiles)
			var dirs []string
			for _, o := range m.Shards {
				if *o.SideFiles == *sw.SideFiles {
					dirs = append(dirs, o.name())
				}
			}
			groups = append(groups, sw.SideFiles.String()+" in "+strings.Join(dirs, ", "))
		}
		out = append(out, "shards that ran "+Plural(len(groups), "build")+" of the structurizer (a digest of the files its command names): "+strings.Join(groups, "; "))
	}
	return strings.Join(out, "; and ")
}

// writersDiffer says whether another cfgfuzz than the merging one wrote
// a shard.
func (m *Mixed) writersDiffer() bool {
	for _, sw := range m.Shards {
		if sw.Writer != m.MergedBy {
			return true
		}
	}
	return false
}

// sidesDiffer says whether the shards ran other builds of a cmd side.
func (m *Mixed) sidesDiffer() bool {
	return len(m.Shards) > 0 && m.Shards[0].SideFiles != nil
}

// writers lists the shards' distinct writers in order of first appearance.
func (m *Mixed) writers() []Writer {
	var ws []Writer
	for _, sw := range m.Shards {
		if !slices.Contains(ws, sw.Writer) {
			ws = append(ws, sw.Writer)
		}
	}
	return ws
}

// name is "DIR (i/n)", or DIR for an unsharded directory.
func (sw ShardWriter) name() string {
	if sw.Shard == "" {
		return sw.Dir
	}
	return sw.Dir + " (" + sw.Shard + ")"
}

// mixedWriters is the Mixed of a merge by w of the shards, nil when w
// wrote every one of them and they ran the same build of each cmd side
// (their recorded side_files are equal).
func mixedWriters(shards []*shardState, w Writer) *Mixed {
	m := &Mixed{MergedBy: w}
	sameWriter, sameSides := true, true
	for _, st := range shards {
		m.Shards = append(m.Shards, ShardWriter{Dir: st.dir, Shard: st.settings.Shard.String(), Writer: st.writer})
		sameWriter = sameWriter && st.writer == w
		sameSides = sameSides && st.sides == shards[0].sides
	}
	if sameWriter && sameSides {
		return nil
	}
	if !sameSides {
		for i, st := range shards {
			m.Shards[i].SideFiles = &st.sides
		}
	}
	return m
}

// MixedError is a merge's refusal of shards not all written by the
// merging cfgfuzz (MergeOptions.Mixed unset).
type MixedError struct{ Mixed *Mixed }

func (e *MixedError) Error() string {
	var how []string
	if e.Mixed.writersDiffer() {
		how = append(how, "A night's verdicts must come from one cfgfuzz: run the shards again with one build and one SPIRV-Tools and merge them with it "+
			"(one binary everywhere, or builds of one commit given one name at link time: go build -ldflags \"-X 'main.buildID=ID'\", make build BUILDID=ID; "+
			"one spirv-tools package on every machine)")
	}
	if e.Mixed.sidesDiffer() {
		how = append(how, "A night's verdicts must come from one build of the structurizer: run the shards again on one build "+
			"(built once and copied to every machine, or one container image), as a merge that minimizes runs it too")
	}
	return e.Mixed.describe() + ". " + strings.Join(how, ". ") +
		"; or merge them anyway with --mixed (the report then says mixed, the state is not committed, and the exit status is 2 unless a finding is new)"
}
