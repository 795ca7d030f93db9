// regress.go: the regression suite's files. A regression is one graph in
// corpus/testdata/regressions/NAME.cfg (compact or line notation) under
// header comments, one "# key: value" a line:
//
//	# signature: exec:trace-mismatch   (the failure it guards against, or "none"; absent: "none"
//	                                    in a file that says '# expect: pass' and has no '# fault:')
//	# fault: swap-arms                 (the fault it was found under, if any)
//	# strategy: dispatch               (the strategy, "" for the default)
//	# registers: 64                    (the register file it was judged under, if any: emit/CONVENTION.md)
//	# target-env: vulkan1.3            (spirv-val's target environment, when not the default vulkan1.1)
//	# rules-compat: spirv-tools-2023.1 (the rules check's reading, when not the specification's)
//	# walks: 16 seed 7                 (the exec check's random walks and their seed, when not 16 and 1)
//	# checks: -fallback                (the checks, when not the defaults: changes of them where
//	                                    shorter, -fallback for --allow-fallbacks)
//	# timeout: 30s                     (the per-graph limit on the structurizer, when not 10s)
//	# check-timeout: 5m0s              (the limit on one graph's checks, when not 2m0s)
//	# growth-time: 30s                 (the growth check's time limit, when not 1s: growth:time past
//	                                    it and 1ms a block)
//	# structurizer: cmd:{repo}/adapter (the structurizer it was found on, fuzz.Spec; "" this tree's;
//	                                    {repo} and {dir}: where the file lies, cmd/cfgfuzz/portable.go)
//	# build: make server               (a repo: structurizer's build command, when the command line gave
//	                                    it (--build) rather than the repository's .cfgfuzz.json)
//	# serve: {out}/server              (its serve command, likewise (--serve))
//	# expect: pass                     (what replaying it must give: pass, or fail with the signature)
//	# origin: cfgfuzz minimize, seed 7 (where it came from)
//	# date: 2026-11-29
//
// A regression file's '# checks:' of changes ("-fallback") changes the
// defaults of the cfgfuzz that reads it (regress's: every check whose
// tool is present), as a file without the line is judged under them: the
// suite gains the checks a later cfgfuzz brings. A finding's own files
// (a campaign's store, minimize's result) name the checks that judged
// the graph instead (PinChecks), which a later cfgfuzz reads as the same
// checks.
//
// Each key is given once; other comment lines are notes, but for a key a
// letter or two from a header key (checkHeaderKey). The graph is written in line notation,
// which keeps block weights. `go test ./corpus` replays every file of
// corpus/testdata/regressions through every oracle check with no fault
// planted (all must pass) and, for a file with a fault, with that fault
// planted (it must fail with the file's signature); `cfgfuzz regress DIR
// --structurizer SPEC` replays any directory of them (replay.go).

package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agnivade/levenshtein"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/internal/bounded"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// SignatureNone is the signature of a regression that guards a shape
// rather than a failure seen here (a graph quoted from the field).
const SignatureNone = "none"

// Header is a regression file's header.
type Header struct {
	Signature string
	Fault     string // comma-separated fault names; "" none
	Strategy  string
	// Registers is the register file the graph was judged under
	// (structurizer and oracle alike); 0 none.
	Registers int
	// TargetEnv is spirv-val's target environment it was judged under;
	// "" the default (oracle.DefaultTargetEnv).
	TargetEnv string
	// RulesCompat is the rules check's reading it was judged under
	// (oracle.Options.RulesCompat); "" the specification's.
	RulesCompat string
	// Walks is the exec check's random walks it was judged under (a
	// campaign's --walks and --seed, which also seeds meta's renumbering);
	// nil DefaultWalks.
	Walks *Walks
	// Checks is the oracle checks it was judged under, as a --checks
	// value: names, or changes of the defaults ("-fallback", which
	// --allow-fallbacks is); "" the defaults.
	Checks string
	// Timeout is the per-graph limit on the structurizer it was judged
	// under (--timeout); 0 the default.
	Timeout time.Duration
	// CheckTimeout is the limit on one graph's checks it was judged
	// under (--check-timeout); 0 the default.
	CheckTimeout time.Duration
	// GrowthTime is the fixed part of the growth check's time limit it
	// was judged under (--growth-time); 0 the default.
	GrowthTime time.Duration
	// Structurizer is the spec of the structurizer it was found on
	// (fuzz.Spec); "" this tree's.
	Structurizer string
	// Build and Serve are the build and serve commands of a repo:
	// Structurizer that the command line gave (--build, --serve); ""
	// each where the repository's .cfgfuzz.json gives it.
	Build, Serve string
	// Expect is what a replay must give: ExpectPass ("" too) or
	// ExpectFail (fail with Signature).
	Expect string
	Origin string
	Date   string
	Notes  []string
}

