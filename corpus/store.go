// store.go: the findings store. A finding lives at
// DIR/findings/<signature-hash>/<graph-hash>/, where signature-hash is the
// first 16 hex digits of SHA-256 of the signature and graph-hash the same
// of the graph's Key with the strategy and faults it failed under, so
// findings deduplicate by signature and, within a signature, by graph. Each entry holds:
//
//	graph.cfg      the graph as found (line notation, header comments)
//	min.cfg        the minimized graph (when minimized)
//	verdict.json   the signature, the verdicts, the stats, where it came from
//	module.spv     the module the structurizer made of the graph
//	module.spvasm  its disassembly (oracle.Disassemble: spirv-dis's text)
//	min.spv        the module of the minimized graph
//	min.spvasm     its disassembly
//	answer.json    the structurizer's answer on the graph (an external
//	               structurizer's protocol response: outcome, reason,
//	               stats, module or function)
//	before.svg     a picture of the graph as found (package draw)
//	after.svg      a picture of the structurizer's function of it, read
//	               back from module.spv (when there is a module)
//	min.svg        a picture of the minimized graph
//	*.dot          the Graphviz source of each picture, beside it
//
// DIR/findings/<signature-hash>/signature.txt names the signature,
// reports.txt lists the graph-hash of every graph reported with it, kept or
// not, once each, and count.txt holds their number. Adding a graph again
// (a resumed campaign minimizing the same finding) changes nothing, and an
// entry is written into a temporary directory and renamed into place, so a
// kill at any moment leaves either no entry or a whole one. A signature
// keeps at most Cap entries; the first is the finding, the others examples.
// These three files are read within bounds (MaxSignatureFile,
// MaxReportsFile) and only when they are regular files: a damaged one is
// an error naming it and its limit, a named pipe an error naming it,
// never waited on.

package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/draw"
	"github.com/cfgfuzz/cfgfuzz/internal/bounded"
	"github.com/cfgfuzz/cfgfuzz/internal/tidy"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Limits of the findings store's text files as they are read.
const (
	// MaxSignatureFile bounds a signature's signature.txt and count.txt:
	// 64 KiB, for one signature (a check and a reason cut at
	// oracle.ReasonLimit) or one number.
	MaxSignatureFile = 64 << 10
	// MaxReportsFile bounds a signature's reports.txt: 256 MiB, over ten
	// million graphs' hashes of 17 bytes a line.
	MaxReportsFile = 256 << 20
)

// DefaultCap is the number of entries kept per signature when Store.Cap
// is 0.
const DefaultCap = 5

// Store is a findings store rooted at Dir. Its methods are safe for
// concurrent use within one process.
type Store struct {
	Dir string // root; findings go under Dir/findings
	Cap int    // entries kept per signature; 0 means DefaultCap
	mu  sync.Mutex
}

// Finding is one failure to store.
type Finding struct {
	Signature string
	Graph     *cfg.Graph
	Minimized *cfg.Graph // nil when not minimized
	Verdicts  []oracle.Verdict
	Module    []byte // the graph's module, nil when none was emitted
	MinModule []byte // the minimized graph's module
	Stats     *structurizer.Stats
	// Origin says where it came from: a campaign seed, a file, a fuzzer.
	Origin string
	// Strategy and Inject are the structurizer's options it failed under.
	Strategy string
	Inject   []string
	// Registers is the register file it was judged under; 0 none.
	Registers int
	// TargetEnv and RulesCompat are spirv-val's target environment and
	// the rules check's reading it was judged under (Header's fields).
	TargetEnv, RulesCompat string
	// Judged is the rest of how it was judged that a replay repeats: the
	// walks and their seed, the checks and the limits (Header's fields).
	Judged Judged
	// Structurizer is the spec of the structurizer under test (fuzz.Spec:
	// self, cmd:CMD, ...); "" for this tree's.
	Structurizer string
	// Build and Serve are a repo: Structurizer's build and serve
	// commands given on the command line (Header's fields); "" none.
	Build, Serve string
	// Answer is the structurizer's answer on Graph (Outcome.Answer), nil
	// when it has none to keep.
	Answer []byte
	// Replay is a shell command, run in the entry's directory, that
	// judges graph.cfg again on the same structurizer; "" none.
	Replay string
}

