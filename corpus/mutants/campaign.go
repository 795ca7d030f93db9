// campaign.go runs one mutant: a copy of the tree (without .git) with the
// mutant applied, cmd/cfgfuzz built there, and `cfgfuzz run` over a graph
// budget; the verdict is read back from the campaign's results log (the
// records of fuzz/record.go, one JSON object a line: fuzz/README.md).

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Settings are one measurement's knobs. The zero value is not usable:
// main fills every field from its flags.
type Settings struct {
	Root    string        // the repository to copy
	Graphs  int           // the campaign's graph budget
	Seed    uint64        // the campaign's seed
	Workers int           // the campaign's workers
	Limit   time.Duration // wall-clock limit of one mutant's campaign
	Keep    bool          // keep each mutant's temporary directory
	Extra   []string      // more flags for `cfgfuzz run`
	Tags    string        // build tags of cmd/cfgfuzz ("" none; "vulkan" for the gpu check)
	// Guided, when positive, also runs each mutant's guided campaign
	// with this mutate share (guided.go), from a copy of Corpus ("" an
	// empty corpus).
	Guided float64
	Corpus string
	// RandomCorpus is the start corpus of each mutant's guidance control
	// (guided.go: --corpus-keep random) ("" an empty corpus).
	RandomCorpus string
	// Control is each graph's outcome and module hash in the unmutated
	// tree's campaign (nil: no control ran), to count the graphs a mutant
	// changed.
	Control map[int]string
}

// Statuses of a mutant.
const (
	StKilled     = "killed"     // the campaign reported a finding
	StSurvived   = "survived"   // every graph passed
	StStillborn  = "stillborn"  // the mutated tree does not build
	StEquivalent = "equivalent" // survived, and the table says why it cannot be caught
	StError      = "error"      // the campaign did not complete (limit, harness error) and found nothing
)

// Result is what one mutant's campaign showed.
type Result struct {
	Name   string `json:"name"`
	Flags  string `json:"flags,omitempty"` // the mutant's own run flags (Mutant.Flags)
	Status string `json:"status"`
	First  int    `json:"first"` // index of the first failing graph, -1 none
	// GuidedFirst is the guided campaign's first failing index (-1 none
	// or not run; Settings.Guided).
	GuidedFirst int `json:"guided_first"`
	// RandomFirst is the guidance control's first failing index: the
	// guided campaign with its corpus kept at random (-1 none or not run).
	RandomFirst int `json:"random_first"`
	Failing     int `json:"failing"` // failing graphs
	Graphs      int `json:"graphs"`  // records read
	Fallbacks   int `json:"fallbacks"`
	// Changed is the graphs whose outcome or module differs from the
	// control campaign's (-1: no control): 0 for a survivor means the
	// campaign never reached the mutated code in an observable way.
	Changed    int            `json:"changed"`
	outputs    map[int]string // index -> outcome and module hash
	Signatures map[string]int `json:"signatures,omitempty"`
	Exit       int            `json:"exit"`
	Note       string         `json:"note,omitempty"`
	Dir        string         `json:"dir,omitempty"` // with -keep
	Seconds    float64        `json:"seconds"`
}

// record is the part of a fuzz.Record this tool reads (JSON tags of
// fuzz/record.go).
type record struct {
	Index   int `json:"i"`
	Current struct {
		Hash      string `json:"hash"`
		Outcome   string `json:"outcome"`
		Signature string `json:"signature"`
		Fallbacks int    `json:"fallbacks"`
	} `json:"cur"`
}

// failing is fuzz's isFailure: the outcomes that are findings.
func failing(outcome string) bool {
	switch outcome {
	case "invalid", "panic", "timeout", "crash":
		return true
	}
	return false
}

// runMutant measures m (nil: the unmutated tree, the control).
func runMutant(m *Mutant, s Settings) (r Result) {
	name := "(control: no mutant)"
	if m != nil {
		name = m.Name
	}
	r = Result{Name: name, First: -1, GuidedFirst: -1, RandomFirst: -1, Changed: -1, outputs: map[int]string{}}
	start := time.Now()
	defer func() { r.Seconds = time.Since(start).Seconds() }()
	dir, err := os.MkdirTemp("", "cfgfuzz-mutant-")
	if err != nil {
		r.Status, r.Note = StError, err.Error()
		return r
	}
	if s.Keep {
		r.Dir = dir
	} else {
		defer os.RemoveAll(dir)
	}
	tree := filepath.Join(dir, "tree")
	if err := copyTree(s.Root, tree); err != nil {
		r.Status, r.Note = StError, "copy: "+err.Error()
		return r
	}
	if m != nil {
		if err := m.apply(tree); err != nil {
			r.Status, r.Note = StError, err.Error()
			return r
		}
	}
	bin := filepath.Join(dir, "cfgfuzz")
	build := exec.Command("go", "build", "-trimpath", "-tags", s.Tags, "-o", bin, "./cmd/cfgfuzz")
	build.Dir = tree
	if out, err := build.CombinedOutput(); err != nil {
		r.Status, r.Note = StStillborn, buildError(string(out))
		return r
	}
	out := filepath.Join(dir, "out")
	exit, tail, cut := campaign(bin, out, s)
	r.Exit = exit
	if err := readResults(filepath.Join(out, "results.jsonl"), &r); err != nil {
		r.Status, r.Note = StError, err.Error()
		if cut != nil {
			r.Note = cut.Error() + "; " + r.Note
		}
		return r
	}
	if s.Control != nil {
		r.Changed = 0
		for i, o := range r.outputs {
			if s.Control[i] != o {
				r.Changed++
			}
		}
	}
	judge(&r, m, s.Graphs, tail, cut)
	if s.Guided > 0 {
		var note, rnote string
		r.GuidedFirst, note = guidedFirst(bin, dir, s, keepNovel)
		r.RandomFirst, rnote = guidedFirst(bin, dir, s, keepRandom)
		for _, n := range []string{note, rnote} {
			if n != "" {
				r.Note = strings.TrimPrefix(r.Note+"; "+n, "; ")
			}
		}
	}
	return r
}