// Walks is how many random walks the exec check draws on top of the
// edge-covering ones, and their seed: a failure only a random walk shows
// is judged again only under the same.
type Walks struct {
	Random int
	Seed   uint64
}

// DefaultWalks is what check, minimize and regress judge under unless
// told otherwise (their --walks and --seed).
var DefaultWalks = Walks{Random: 16, Seed: 1}

// String is the header's form: "16 seed 1".
func (w Walks) String() string { return fmt.Sprintf("%d seed %d", w.Random, w.Seed) }

// JudgedWalks is the walks to judge the graph under: the header's, or
// DefaultWalks.
func (h Header) JudgedWalks() Walks {
	if h.Walks == nil {
		return DefaultWalks
	}
	return *h.Walks
}

// WalksOf is the Walks a header records for random walks and seed: nil
// for DefaultWalks, which it leaves unsaid.
func WalksOf(random int, seed uint64) *Walks {
	if w := (Walks{random, seed}); w != DefaultWalks {
		return &w
	}
	return nil
}

// What a regression's replay must give.
const (
	ExpectPass = "pass" // the structurizer passes every check on the graph (the bug is fixed)
	ExpectFail = "fail" // it still fails with the file's signature (a known bug, or the oracle's own guard)
)

var headerKey = regexp.MustCompile(`^#\s*([A-Za-z_-]+)(\s*):\s*(.*)$`)

// Format writes the header as comment lines.
func (h Header) Format() string {
	var sb strings.Builder
	kv := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&sb, "# %s: %s\n", k, headerLine.Replace(v))
		}
	}
	kv("signature", h.Signature)
	kv("fault", h.Fault)
	kv("strategy", h.Strategy)
	if h.Registers > 0 {
		kv("registers", strconv.Itoa(h.Registers))
	}
	if h.TargetEnv != oracle.DefaultTargetEnv {
		kv("target-env", h.TargetEnv)
	}
	kv("rules-compat", h.RulesCompat)
	if h.Walks != nil && *h.Walks != DefaultWalks {
		kv("walks", h.Walks.String())
	}
	kv("checks", h.Checks)
	if h.Timeout > 0 {
		kv("timeout", h.Timeout.String())
	}
	if h.CheckTimeout > 0 {
		kv("check-timeout", h.CheckTimeout.String())
	}
	if h.GrowthTime > 0 {
		kv("growth-time", h.GrowthTime.String())
	}
	kv("structurizer", h.Structurizer)
	kv("build", h.Build)
	kv("serve", h.Serve)
	kv("expect", h.Expect)
	kv("origin", h.Origin)
	kv("date", h.Date)
	for _, n := range h.Notes {
		sb.WriteString("# " + headerLine.Replace(n) + "\n")
	}
	return sb.String()
}

// headerLine keeps a header value on its comment line: a spec or a file
// name holding a line break would otherwise start a line of its own, a
// header field or a block of the graph.
var headerLine = strings.NewReplacer("\r", `\r`, "\n", `\n`)

// Env is the target environment to judge the graph under: the header's,
// or the default.
func (h Header) Env() string {
	if h.TargetEnv == "" {
		return oracle.DefaultTargetEnv
	}
	return h.TargetEnv
}