// Verdict is the JSON record written as verdict.json.
type Verdict struct {
	Signature string              `json:"signature"`
	Origin    string              `json:"origin,omitempty"`
	Strategy  string              `json:"strategy,omitempty"`
	Inject    []string            `json:"inject,omitempty"`
	Graph     string              `json:"graph"`
	Minimized string              `json:"minimized,omitempty"`
	Verdicts  []oracle.Verdict    `json:"verdicts,omitempty"`
	Stats     *structurizer.Stats `json:"stats,omitempty"`
	// Structurizer is the spec of the structurizer under test.
	Structurizer string `json:"structurizer,omitempty"`
	// Replay reproduces the finding from the entry's directory.
	Replay string `json:"replay,omitempty"`
}

// Added says what Add did.
type Added struct {
	New     bool   // the signature was not in the store before
	Kept    bool   // an entry was written (false: a duplicate or over the cap)
	Dir     string // the entry's directory (also when it existed already)
	Reports int    // distinct graphs reported with this signature so far, this one included
}

// Hash is the store's short hash of a string: 16 hex digits of SHA-256.
func Hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

func (st *Store) capacity() int {
	if st.Cap <= 0 {
		return DefaultCap
	}
	return st.Cap
}

// SignatureDir is the directory of a signature's entries.
func (st *Store) SignatureDir(sig string) string {
	return filepath.Join(st.Dir, "findings", Hash(sig))
}