// judge sets r's status from its campaign: the verdict of its records and
// exit status; a campaign cut short (cut not nil) is an error unless it
// found something; a survivor the table marks equivalent is equivalent.
func judge(r *Result, m *Mutant, graphs int, tail string, cut error) {
	r.Status = verdict(r, graphs, tail)
	if cut != nil {
		if r.Status != StKilled {
			r.Status = StError
		}
		r.Note = strings.TrimPrefix(r.Note+"; "+cut.Error(), "; ")
	}
	if r.Status == StSurvived && m != nil && m.Equivalent != "" {
		r.Status = StEquivalent
	}
	if r.Status == StKilled && m != nil && m.Equivalent != "" {
		r.Note = "marked equivalent in the table but killed: the table is wrong"
	}
}

// verdict classifies a mutant from its campaign's exit status and records.
func verdict(r *Result, graphs int, tail string) string {
	switch {
	case r.Failing > 0 || r.Exit == 1:
		if r.Failing == 0 {
			r.Note = "exit 1 without a failing record: " + tail
		} else if r.Exit != 1 {
			r.Note = fmt.Sprintf("campaign exit %d: %s", r.Exit, tail)
		}
		return StKilled
	case r.Exit != 0:
		r.Note = fmt.Sprintf("campaign exit %d: %s", r.Exit, tail)
		return StError
	case r.Graphs != graphs:
		r.Note = fmt.Sprintf("%d records for %d graphs", r.Graphs, graphs)
		return StError
	}
	return StSurvived
}

// campaign runs `cfgfuzz run` into out under the wall-clock limit, killing
// its process group at the limit. It returns the exit status and the last
// line of its output.
func campaign(bin, out string, s Settings) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.Limit)
	defer cancel()
	args := append([]string{"run",
		"--graphs", fmt.Sprint(s.Graphs), "--seed", fmt.Sprint(s.Seed),
		"--workers", fmt.Sprint(s.Workers), "--out", out,
		"--progress", "none", "--minimize=false"}, s.Extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	killGroupOnCancel(cmd)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	tail := lastLine(buf.String())
	if ctx.Err() != nil {
		return -1, tail, fmt.Errorf("campaign cut at the %v limit", s.Limit)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), tail, nil
	}
	if err != nil {
		return -1, tail, err
	}
	return 0, tail, nil
}

// readResults fills r's counts from a results log. A torn last line (a
// killed campaign) is skipped; any other bad line is an error.
func readResults(path string, r *Result) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	seen := map[int]bool{}
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for i, line := range lines {
		var rec record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			if i == len(lines)-1 {
				break
			}
			return fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		if seen[rec.Index] {
			continue
		}
		seen[rec.Index] = true
		r.Graphs++
		r.Fallbacks += rec.Current.Fallbacks
		if r.outputs != nil {
			r.outputs[rec.Index] = rec.Current.Outcome + " " + rec.Current.Hash
		}
		if !failing(rec.Current.Outcome) {
			continue
		}
		r.Failing++
		if r.First < 0 || rec.Index < r.First {
			r.First = rec.Index
		}
		if r.Signatures == nil {
			r.Signatures = map[string]int{}
		}
		sig := rec.Current.Signature
		if sig == "" {
			sig = rec.Current.Outcome
		}
		r.Signatures[sig]++
	}
	return nil
}

// topSignatures lists up to n signatures, the most frequent first.
func topSignatures(sigs map[string]int, n int) string {
	type kv struct {
		s string
		c int
	}
	var l []kv
	for s, c := range sigs {
		l = append(l, kv{s, c})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].c > l[j].c || l[i].c == l[j].c && l[i].s < l[j].s })
	var parts []string
	for i, e := range l {
		if i == n {
			parts = append(parts, fmt.Sprintf("+%d more", len(l)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s x%d", e.s, e.c))
	}
	return strings.Join(parts, ", ")
}

// copyTree copies the regular files and links of src into dst, leaving
// out .git (a directory, or a worktree's file).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil // sockets, pipes: not source
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// buildError is the first line of go build's output that is not a
// package header ("# pkg").
func buildError(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return firstLine(out)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