// Faults lists the header's faults.
func (h Header) Faults() []string {
	var out []string
	for _, f := range strings.Split(h.Fault, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// ParseHeader reads the header of the graph file text data (its leading
// comment lines, as ParseRegression does), whatever the graphs after it:
// the error names the file and line of a header value that does not
// parse.
func ParseHeader(path string, data []byte) (Header, error) {
	h, _, err := parseHeader(path, string(data))
	return h, err
}

// parseHeader reads the leading comment lines of the file at path; the
// error names the file and line of a header value that does not parse.
func parseHeader(path, data string) (h Header, compacts []compactLine, err error) {
	seen := map[string]int{} // a header key: the line it was first on
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "#") {
			break
		}
		m := headerKey.FindStringSubmatch(line)
		if m == nil {
			h.Notes = append(h.Notes, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		}
		key := m[1]
		if err := checkHeaderKey(key, m[2] != "", seen, i+1); err != nil {
			return h, nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if err := h.set(key, strings.TrimSpace(m[3])); err != nil {
			return h, nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if strings.ToLower(strings.ReplaceAll(key, "_", "-")) == "compact" {
			compacts = append(compacts, compactLine{line: i + 1, text: strings.TrimSpace(m[3])})
		}
	}
	return h, compacts, nil
}

// compactLine is a '# compact:' header line, the file's graph in compact
// notation that regressionText writes for its reader (a note, as any key
// no header has), and its line.
type compactLine struct {
	line int
	text string
}

// check says how the line is not graph g, the file's, in compact notation
// (nil when it is): a line that is no graph, or another graph than the
// file's, is an error naming the file and the line, as a reader of the
// line would take it for the graph the file replays, and which of the two
// the file means would be a guess.
func (c compactLine) check(path string, g *cfg.Graph) error {
	says, err := cfg.ParseCompact(c.text, cfg.Limits{})
	if err != nil {
		return fmt.Errorf("%s:%d: '# compact: %s' is no graph in compact notation: %v", path, c.line, clipText(c.text), err)
	}
	if got, want := cfg.FormatCompact(says), cfg.FormatCompact(g); got != want {
		return fmt.Errorf("%s:%d: '# compact: %s' is not the file's graph, %s: correct the line or delete it", path, c.line, clipText(c.text), clipText(want))
	}
	return nil
}

// clipText shortens a graph's text for a message.
func clipText(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// headerKeys are the keys set reads into a field.
var headerKeys = []string{"signature", "fault", "strategy", "registers", "target-env", "walks", "rules-compat",
	"checks", "timeout", "check-timeout", "growth-time", "structurizer", "build", "serve", "expect", "origin", "date"}

// checkHeaderKey refuses a header key given a second time (the file says
// two things; which one a replay takes would be a guess), a header key
// written otherwise (# Structurizer:, # target_env:, a space before the
// colon) and a key a letter or two from one (# structuriser:, # expected:):
// such a line would otherwise be a note, ignored, and a case replayed on
// another structurizer, or expecting what its author did not write, would
// guard nothing. Keys of four letters or fewer are too near too many words
// to be read as misspelt (# data: is a note).
func checkHeaderKey(key string, spaced bool, seen map[string]int, line int) error {
	norm := strings.ToLower(strings.ReplaceAll(key, "_", "-"))
	if (norm != key || spaced) && slices.Contains(headerKeys, norm) {
		return fmt.Errorf("'# %s%s:' is written '# %s:'", key, map[bool]string{true: " "}[spaced], norm)
	}
	if slices.Contains(headerKeys, key) {
		if first, ok := seen[key]; ok {
			return fmt.Errorf("'# %s:' given twice (first on line %d): keep one", key, first)
		}
		seen[key] = line
		return nil
	}
	for _, k := range headerKeys {
		d := levenshtein.ComputeDistance(norm, k)
		near := d == 1 && len(k) >= 5 || d == 2 && len(k) >= 8 || strings.HasPrefix(norm, k) && len(norm) <= len(k)+2
		if near {
			return fmt.Errorf("'# %s:' is no header key: did you mean '# %s:'? (a note takes a key no header has)", key, k)
		}
	}
	return nil
}

// set reads one header line's value into its field; a key it does not
// know is a note.
func (h *Header) set(key, v string) (err error) {
	switch key {
	case "signature":
		h.Signature = v
	case "fault":
		h.Fault = v
	case "strategy":
		h.Strategy = v
	case "registers":
		if h.Registers, err = strconv.Atoi(v); err != nil || h.Registers < 0 || h.Registers > emit.MaxRegisters {
			return fmt.Errorf("'# registers: %s': want a count of values, 0..%d", v, emit.MaxRegisters)
		}
	case "target-env":
		return h.setTargetEnv(v)
	case "walks":
		var w Walks
		if n, err := fmt.Sscanf(v, "%d seed %d", &w.Random, &w.Seed); err != nil || n != 2 || w.Random < 0 || w.Random > oracle.MaxRandomWalks || w.String() != v {
			return fmt.Errorf("'# walks: %s': want COUNT seed SEED (0 to %d random walks on top of the edge-covering ones, and their seed)", v, oracle.MaxRandomWalks)
		}
		h.Walks = &w
	case "rules-compat":
		if v != "" && v != oracle.CompatSPIRVTools2023 {
			return fmt.Errorf("'# rules-compat: %s': want %s, or no line for the specification's reading", v, oracle.CompatSPIRVTools2023)
		}
		h.RulesCompat = v
	case "checks":
		return h.setChecks(v)
	case "timeout", "check-timeout", "growth-time":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("'# %s: %s': want a positive duration (30s, 2m0s)", key, v)
		}
		switch key {
		case "timeout":
			h.Timeout = d
		case "check-timeout":
			h.CheckTimeout = d
		default:
			h.GrowthTime = d
		}
	case "structurizer":
		h.Structurizer = v
	case "build":
		h.Build = v
	case "serve":
		h.Serve = v
	case "expect":
		if v != "" && v != ExpectPass && v != ExpectFail {
			return fmt.Errorf("'# expect: %s': want %s or %s", v, ExpectPass, ExpectFail)
		}
		h.Expect = v
	case "origin":
		h.Origin = v
	case "date":
		h.Date = v
	default:
		h.Notes = append(h.Notes, key+": "+v)
	}
	return nil
}

// setChecks reads '# checks:': a --checks value, check names each
// optionally prefixed + or -, comma-separated, spaces around a name
// ignored as --checks ignores them (oracle.ResolveChecks); a + or a -
// without its name is refused as --checks refuses it
// (oracle.CheckNameMissing). Whether the oracle knows the names is asked
// when the file is judged, as for --checks.
func (h *Header) setChecks(v string) error {
	if why := oracle.CheckNameMissing(v); why != "" {
		return fmt.Errorf("'# checks: %s': %s", v, why)
	}
	for _, c := range strings.Split(v, ",") {
		name := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(c), "+-"))
		if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
			return fmt.Errorf("'# checks: %s': want check names, each optionally prefixed + or -, comma-separated (as --checks takes them)", v)
		}
	}
	h.Checks = v
	return nil
}