// Add records a finding: it counts the graph unless it was reported
// before, and writes an entry unless the graph is already stored or the
// signature has Cap entries.
func (st *Store) Add(f Finding) (Added, error) {
	if f.Signature == "" || f.Graph == nil {
		return Added{}, errors.New("corpus: a finding needs a signature and a graph")
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	sdir := st.SignatureDir(f.Signature)
	entries, err := st.entries(sdir)
	if err != nil {
		return Added{}, err
	}
	h := entryHash(f)
	a := Added{New: len(entries) == 0, Dir: filepath.Join(sdir, h)}
	if a.Reports, err = countReport(sdir, f.Signature, h); err != nil {
		return a, err
	}
	if _, err := os.Stat(a.Dir); err == nil || len(entries) >= st.capacity() {
		return a, nil
	}
	a.Kept = true
	return a, writeEntry(a.Dir, f)
}

// EntryDir is the directory, relative to the store's root, of the entry
// a graph failing with sig under strategy and inject has (or would have).
func EntryDir(sig string, g *cfg.Graph, strategy string, inject []string) string {
	return filepath.Join("findings", Hash(sig), entryHash(Finding{Graph: g, Strategy: strategy, Inject: inject}))
}

// entryHash names an entry: the graph's Key under the options it failed
// with, so one graph failing one way under two faults is two entries. Dead
// blocks are part of the graph: one that fails only with them is another
// entry than its reachable part.
func entryHash(f Finding) string {
	return Hash(Key(normalize(f.Graph, f.Graph, nil)) + "|" + f.Strategy + "|" + strings.Join(f.Inject, ","))
}

// entries lists the entry directories of a signature directory.
func (st *Store) entries(sdir string) ([]string, error) {
	des, err := os.ReadDir(sdir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range des {
		if de.IsDir() && !strings.HasSuffix(de.Name(), ".tmp") {
			out = append(out, filepath.Join(sdir, de.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// countReport creates the signature directory on first use, adds the
// graph's hash to reports.txt unless it is there, and rewrites count.txt
// from reports.txt. It returns the number of distinct graphs reported.
func countReport(sdir, sig, hash string) (int, error) {
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		return 0, err
	}
	sigFile := filepath.Join(sdir, "signature.txt")
	b, err := bounded.ReadFile(sigFile, MaxSignatureFile, "a signature.txt")
	var refused *bounded.Refused
	if errors.As(err, &refused) {
		return 0, err
	}
	if err != nil || string(b) != sig+"\n" {
		// whole or absent: a full disk leaves no empty name a listing would read
		if err := ReplaceFile(sigFile, []byte(sig+"\n")); err != nil {
			return 0, err
		}
	}
	seen, err := reportedGraphs(sdir)
	if err != nil {
		return 0, err
	}
	if !seen[hash] {
		f, err := os.OpenFile(filepath.Join(sdir, "reports.txt"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return 0, err
		}
		_, err = f.WriteString(hash + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, err
		}
		seen[hash] = true
	}
	n := len(seen)
	return n, ReplaceFile(filepath.Join(sdir, "count.txt"), []byte(strconv.Itoa(n)+"\n"))
}

// reportedGraphs reads reports.txt, ignoring a torn last line.
func reportedGraphs(sdir string) (map[string]bool, error) {
	b, err := bounded.ReadFile(filepath.Join(sdir, "reports.txt"), MaxReportsFile, "a reports.txt")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	seen := map[string]bool{}
	lines := strings.Split(string(b), "\n")
	for _, l := range lines[:len(lines)-1] { // the part after the last newline is torn or empty
		if l != "" {
			seen[l] = true
		}
	}
	return seen, nil
}

// ReplaceFile writes path through a temporary file, flushed to disk and
// renamed into place, so a reader, or the next run after a crash or a
// power cut, finds the old file or the new one, never a part of one. The
// temporary file is removed when a step fails (a full disk leaves no
// debris).
func ReplaceFile(path string, data []byte) error {
	return ReplaceFiles([]string{path}, [][]byte{data})
}

// ReplaceFiles replaces several files of one directory as ReplaceFile
// does, each by data of the same index, and writes every temporary file
// before it renames any: a step that fails while they are written (a full
// disk, a quota) leaves all of the old files and no temporary one. The
// renames go in the order of paths, all of them before a process ending
// at once removes the temporary files (package tidy): it finds the old
// files or the new ones. A rename that fails after another succeeded
// leaves the replacement half done: the files not yet renamed are kept
// as their temporary files (PATH.tmp), for a reader that completes the
// replacement (the state's seen.bloom.tmp: fuzz.LoadState), and the
// error is a *HalfReplaced.
func ReplaceFiles(paths []string, data [][]byte) error {
	var tmps []string
	fail := func(err error) error {
		for _, t := range tmps {
			os.Remove(t)
		}
		tidy.Forget(tmps...)
		return err
	}
	for i, path := range paths {
		tmp := path + ".tmp"
		tmps = append(tmps, tmp)
		f, err := tidy.Create(tmp)
		if err != nil {
			return fail(err)
		}
		if err := writeSyncedFile(f, data[i]); err != nil {
			return fail(err)
		}
	}
	renamed := 0
	err := tidy.Commit(tmps, paths, func() error {
		for i, path := range paths {
			if err := rename(tmps[i], path); err != nil {
				return err
			}
			renamed++
		}
		return nil
	})
	if err != nil && renamed > 0 {
		tidy.Forget(tmps...) // kept: the replacement completes through them
		syncDir(filepath.Dir(paths[0]))
		return &HalfReplaced{Renamed: paths[:renamed], Kept: tmps[renamed:], Err: err}
	}
	if err != nil {
		return fail(err)
	}
	if len(paths) > 0 {
		syncDir(filepath.Dir(paths[0]))
	}
	return nil
}

// rename is os.Rename; a test replaces it to fail a rename.
var rename = os.Rename

// syncDir flushes dir's entries (the renames, where the file system
// needs it).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// HalfReplaced is ReplaceFiles's error when a rename failed after others
// succeeded: Renamed are in place, Kept the temporary files of the rest,
// left where they are.
type HalfReplaced struct {
	Renamed, Kept []string
	Err           error
}

func (e *HalfReplaced) Error() string {
	return fmt.Sprintf("half replaced: %s renamed into place, then %v; %s kept", strings.Join(e.Renamed, ", "), e.Err, strings.Join(e.Kept, ", "))
}

func (e *HalfReplaced) Unwrap() error { return e.Err }

// writeSynced writes data into path and flushes it to disk.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	return writeSyncedFile(f, data)
}

// writeSyncedFile writes data into f, flushes it to disk and closes it.
func writeSyncedFile(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeEntry writes one entry's files into dir: into a temporary sibling
// directory first (a leftover from a killed writer is replaced), renamed
// into place when complete.
func writeEntry(dir string, f Finding) error {
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := tidy.Mkdir(tmp); err != nil {
		tidy.Forget(tmp)
		return err
	}
	err := writeEntryFiles(tmp, f)
	if err == nil {
		err = tidy.Commit([]string{tmp}, []string{dir}, func() error { return os.Rename(tmp, dir) })
	}
	if err != nil {
		os.RemoveAll(tmp)
		tidy.Forget(tmp)
	}
	return err
}

// writeEntryFiles writes the files of an entry into dir.
func writeEntryFiles(dir string, f Finding) error {
	v := Verdict{Signature: f.Signature, Origin: f.Origin, Strategy: f.Strategy, Inject: f.Inject,
		Graph: cfg.FormatCompact(f.Graph), Verdicts: f.Verdicts, Stats: f.Stats, Structurizer: f.Structurizer, Replay: f.Replay}
	files := map[string][]byte{"graph.cfg": []byte(graphFile(f, f.Graph))}
	addPicture(files, "before", f.Signature+" (as found)", draw.FromGraph(f.Graph))
	if f.Module != nil {
		addModule(files, "module", f.Module)
		if pic, err := draw.FromModule(f.Module); err == nil {
			addPicture(files, "after", f.Signature+" (the module's control flow)", pic)
		}
	}
	if f.Minimized != nil {
		v.Minimized = cfg.FormatCompact(f.Minimized)
		files["min.cfg"] = []byte(graphFile(f, f.Minimized))
		addPicture(files, "min", f.Signature+" (minimized)", draw.FromGraph(f.Minimized))
	}
	if f.MinModule != nil {
		addModule(files, "min", f.MinModule)
	}
	if f.Answer != nil {
		files["answer.json"] = f.Answer
	}
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	files["verdict.json"] = append(js, '\n')
	for name, data := range files { // flushed before the directory is renamed into place
		if err := writeSynced(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	return nil
}

// addPicture adds NAME.svg and NAME.dot.
func addPicture(files map[string][]byte, name, title string, pic *draw.Picture) {
	files[name+".svg"] = []byte(pic.SVG(draw.Options{Title: title}))
	files[name+".dot"] = []byte(pic.DOT(name))
}

// addModule adds NAME.spv and, when it decodes, its disassembly
// NAME.spvasm (oracle.Disassemble: spirv-dis's text).
func addModule(files map[string][]byte, name string, module []byte) {
	files[name+".spv"] = module
	if text, err := oracle.Disassemble(module); err == nil {
		files[name+".spvasm"] = []byte(text)
	}
}

// graphFile is a graph in line notation under header comments.
func graphFile(f Finding, g *cfg.Graph) string {
	h := Header{Signature: f.Signature, Origin: f.Origin, Strategy: f.Strategy, Fault: strings.Join(f.Inject, ","), Registers: f.Registers, TargetEnv: f.TargetEnv, RulesCompat: f.RulesCompat, Structurizer: f.Structurizer,
		Build: f.Build, Serve: f.Serve, Walks: f.Judged.Walks, Checks: f.Judged.Checks, Timeout: f.Judged.Timeout, CheckTimeout: f.Judged.CheckTimeout, GrowthTime: f.Judged.GrowthTime}
	return h.Format() + "# compact: " + cfg.FormatCompact(g) + "\n" + cfg.FormatLines(g)
}

// StoredSignature is one signature of the store with its figures.
type StoredSignature struct {
	Signature string
	Dir       string
	Entries   []string // entry directories, sorted
	Reports   int
}

// List returns every signature in the store, sorted by signature.
func (st *Store) List() ([]StoredSignature, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	root := filepath.Join(st.Dir, "findings")
	des, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []StoredSignature
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		sdir := filepath.Join(root, de.Name())
		sig, err := bounded.ReadFile(filepath.Join(sdir, "signature.txt"), MaxSignatureFile, "a signature.txt")
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", sdir, err)
		}
		n := 0
		b, err := bounded.ReadFile(filepath.Join(sdir, "count.txt"), MaxSignatureFile, "a count.txt")
		var refused *bounded.Refused
		if errors.As(err, &refused) {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		if err == nil {
			n, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		ents, err := st.entries(sdir)
		if err != nil {
			return nil, err
		}
		out = append(out, StoredSignature{Signature: strings.TrimSpace(string(sig)), Dir: sdir, Entries: ents, Reports: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Signature < out[j].Signature })
	return out, nil
}