// ChecksChangeDefaults says whether the header's checks are changes of
// a command's default checks (each name prefixed + or -, or none at all)
// rather than a list of the checks to run.
func (h Header) ChecksChangeDefaults() bool {
	for _, c := range strings.Split(h.Checks, ",") {
		if c = strings.TrimSpace(c); c != "" && c[0] != '+' && c[0] != '-' {
			return false
		}
	}
	return true
}

// setTargetEnv reads '# target-env:': a name. Whether the validator in
// use knows it is asked when the file is judged (corpus.NewRunner refuses
// an environment it does not know), not here: a file saved under a newer
// SPIRV-Tools still reads, and --target-env judges it under another.
func (h *Header) setTargetEnv(v string) error {
	switch {
	case v == "":
		return fmt.Errorf("'# target-env:' names no target environment")
	case strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "":
		return fmt.Errorf("'# target-env: %s': not a target environment's name (letters, digits, '.', '_', '-')", v)
	}
	h.TargetEnv = v
	return nil
}

// Regression is one file of the suite.
type Regression struct {
	Name   string // the file name without .cfg
	Path   string
	Header Header
	Graph  *cfg.Graph
}

// ReadRegression parses one regression file; it must hold exactly one
// graph and a signature.
func ReadRegression(path string) (*Regression, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() { // a FIFO would block the suite, a device never end
		return nil, fmt.Errorf("%s: not a regular file but %s", path, FileKind(st.Mode()))
	}
	if st.Size() > cfg.MaxInputBytes {
		return nil, fmt.Errorf("%s: %d MiB: no regression file is that large", path, st.Size()>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseRegression(path, data)
}

// FileKind names what a file that is not regular is: a named pipe, a
// device, a socket, a directory or a special file (bounded.FileKind).
func FileKind(m fs.FileMode) string { return bounded.FileKind(m) }

// ParseRegression parses a regression file's text; path names it (and
// the regression) in the errors.
func ParseRegression(path string, data []byte) (*Regression, error) {
	items, err := cfg.Parse(path, data, cfg.Limits{})
	if err != nil {
		return nil, err
	}
	if len(items) != 1 {
		return nil, fmt.Errorf("%s: holds %d graphs, want 1", path, len(items))
	}
	h, compacts, err := parseHeader(path, string(data))
	if err != nil {
		return nil, err
	}
	for _, c := range compacts {
		if err := c.check(path, items[0].Graph); err != nil {
			return nil, err
		}
	}
	r := &Regression{Name: strings.TrimSuffix(filepath.Base(path), ".cfg"), Path: path, Header: h, Graph: items[0].Graph}
	switch {
	case r.Header.Signature != "":
	case r.Header.Expect == ExpectPass && r.Header.Fault == "":
		r.Header.Signature = SignatureNone // a graph that must pass guards no failure of its own
	case r.Header.Fault != "":
		return nil, fmt.Errorf("%s: no '# signature:' header: a file with '# fault:' names the failure the fault gives, '# signature: SIGNATURE' as check prints it after FAIL", path)
	default:
		return nil, fmt.Errorf("%s: no '# signature:' header: write '# signature: SIGNATURE' (the failure it guards against, as check prints it after FAIL), or '# expect: pass' (or '# signature: none') for a graph that must pass", path)
	}
	return r, nil
}

// LoadRegressions reads every *.cfg of dir, sorted by name; the first file
// that does not read is the error.
func LoadRegressions(dir string) ([]*Regression, error) {
	rs, bad, err := LoadRegressionsEach(dir)
	if err == nil && len(bad) > 0 {
		err = bad[0].Err
	}
	return rs, err
}

// BadRegression is a regression file that does not read, and why.
type BadRegression struct {
	Path string
	Err  error
}

// LoadRegressionsEach reads every *.cfg of dir (not of its
// subdirectories), sorted by name, or dir itself when it is a file: the
// files that read and, apart, those that do not, so one broken file does
// not keep the others from running. err is a directory that cannot be
// read (or neither a directory nor a file).
func LoadRegressionsEach(dir string) (rs []*Regression, bad []BadRegression, err error) {
	var paths []string
	if st, err := os.Stat(dir); err != nil {
		return nil, nil, err
	} else if st.Mode().IsRegular() { // one regression file: a suite of one
		paths = []string{dir}
	} else if !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a directory or a regression file", dir)
	} else if paths, err = filepath.Glob(filepath.Join(dir, "*.cfg")); err != nil {
		return nil, nil, err
	}
	sort.Strings(paths)
	for _, p := range paths {
		r, err := ReadRegression(p)
		if err != nil {
			bad = append(bad, BadRegression{Path: p, Err: err})
			continue
		}
		rs = append(rs, r)
	}
	return rs, bad, nil
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// RegressionPath is where WriteRegression writes a regression NAME into
// dir, or why it cannot: a name of other characters than letters,
// digits, '_', '.' and '-', or one a file in dir already has (a check a
// search can make before it runs; WriteRegression makes it again).
func RegressionPath(dir, name string) (string, error) {
	name = strings.TrimSuffix(name, ".cfg")
	if !validName.MatchString(name) {
		return "", fmt.Errorf("regression name %q: use letters, digits, '_', '.', '-', starting with a letter or digit", name)
	}
	path := filepath.Join(dir, name+".cfg")
	if _, err := os.Lstat(path); err == nil {
		return "", fmt.Errorf("%s: %w", path, fs.ErrExist)
	}
	return path, nil
}

// WriteRegression writes dir/NAME.cfg: the header, the compact notation as
// a comment and the graph in line notation. It refuses to overwrite a file
// and names that are not plain file names.
func WriteRegression(dir, name string, h Header, g *cfg.Graph) (string, error) {
	path, err := RegressionPath(dir, name)
	if err != nil {
		return "", err
	}
	name = strings.TrimSuffix(name, ".cfg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// The text goes into a temporary file (no *.cfg: LoadRegressions skips
	// it), flushed, then linked to its name, which fails when a file took
	// the name meanwhile: a write that fails (a full disk) leaves no part
	// of a regression where `cfgfuzz regress` would read it.
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, err = f.WriteString(regressionText(h, g))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err != nil {
		return "", err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", err
		}
		// a file system without hard links: the name was free above
		if err := os.Rename(tmp, path); err != nil {
			return "", err
		}
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return path, nil
}

// regressionText is a regression file's text: the header, the compact
// notation as a comment and the graph in line notation.
func regressionText(h Header, g *cfg.Graph) string {
	return h.Format() + "# compact: " + cfg.FormatCompact(g) + "\n" + cfg.FormatLines(g)
}

// PassingChecks splits the checks that can run here (AllChecks) into
// those the structurizer under sopt passes on every graph and those it
// fails on some graph. A fault hunt measures a planted fault with the
// first set, so a check the clean tree already fails (a known bug of an
// unfinished strategy) does not mask the fault's findings.
func PassingChecks(sopt structurizer.Options, graphs []*cfg.Graph) (pass, fail []string, err error) {
	for _, c := range AllChecks(oracle.Options{}) {
		r, err := NewRunner(RunnerOptions{Structurizer: sopt, Checks: []string{c}})
		if err != nil {
			return nil, nil, err
		}
		ok := true
		for _, g := range graphs {
			if o := r.Run(g); o.Failed() {
				ok = false
				break
			}
		}
		if ok {
			pass = append(pass, c)
		} else {
			fail = append(fail, c)
		}
	}
	return pass, fail, nil
}
