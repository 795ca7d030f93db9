// state.go defines the state directory that a nightly campaign keeps from
// one night to the next (--state DIR; STATE.md documents its layout): the
// findings store by signature (findings.json), the filter of graphs
// already checked (seen.bloom, bloom.go) and the user's triage file
// (triage.txt, triage.go). A campaign reads it once, at the start, and
// never writes it while it runs: it writes the night's updated state into
// its own output directory (OUT/state), which an unsharded run then
// commits into the state directory and which `cfgfuzz merge` unions over
// the shards of a night (NextState is a pure function of the state read,
// the merged report and the re-runs, so the merged state does not depend
// on the shards or the order they come in).

package fuzz

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Files of a state directory, and the output directory's copy of the
// night's updated state.
const (
	StateFindingsFile = "findings.json"
	StateSeenFile     = "seen.bloom"
	StateTriageFile   = "triage.txt"
	StateUpdateDir    = "state"
	StateSchema       = "cfgfuzz-state/v1"
	// KeepGraphs is how many graphs per signature the store keeps (and a
	// night re-runs).
	KeepGraphs = 3
)

// StoredSignature is one signature (on one strategy) the state remembers.
type StoredSignature struct {
	Signature string `json:"signature"`
	// Strategy is the strategy its graphs ran when not the campaign's
	// default ("" as in Finding.Strategy).
	Strategy string `json:"strategy,omitempty"`
	Outcome  string `json:"outcome"`
	// FirstSeen and LastSeen are the nights (YYYY-MM-DD, Settings.Night)
	// it showed on; FirstRevision and Revision the current side's spec on
	// those nights (a revision resolved to its commit).
	FirstSeen     string `json:"first_seen"`
	LastSeen      string `json:"last_seen"`
	FirstRevision string `json:"first_revision"`
	Revision      string `json:"revision"`
	// Fixed is the first night its graphs were re-run and none showed
	// it; "" while it shows.
	Fixed string `json:"fixed,omitempty"`
	// Regressed says it showed again after a night classed it fixed: on
	// which night, and the night it had been fixed since. A later night
	// it shows on clears it; a run of that same night again reads it
	// (showingClass).
	Regressed *Regressed `json:"regressed,omitempty"`
	// Minimized, MinimizedWeights and MinimizeStopped are the minimized
	// graph and the limit that cut its search, as in Finding.
	Minimized        string `json:"minimized,omitempty"`
	MinimizedWeights []int  `json:"minimized_weights,omitempty"`
	MinimizeStopped  string `json:"minimize_stopped,omitempty"`
	// Graphs are up to KeepGraphs graphs that showed it, oldest first.
	Graphs []KeptGraph `json:"graphs"`
}

// regressedOn is what a store entry showing on night records of a
// regression: a fixed entry regressed tonight; one that regressed on an
// earlier run of this night keeps that; any other none.
func regressedOn(e StoredSignature, night string) *Regressed {
	switch {
	case e.Fixed != "":
		return &Regressed{Night: night, FixedSince: e.Fixed}
	case e.Regressed != nil && e.Regressed.Night == night:
		return e.Regressed
	}
	return nil
}

// Regressed is the night a fixed signature showed again on, and the
// night it had been fixed since (StoredSignature.Regressed).
type Regressed struct {
	Night      string `json:"night"`
	FixedSince string `json:"fixed_since"`
}

// KeptGraph is a graph kept to be re-run: its compact notation and
// weights, and where it came from (for the replay command).
type KeptGraph struct {
	Graph   string `json:"graph"`
	Weights []int  `json:"weights,omitempty"`
	Stream  Stream `json:"stream"`
	Seed    uint64 `json:"seed"`
}

// storeFile is findings.json.
type storeFile struct {
	Schema string `json:"schema"`
	// FormatMinor is the revision of the schema's format the store was
	// written in (StateFormatMinor; 0 in a store written before the
	// format had revisions), stateformat.go.
	FormatMinor int `json:"format_minor,omitempty"`
	// Night is the last night that wrote the store, Current that night's
	// current side (Settings.Current): what a night on another
	// structurizer, or an earlier night, is refused by (CheckNight).
	Night   string `json:"night,omitempty"`
	Current string `json:"current,omitempty"`
	// Build is the build of that night's structurizer (nightBuild):
	// what the next night's report compares its own with.
	Build      string            `json:"build,omitempty"`
	Signatures []StoredSignature `json:"signatures"`
	LastGood   *GoodNight        `json:"last_good,omitempty"`
	// ExhaustiveNext is where the next night's exhaustive walk starts
	// (at most MaxExhaustiveNext).
	ExhaustiveNext *uint64 `json:"exhaustive_next,omitempty"`
	// SeenSHA256 is the SHA-256 (hex) of the seen.bloom written with the
	// store: a commit renames the store in first, so a state whose
	// seen.bloom does not match is one a kill cut between the renames
	// (readSeen). "" in a store written without it, whose seen.bloom is
	// read as it is.
	SeenSHA256 string `json:"seen_sha256,omitempty"`
	// ignored are the keys of a store of a newer format revision that
	// this cfgfuzz does not know and reads past (newerKeys).
	ignored []string
}

// MaxExhaustiveNext bounds a state's exhaustive_next: 2^63. A night walks
// the growing order from it by the graph numbers of its exhaustive
// stream, each below 2^63, so no position it gives wraps past 2^64; a
// real walk stays far below (a million graphs a night for a million
// years is under 2^49). A night that ends past it (one seeded near the
// top of the 64-bit range, without a stored position) records its
// position modulo the order's length instead (exhaustiveNext), where the
// walk's graphs repeat.
const MaxExhaustiveNext uint64 = 1 << 63

// GoodNight is the last night whose campaign covered its whole budget and
// showed no new signature, on a current side that was a committed
// revision: what `compare --baseline last-good` compares against.
type GoodNight struct {
	Night    string `json:"night"`
	Revision string `json:"revision"` // the commit (of cfgfuzz, or of Repo)
	// Repo is the repository of a repo:DIR@REV current side; "" for a
	// revision of cfgfuzz.
	Repo string `json:"repo,omitempty"`
	// Known are the signatures that night classed known (good means
	// nothing new): its revision has those failures, so a comparison
	// against it cannot show them as new (KnownNote). Absent when it had
	// none, and in a store written without them.
	Known []KnownSignature `json:"known,omitempty"`
}

// KnownSignature is a signature on a strategy ("" the campaign's), as a
// good night classed it known.
type KnownSignature struct {
	Signature string `json:"signature"`
	Strategy  string `json:"strategy,omitempty"`
}

// String is the signature as the summary prints it, with its strategy.
func (k KnownSignature) String() string {
	if k.Strategy == "" {
		return k.Signature
	}
	return k.Signature + " (strategy " + k.Strategy + ")"
}

// knownNamed is how many known signatures KnownNote names.
const knownNamed = 3

// KnownNote says that the good night g, a comparison's baseline, had
// known signatures, which the comparison cannot show as new: "" when it
// had none.
func (g GoodNight) KnownNote() string {
	if len(g.Known) == 0 {
		return ""
	}
	var names []string
	for _, k := range g.Known[:min(len(g.Known), knownNamed)] {
		names = append(names, PrintableLine(k.String()))
	}
	list := strings.Join(names, ", ")
	if more := len(g.Known) - len(names); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("the baseline is the revision of the last good night, %s, which had %s (%s): a good night is one with nothing new, so that revision fails with them, and this comparison cannot show them as new",
		g.Night, Plural(len(g.Known), "known signature"), list)
}

// Spec is the good night's revision as a structurizer spec.
func (g GoodNight) Spec() string {
	if g.Repo != "" {
		return Spec{Kind: SpecRepo, Repo: g.Repo, Rev: g.Revision}.String()
	}
	return Spec{Kind: SpecRev, Rev: g.Revision}.String()
}

// State is a state directory as read at the start of a night.
type State struct {
	Dir    string
	Store  []StoredSignature // sorted by signature, then strategy
	Triage map[string]TriageEntry
	Seen   *Bloom
	// SeenRestarted is the number of graphs seen.bloom held (Bloom.Count)
	// when it was past BloomRestartAt and so started afresh (Seen is then
	// empty); 0 when it was kept.
	SeenRestarted uint64
	// SeenMissing is set when findings.json names the filter written with
	// it (seen_sha256) but there was no seen.bloom (nor a seen.bloom.tmp
	// that is it): the filter was deleted, so Seen is a new, empty one.
	SeenMissing bool
	// LastGood is the last good night recorded (nil: none yet).
	LastGood *GoodNight
	// ExhaustiveNext is the position of the growing order where the last
	// night's exhaustive walk stopped (nil: no night walked it yet).
	ExhaustiveNext *uint64
	// Night and Current are the last night that wrote the store and its
	// current side ("" when the store does not record them: a first
	// night, or a store written without them), and Build the build of
	// its structurizer ("" where the store records none).
	Night, Current, Build string
	// Digest hashes the two files a night writes, findings.json and
	// seen.bloom, as read (Settings.StateDigest): the shards of a night
	// must have read the same, and a night resumes only on what it read.
	// The triage file is left out: a night reads it where it classes its
	// signatures (a run's end, the merge), so an edit while a night runs
	// or waits for its merge or resume applies to that night.
	Digest string
	// written is Digest as CommitState compares it with the directory's.
	written string
	// Newer, when not "", says findings.json was written by a newer
	// cfgfuzz, in a later revision of its format, whose keys this one
	// reads past and the night's update leaves out (newerNote): a note
	// for the user, not an error.
	Newer string
	// Empty says the directory held no findings.json: no night had
	// committed to it (a first night, a cache that did not restore it, a
	// mistyped --state), so every signature is new but those the triage
	// file names; Absent says the directory did not exist at all.
	Empty, Absent bool
	// rolled is set when seen.bloom did not match findings.json and
	// seen.bloom.tmp, which did, was read instead (readSeen):
	// CheckWritable renames it into place.
	rolled bool
}

// LoadState reads a state directory; missing files (a first night) are
// empty, and so is a directory that does not exist (State.Absent), which
// it does not create: a shard only reads its state, and a night that
// commits there creates it (CheckWritable, MarkNight). A commit cut short between its renames
// (findings.json new, seen.bloom old) is read as completed, through
// seen.bloom.tmp (readSeen), and never written: CheckWritable completes
// it on disk. A directory holding a campaign's
// output files (campaignOutput) is refused, naming them: the night would
// write its store among them. A lock there that readLock refuses (a
// named pipe) is an error naming it, before any night runs: the night's
// commit could not take it. The files are read without the lock: a
// seen.bloom that does not go with findings.json is read again, with
// findings.json, once (a commit may have landed between the two reads),
// and is an error only when it still does not.
func LoadState(dir string) (*State, error) {
	if names := campaignOutput(dir); len(names) > 0 {
		return nil, fmt.Errorf("%s holds a campaign's output (%s), not a state: a state is a directory of its own, apart from every campaign's --out (fuzz/STATE.md); give another --state", dir, strings.Join(names, ", "))
	}
	absent := false
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		absent = true
	} else if err != nil {
		return nil, err
	}
	if _, _, _, bad := readLock(filepath.Join(dir, LockFile)); bad != nil {
		return nil, foreignLock(dir, bad)
	}
	st, err := readState(dir)
	if errors.Is(err, errSeenMismatch) {
		st, err = readState(dir)
	}
	if st != nil {
		st.Absent = absent
	}
	return st, err
}

// EmptyNote says that the state directory held no findings yet
// (State.Empty; absent: it did not exist), so that every signature is new
// tonight: a first night, or a cache that did not restore the state. The
// night runs as any first night does; the note is what tells a CI log
// that this was not meant. dir names the directory in the note said when
// it is read, in the present; "" gives the report's words, in the past.
func EmptyNote(dir string, absent bool) string {
	const why = "a first night, or a cache that did not restore it"
	const whyAbsent = "a first night, a cache that did not restore it, or a mistyped --state"
	switch {
	case absent && dir != "":
		return fmt.Sprintf("the state %s does not exist (%s): it holds no findings yet, so every signature is new tonight", dir, whyAbsent)
	case absent:
		return fmt.Sprintf("the state did not exist (%s): it held no findings yet, so every signature is new tonight", whyAbsent)
	case dir != "":
		return fmt.Sprintf("the state %s holds no findings yet (no %s: %s): every signature is new tonight, but those %s names known or ignored", dir, StateFindingsFile, why, StateTriageFile)
	}
	return fmt.Sprintf("the state held no findings yet (no %s: %s): every signature is new tonight, but those %s names known or ignored", StateFindingsFile, why, StateTriageFile)
}

// betweenStateReads, when set, runs between readState's reading of
// findings.json and of seen.bloom: a test's commit landing there.
var betweenStateReads func()

// readState reads the state directory dir's files (LoadState).
func readState(dir string) (*State, error) {
	st := &State{Dir: dir}
	store, err := readFileWithin(filepath.Join(dir, StateFindingsFile), MaxStoreFile, "a state's findings.json")
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	var seenWant string
	if err == nil {
		f, err := readStore(filepath.Join(dir, StateFindingsFile), store)
		if err != nil {
			return nil, err
		}
		st.Store, st.LastGood, st.ExhaustiveNext, st.Night, st.Current, st.Build = f.Signatures, f.LastGood, f.ExhaustiveNext, f.Night, f.Current, f.Build
		st.Newer = newerNote(filepath.Join(dir, StateFindingsFile), f)
		seenWant = f.SeenSHA256
		sortStore(st.Store)
	} else {
		st.Empty = true
	}
	triage, err := readFileWithin(filepath.Join(dir, StateTriageFile), MaxTriageFile, "a triage.txt")
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	if st.Triage, err = ParseTriage(filepath.Join(dir, StateTriageFile), triage); err != nil {
		return nil, err
	}
	if betweenStateReads != nil {
		betweenStateReads()
	}
	seen, seenPath, rolled, err := readSeen(dir, seenWant)
	if err != nil {
		return nil, err
	}
	if st.Seen, err = parseBloom(seenPath, seen); err != nil {
		return nil, seenRemedy(err, seenPath)
	}
	st.rolled, st.SeenMissing = rolled, seen == nil && seenWant != ""
	if n := st.Seen.Count(); BloomFalsePositive(n) > BloomRestartAt {
		st.Seen, st.SeenRestarted = NewBloom(), n
	}
	st.written = writtenDigest(store, seen)
	st.Digest = st.written
	return st, nil
}

// errSeenMismatch is readSeen's error for a seen.bloom that does not go
// with findings.json.
var errSeenMismatch = errors.New("does not go with")

// readSeen reads the state dir's seen.bloom (nil when there is none) as
// findings.json, whose seen_sha256 is want, goes with it, and names the
// file it read. A store written without the key (want "") takes
// seen.bloom as it is. A seen.bloom whose SHA-256 differs, beside a
// seen.bloom.tmp whose SHA-256 is want, is that of a commit a kill cut
// between its two renames (findings.json renamed in, seen.bloom not):
// the .tmp is read instead, and rolled says so. A missing seen.bloom
// without such a .tmp is the filter deleted to start afresh (STATE.md):
// empty. One that matches neither is an error naming both files and
// what to do.
func readSeen(dir, want string) (data []byte, path string, rolled bool, err error) {
	path = filepath.Join(dir, StateSeenFile)
	data, err = readBloomFile(path)
	missing := errors.Is(err, os.ErrNotExist)
	if err != nil && !missing {
		return nil, path, false, seenRemedy(err, path)
	}
	if want == "" || (!missing && sha256Hex(data) == want) {
		return data, path, false, nil
	}
	tmp := path + ".tmp"
	if t, err := readBloomFile(tmp); err == nil && sha256Hex(t) == want {
		return t, tmp, true, nil
	}
	if missing {
		return nil, path, false, nil
	}
	return nil, path, false, fmt.Errorf("%s %w %s (its SHA-256 is %s, %s's seen_sha256 %s), and no %s that does lies beside it (a commit cut short completes through it): restore the seen.bloom written with that findings.json (the night's OUT/state/seen.bloom), or delete %s to start the filter afresh (that night's graphs are then checked again)",
		path, errSeenMismatch, StateFindingsFile, sha256Hex(data), StateFindingsFile, want, filepath.Base(tmp), path)
}

// seenRemedy adds to err, when it says the state's filter at path is no
// filter (errNotBloom: cut short by a full disk, overwritten), what to do,
// as readSeen's mismatch error says it.
func seenRemedy(err error, path string) error {
	if !errors.Is(err, errNotBloom) {
		return err
	}
	return fmt.Errorf("%w: restore the seen.bloom written with %s (the night's OUT/state/seen.bloom), or delete %s to start the filter afresh (the graphs it held are then checked again)",
		err, StateFindingsFile, path)
}

// seenWant is the seen_sha256 of findings.json's text, "" when it has
// none or does not parse.
func seenWant(store []byte) string {
	var f struct {
		SeenSHA256 string `json:"seen_sha256"`
	}
	json.Unmarshal(store, &f)
	return f.SeenSHA256
}

// sha256Hex is the SHA-256 of data, in hex.
func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// campaignOutput names the files of a campaign's output (report.json,
// campaign.json, results.jsonl) that dir holds; none for a state.
func campaignOutput(dir string) []string {
	var names []string
	for _, name := range []string{"report.json", CampaignFile, ResultsFile} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			names = append(names, name)
		}
	}
	return names
}

// readStore reads findings.json's text (path names it in the errors): a
// store of the schema whose every entry a night can use, each signature
// and strategy once, with an outcome of a finding, a minimized graph and
// kept graphs that parse, their weights one a block within the limits, or
// none; a last good night of a date and a full commit hash; an
// exhaustive_next of at most MaxExhaustiveNext. Anything else is an error
// naming the file and where in it.
func readStore(path string, data []byte) (storeFile, error) {
	var f storeFile
	if len(data) == 0 {
		return f, fmt.Errorf("%s: empty file, not a %s store (a write cut short?): restore it, or delete it to start the store afresh", path, StateSchema)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("%s: %v (%d bytes; cut short or edited?): restore it, for example from the last night's OUT/state, or delete it to start the store afresh", path, jsonError(data, err), len(data))
	}
	if err := checkStoreSchema(f.Schema, f.FormatMinor); err != nil {
		return f, fmt.Errorf("%s: %v", path, err)
	}
	if f.FormatMinor > StateFormatMinor {
		f.ignored = newerKeys(data)
	} else if err := unknownStoreKey(data, f.FormatMinor); err != nil {
		return f, fmt.Errorf("%s: %v", path, err)
	}
	if f.Night != "" && !isDate(f.Night) {
		return f, fmt.Errorf("%s: night %q: want a date YYYY-MM-DD", path, f.Night)
	}
	if h := f.SeenSHA256; h != "" && (len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "") {
		return f, fmt.Errorf("%s: seen_sha256 %q: want a SHA-256 in hex (64 digits)", path, h)
	}
	if p := f.ExhaustiveNext; p != nil && *p > MaxExhaustiveNext {
		return f, fmt.Errorf("%s: exhaustive_next %d: past 2^63 (%d), where the walk of the exhaustive generator's growing order from it would wrap past 2^64; no night records one that large (damaged or edited?): restore it, or delete the key to start the next night's walk at its seed", path, *p, MaxExhaustiveNext)
	}
	if g := f.LastGood; g != nil {
		if _, err := time.Parse(time.DateOnly, g.Night); err != nil {
			return f, fmt.Errorf("%s: last_good: night %q: want a date YYYY-MM-DD", path, g.Night)
		}
		if !isCommitHash(g.Revision) {
			return f, fmt.Errorf("%s: last_good: revision %q: want a full commit hash", path, g.Revision)
		}
		for i, k := range g.Known {
			if k.Signature == "" {
				return f, fmt.Errorf("%s: last_good: known[%d]: no signature", path, i)
			}
		}
	}
	at := map[findingKey]int{}
	for i := range f.Signatures {
		e := &f.Signatures[i]
		where := fmt.Sprintf("%s: signatures[%d] (%s)", path, i, TriageSignature(e.Signature))
		if e.Signature == "" {
			return f, fmt.Errorf("%s: signatures[%d]: no signature", path, i)
		}
		if !isFailure(e.Outcome) {
			return f, fmt.Errorf("%s: outcome %q, want one of a finding (%s, %s, %s, %s)", where, e.Outcome, OutInvalid, OutPanic, OutTimeout, OutCrash)
		}
		k := findingKey{e.Signature, e.Strategy}
		if j, dup := at[k]; dup {
			return f, fmt.Errorf("%s: the same signature and strategy as signatures[%d]", where, j)
		}
		at[k] = i
		dates := []struct{ key, date string }{{"first_seen", e.FirstSeen}, {"last_seen", e.LastSeen}, {"fixed", e.Fixed}}
		if r := e.Regressed; r != nil {
			dates = append(dates, struct{ key, date string }{"regressed.night", r.Night}, struct{ key, date string }{"regressed.fixed_since", r.FixedSince})
		}
		for _, d := range dates {
			if (d.date != "" || d.key != "fixed") && !isDate(d.date) {
				return f, fmt.Errorf("%s: %s %q: want a date YYYY-MM-DD", where, d.key, d.date)
			}
		}
		if e.LastSeen < e.FirstSeen { // dates YYYY-MM-DD order as strings
			return f, fmt.Errorf("%s: last_seen %s before first_seen %s", where, e.LastSeen, e.FirstSeen)
		}
		if r := e.Regressed; r != nil && r.FixedSince > r.Night {
			return f, fmt.Errorf("%s: regressed.fixed_since %s after regressed.night %s", where, r.FixedSince, r.Night)
		}
		if e.Minimized != "" {
			if _, err := graphOf(&Example{Graph: e.Minimized, Weights: e.MinimizedWeights}); err != nil {
				return f, fmt.Errorf("%s: minimized: %v", where, err)
			}
		}
		for j, g := range e.Graphs {
			if _, err := graphOfKept(g); err != nil {
				return f, fmt.Errorf("%s: graphs[%d]: %v", where, j, err)
			}
		}
	}
	return f, nil
}

// isDate says whether s is a night's date, YYYY-MM-DD.
func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// LatestNight is the latest night the store records: the night that last
// wrote it, or where it does not say, the latest of its entries' dates
// and of the last good night ("" for an empty store).
func (st *State) LatestNight() string {
	latest := st.Night
	for _, e := range st.Store {
		latest = max(latest, e.FirstSeen, e.LastSeen, e.Fixed)
		if e.Regressed != nil {
			latest = max(latest, e.Regressed.Night)
		}
	}
	if st.LastGood != nil {
		latest = max(latest, st.LastGood.Night)
	}
	return latest
}

// StoreStructurizer is the current side the store was last written with:
// Current, or where the store does not say, the revision of the entry
// last seen (its spec; "" for an empty store).
func (st *State) StoreStructurizer() string {
	if st.Current != "" {
		return st.Current
	}
	spec, last := "", ""
	for _, e := range st.Store {
		if e.Revision != "" && e.LastSeen >= last {
			spec, last = e.Revision, e.LastSeen
		}
	}
	if st.LastGood != nil && st.LastGood.Night >= last {
		spec = st.LastGood.Spec()
	}
	return spec
}

// structurizerOf is which structurizer a spec (or a store's revision,
// "self (built from ...)", `cmd:COMMAND (declares itself "NAME")`) tests, whatever its revision: cfgfuzz's own
// (self, isolated, rev:REV), a repository's (repo:DIR@REV), or a
// command's (cmd:COMMAND: its program, the first word, or an
// interpreter's script, as programOf resolves it; the other arguments may
// change, as a fix's flag does). A
// relative directory or program is read from the working directory, as
// Resolve records it, so tonight's spec as given and the store's as
// recorded compare alike: the same relative path from the same directory
// is the same structurizer, and from another directory another one.
func structurizerOf(spec string) string {
	spec = specOfRevision(spec) // "self (built from ...)", a command's declared name
	sp, err := ParseSpec(spec)
	switch {
	case err != nil:
		return spec
	case sp.IsSelf() || sp.Kind == SpecRev:
		return "cfgfuzz's own structurizer"
	case sp.Kind == SpecRepo:
		if abs, err := filepath.Abs(sp.Repo); err == nil {
			return "the structurizer of repository " + abs
		}
		return "the structurizer of repository " + sp.Repo
	}
	if prog := programOf(sp.Cmd); prog != "" { // its arguments may change from night to night
		return "the command " + prog
	}
	return "cmd:" + sp.Cmd
}

// programOf is the program a cmd spec's command runs: its first word when
// that is a path (plain, or quoted whole as Resolve records one with a
// space), unquoted and, when relative, made absolute from the working
// directory, where the shell looks for it. A first word that is a name
// the shell finds on PATH (an interpreter: python3, sh, node, java) runs
// the program its first path argument names (python3 ./toy.py, java -jar
// /opt/a.jar), so the program is both: "python3 /abs/toy.py"; with no
// path argument, the name alone ("" for no word).
func programOf(cmd string) string {
	words := commandWords(cmd)
	if len(words) == 0 {
		return ""
	}
	word := cmd[words[0][0]:words[0][1]]
	if path, ok := pathOfWord(word); ok {
		return absPath(path)
	}
	for _, w := range words[1:] {
		if path, ok := pathOfWord(cmd[w[0]:w[1]]); ok {
			return word + " " + absPath(path)
		}
	}
	return word
}

// absPath is path made absolute from the working directory; a
// {placeholder} path, or one that cannot be, as it is.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil && !strings.HasPrefix(path, "{") {
		return abs
	}
	return path
}

// CheckNight refuses a night on st that would rewrite it wrongly: a night
// earlier than the latest the store records, or a current side (spec) of
// another structurizer than the store was written by, unless
// otherStructurizer (--state-new-structurizer) says to take the state
// over. A changed revision of the same structurizer is what nights are
// for, and the same night again is allowed.
func (st *State) CheckNight(night, spec string, otherStructurizer bool) error {
	if latest := st.LatestNight(); latest != "" && night < latest {
		return fmt.Errorf("night %s is earlier than the latest night of state %s (%s): a night's findings go after the nights its store holds; give a later --night (the default is today, UTC)", night, st.Dir, latest)
	}
	stored := st.StoreStructurizer()
	if stored == "" || otherStructurizer {
		return nil
	}
	if was, is := structurizerOf(stored), structurizerOf(spec); was != is {
		return fmt.Errorf("state %s was written by nights of %s (%s), but this night tests %s (%s): its kept graphs would be re-run on another structurizer, and its signatures classed fixed or new for it; give the --structurizer the state was written with, another --state directory (one per structurizer under test), or --state-new-structurizer to take this state over to %s", st.Dir, was, stored, is, spec, is)
	}
	return nil
}

// writtenDigest hashes the contents of findings.json and seen.bloom.
func writtenDigest(store, seen []byte) string {
	h := sha256.New()
	for _, part := range [][]byte{store, seen} {
		fmt.Fprintf(h, "%d\n", len(part))
		h.Write(part)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// ErrStateChanged is CommitState's refusal of a state directory another
// campaign committed to since it was read (MarkNotCommitted); the error
// is a stateChangedError, which names the night the state then recorded
// (CommittedNight).
var ErrStateChanged = errors.New("changed since this campaign read it")

// stateChangedError is CommitState's ErrStateChanged: dir is the state,
// night the night its findings.json recorded when the commit was refused
// ("" none: no findings.json, or one without a night).
type stateChangedError struct{ dir, night string }

func (e *stateChangedError) Error() string {
	return fmt.Sprintf("state %s %v (did another campaign commit to it meanwhile?): not overwritten", e.dir, ErrStateChanged)
}

func (e *stateChangedError) Unwrap() error { return ErrStateChanged }

// CommittedNight is the night the state recorded when CommitState refused
// it as changed (err is ErrStateChanged): the night of the campaign that
// committed there meanwhile; "" when err is no such refusal, or the
// state recorded none.
func CommittedNight(err error) string {
	var e *stateChangedError
	if errors.As(err, &e) {
		return e.night
	}
	return ""
}

// storeNight is the night findings.json's text records, "" when it
// records none or does not parse.
func storeNight(store []byte) string {
	var f struct {
		Night string `json:"night"`
	}
	json.Unmarshal(store, &f)
	return f.Night
}

// CommitState writes a night's update into the state directory st was
// read from, unless another campaign committed to it since (its
// findings.json or seen.bloom differ from what st read): that campaign's
// update is then kept and this one refused. The directory is locked
// while it is compared and written; a stale lock taken over is said on
// note (LockDir). A commit half done (ErrHalfCommitted: seen.bloom.tmp
// kept) is said on note and counts as done: the state reads as the night,
// and the next commit there completes it.
func CommitState(st *State, up StateUpdate, note io.Writer) error {
	unlock, err := LockDir(st.Dir, note)
	if err != nil {
		return err
	}
	defer unlock()
	err = commitLocked(st, up)
	if errors.Is(err, ErrHalfCommitted) { // the state reads as the night: it is committed
		if note != nil {
			fmt.Fprintf(note, "cfgfuzz: %v\n", err)
		}
		return nil
	}
	return err
}

// commitLocked is CommitState's commit once the directory's lock is
// taken. A lock this process lost meanwhile (another process took it
// over as stale: lockLost) refuses the commit, so that two owners of
// the directory never both commit.
func commitLocked(st *State, up StateUpdate) error {
	store, seen, err := readWritten(st.Dir)
	if err != nil {
		return err
	}
	if writtenDigest(store, seen) != st.written {
		return &stateChangedError{dir: st.Dir, night: storeNight(store)}
	}
	if err := lockLost(st.Dir); err != nil {
		return fmt.Errorf("state %s: not committed: %w", st.Dir, err)
	}
	return WriteStateUpdate(st.Dir, up)
}

// readWritten reads the state dir's findings.json and seen.bloom as
// LoadState does (readSeen), each nil when missing; a seen.bloom that goes
// with no findings.json reads as nil, which differs from any state read.
func readWritten(dir string) (store, seen []byte, err error) {
	store, err = readFileWithin(filepath.Join(dir, StateFindingsFile), MaxStoreFile, "a state's findings.json")
	if err != nil && !os.IsNotExist(err) {
		return nil, nil, err
	}
	seen, _, _, err = readSeen(dir, seenWant(store))
	if err != nil && !errors.Is(err, errSeenMismatch) {
		return nil, nil, err
	}
	return store, seen, nil
}

// CheckWritable fails, naming the directory, when no file can be made in
// the state directory (a read-only mount, no permission), or another live
// process holds its lock (InUse: the commit would be refused): a night
// that commits its update there, or a merge, checks it before it runs,
// rather than finding it out at its end. It completes on disk a commit
// that LoadState read as completed (State.rolled), renaming seen.bloom.tmp
// into place under the directory's lock, unless the directory changed
// since; a stale lock taken over for it is said on note (nil: nowhere).
// A directory that does not exist (State.Absent: a first night) is made.
func (st *State) CheckWritable(note io.Writer) error {
	if err := os.MkdirAll(st.Dir, 0o755); err != nil { // a first night's (LoadState does not make it)
		return fmt.Errorf("state %s cannot be written, and the night's update is committed there: %w", st.Dir, err)
	}
	if err := InUse(st.Dir); err != nil {
		return fmt.Errorf("the night's state update would not be saved: %w", err)
	}
	f, err := os.CreateTemp(st.Dir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("state %s cannot be written, and the night's update is committed there: %w", st.Dir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return err
	}
	if st.rolled {
		st.rollForward(note)
	}
	return nil
}

// rollForward renames seen.bloom.tmp into place when the directory still
// holds the state LoadState read through it; a stale lock taken over is
// said on note (LockDir).
func (st *State) rollForward(note io.Writer) {
	unlock, err := LockDir(st.Dir, note)
	if err != nil {
		return
	}
	defer unlock()
	store, seen, err := readWritten(st.Dir)
	if err != nil || writtenDigest(store, seen) != st.written {
		return
	}
	seenPath := filepath.Join(st.Dir, StateSeenFile)
	if _, _, rolled, err := readSeen(st.Dir, seenWant(store)); err != nil || !rolled {
		return
	}
	if os.Rename(seenPath+".tmp", seenPath) == nil {
		st.rolled = false
		if d, err := os.Open(st.Dir); err == nil {
			d.Sync()
			d.Close()
		}
	}
}

func sortStore(s []StoredSignature) {
	slices.SortFunc(s, func(a, b StoredSignature) int {
		return cmp.Or(cmp.Compare(a.Signature, b.Signature), cmp.Compare(a.Strategy, b.Strategy))
	})
}

// lookup finds a stored signature.
func (st *State) lookup(sig, strategy string) *StoredSignature {
	i, ok := slices.BinarySearchFunc(st.Store, findingKey{sig, strategy}, func(e StoredSignature, k findingKey) int {
		return cmp.Or(cmp.Compare(e.Signature, k.sig), cmp.Compare(e.Strategy, k.strategy))
	})
	if !ok {
		return nil
	}
	return &st.Store[i]
}

// seenKey is a graph's key in the filter: its fingerprint and what judging
// it depends on besides the revision (the strategy it ran, the faults
// planted, the checks: the oracle's default set by name when the campaign
// names none, so a cfgfuzz whose defaults differ checks the graph again).
// A graph checked under other faults or checks is
// checked again; one checked on an older revision is not (the graphs that
// showed a signature are re-run every night: rerun.go). Faults and checks
// are sets: the order they were given in does not matter.
func seenKey(s *Settings, strategy string, fp Fingerprint) []byte {
	set := func(xs []string) string { return strings.Join(slices.Sorted(slices.Values(xs)), ",") }
	checks := s.Checks
	if checks == nil { // the defaults, named: another cfgfuzz's may differ
		checks = oracle.DefaultChecks
	}
	k := fmt.Sprintf("%x|%s|%s|%s", fp[:], cmp.Or(strategy, s.Strategy), set(s.Inject), set(checks))
	return []byte(k)
}

// recordSeenKey is the filter key of a record's graph; false for a record
// that checked nothing (a generator failure, a harness error, a graph
// skipped as seen).
func recordSeenKey(s *Settings, r *Record) ([]byte, bool) {
	if r.Seen || r.Graph == "" || r.Current.Outcome == OutError || r.Current.Outcome == "" {
		return nil, false
	}
	g, err := graphOf(&Example{Graph: r.Graph, Weights: r.Weights})
	if err != nil {
		return nil, false
	}
	return seenKey(s, s.GraphStrategy(r.Index), GraphFingerprint(g)), true
}

// StateUpdate is a night's updated state: what NextState computes.
type StateUpdate struct {
	Store    []StoredSignature
	Seen     *Bloom
	LastGood *GoodNight
	// ExhaustiveNext is where the next night's exhaustive walk starts:
	// tonight's report's, or the state's when tonight walked none.
	ExhaustiveNext *uint64
	// Night and Current are the night that wrote the update and its
	// current side, and Build the build of its structurizer (storeFile).
	Night, Current, Build string
}

// NextState is the state after tonight: every signature tonight's report
// classed, with its dates, revision and kept graphs, and the filter with
// tonight's checked graphs added (seen, which may be nil: the filter of
// the night's records; merge passes the OR of the shards'). Tonight is
// the last good night when goodNight says so, else the state's stays.
func NextState(st *State, rep *Report, seen *Bloom) StateUpdate {
	byKey := map[findingKey]StoredSignature{}
	for _, e := range st.Store {
		byKey[findingKey{e.Signature, e.Strategy}] = e
	}
	firsts := map[findingKey]*Finding{}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		firsts[findingKey{f.Signature, f.Strategy}] = f
	}
	s := &rep.Settings
	for _, c := range rep.State.Signatures {
		k := findingKey{c.Signature, c.Strategy}
		e, had := byKey[k]
		if !had {
			e = StoredSignature{Signature: c.Signature, Strategy: c.Strategy, Outcome: c.Outcome, FirstSeen: s.Night, FirstRevision: stateRevision(s, rep.Declared)}
		}
		switch {
		case c.Class == ClassFixed:
			e.Fixed, e.Regressed = cmp.Or(e.Fixed, s.Night), nil
		case c.Class == ClassUnverified:
		default: // it showed tonight
			if c.changed { // not the defect the store knew: tonight's starts afresh
				e = StoredSignature{Signature: c.Signature, Strategy: c.Strategy, Outcome: c.Outcome, FirstSeen: s.Night, FirstRevision: stateRevision(s, rep.Declared)}
			}
			e.Regressed = regressedOn(e, s.Night)
			e.LastSeen, e.Revision, e.Fixed = s.Night, stateRevision(s, rep.Declared), ""
			if f := firsts[k]; f != nil {
				for _, x := range keptExamples(f) {
					e.Graphs = keepGraph(e.Graphs, KeptGraph{Graph: x.Graph, Weights: x.Weights, Stream: x.Stream, Seed: x.Seed})
				}
				if e.Minimized == "" || c.regressed && f.Minimized != "" { // a regression's graph is tonight's
					e.Minimized, e.MinimizedWeights, e.MinimizeStopped = f.Minimized, f.MinimizedWeights, f.MinimizeStopped
				}
			}
			for _, g := range c.rerunShowing {
				e.Graphs = keepGraph(e.Graphs, g)
			}
		}
		byKey[k] = e
	}
	up := StateUpdate{Seen: NewBloom(), LastGood: st.LastGood, ExhaustiveNext: cmp.Or(rep.ExhaustiveNext, st.ExhaustiveNext),
		Night: max(st.Night, s.Night), Current: s.Current, Build: rep.State.Build}
	if g := goodNight(rep); g != nil {
		up.LastGood = g
	}
	for _, e := range byKey {
		up.Store = append(up.Store, e)
	}
	sortStore(up.Store)
	up.Seen.Or(st.Seen)
	if seen != nil {
		up.Seen.Or(seen)
	}
	return up
}

// goodNight is tonight as a good night: a complete report of one cfgfuzz
// (not a mixed merge) that checked at
// least one graph, gave every graph a verdict, holds no new signature and
// kept its output within --max-growth, whose current side is a revision
// without uncommitted changes; nil otherwise. A night that checked nothing
// (every graph seen before) or left graphs without a verdict (the check
// limit) is no evidence.
func goodNight(rep *Report) *GoodNight {
	if rep.Incomplete != nil || rep.Mixed != nil || rep.State == nil || rep.State.Classes[ClassNew] > 0 || rep.SizeOverLimit() ||
		rep.Graphs == 0 || rep.Outcomes[OutError] > 0 || rep.UncheckedGraphs() > 0 {
		return nil
	}
	sp, err := ParseSpec(rep.Settings.Current)
	if err != nil || (sp.Kind != SpecRev && sp.Kind != SpecRepo) || sp.WorkTree != "" || !isCommitHash(sp.Rev) {
		return nil
	}
	var known []KnownSignature
	for _, c := range rep.State.Signatures {
		if c.Class == ClassKnown {
			known = append(known, KnownSignature{Signature: c.Signature, Strategy: c.Strategy})
		}
	}
	return &GoodNight{Night: rep.Settings.Night, Revision: sp.Rev, Repo: sp.Repo, Known: known}
}

// isCommitHash says whether rev is a full hexadecimal object name (a
// resolved revision, not a name like HEAD that moves).
func isCommitHash(rev string) bool {
	if len(rev) != 40 && len(rev) != 64 {
		return false
	}
	for _, c := range rev {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// stateRevision is the current side as the store records it: its spec,
// for this binary's own structurizer followed by the commit it was built
// from, and for a command whose protocol v2 hello declared a name
// (declared["current"]) followed by that name, the one word cfgfuzz has of
// which build it ran: `cmd:COMMAND (declares itself "NAME")`.
func stateRevision(s *Settings, declared Declarations) string {
	sp, err := ParseSpec(s.Current)
	switch {
	case err != nil:
		return s.Current
	case sp.IsSelf():
		return s.Current + " (" + sp.describe(false) + ")"
	case sp.Kind == SpecCmd && declared["current"] != nil && declared["current"].Name != "":
		return s.Current + declaredMark + strconv.Quote(declared["current"].Name) + ")"
	}
	return s.Current
}

// declaredMark starts the declared name a store's revision of a command
// ends with (stateRevision).
const declaredMark = " (declares itself "

// specOfRevision is the spec of a store's revision (stateRevision): the
// revision less what follows the spec, "self (built from ...)" or a
// command's `cmd:COMMAND (declares itself "NAME")`. A command is cut only
// at a declared name that unquotes, so a command holding " (" stays whole.
func specOfRevision(rev string) string {
	if !strings.HasPrefix(rev, SpecCmd+":") {
		spec, _, _ := strings.Cut(rev, " (")
		return spec
	}
	if !strings.HasSuffix(rev, ")") {
		return rev
	}
	for i := strings.Index(rev, declaredMark); i >= 0; {
		if _, err := strconv.Unquote(rev[i+len(declaredMark) : len(rev)-1]); err == nil {
			return rev[:i]
		}
		next := strings.Index(rev[i+1:], declaredMark)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return rev
}

// keptExamples are the graphs of a finding a night keeps, in the order
// they are offered to keepGraph: First, then FirstNew (the graph the
// minimized graph comes from, when the baseline fails First too), then
// Others. FirstNew comes before Others so that it is kept whenever First
// is and room is left, whatever its index.
func keptExamples(f *Finding) []Example {
	out := []Example{f.First}
	if f.FirstNew != nil {
		out = append(out, *f.FirstNew)
	}
	return append(out, f.Others...)
}

// keepGraph adds g unless it is kept already or KeepGraphs are.
func keepGraph(gs []KeptGraph, g KeptGraph) []KeptGraph {
	if len(gs) >= KeepGraphs || slices.ContainsFunc(gs, func(h KeptGraph) bool { return h.Graph == g.Graph && slices.Equal(h.Weights, g.Weights) }) {
		return gs
	}
	return append(gs, g)
}

// WriteStateUpdate writes an update into dir (OUT/state, or the state
// directory itself when committing): findings.json and seen.bloom, both
// written whole before either replaces its old file, so a write that
// fails (a full disk, a quota) leaves the directory as it was. The store
// is renamed first, and names the SHA-256 of the filter written with it:
// a kill between the two renames leaves the new store, the old filter
// and the new one as seen.bloom.tmp, which the next reading of the state
// takes instead (readSeen). A second rename that fails leaves the same,
// and the error wraps ErrHalfCommitted.
func WriteStateUpdate(dir string, up StateUpdate) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	seen := up.Seen.bytes()
	b, err := storeBytes(up, seen)
	if err != nil {
		return err
	}
	err = corpus.ReplaceFiles(
		[]string{filepath.Join(dir, StateFindingsFile), filepath.Join(dir, StateSeenFile)},
		[][]byte{b, seen})
	var half *corpus.HalfReplaced
	if errors.As(err, &half) {
		return fmt.Errorf("state %s: the commit is %w: %s holds the new night, but renaming %s into place failed (%v), so %s is kept beside the old %s; the state reads as the new night, and the next night or merge that commits there completes the commit", dir, ErrHalfCommitted, StateFindingsFile, StateSeenFile+".tmp", half.Err, StateSeenFile+".tmp", StateSeenFile)
	}
	return err
}

// ErrHalfCommitted is WriteStateUpdate's error when findings.json was
// renamed into place and seen.bloom not (seen.bloom.tmp kept): the state
// reads as the new night (readSeen).
var ErrHalfCommitted = errors.New("half done")

// storeBytes is findings.json's text of an update whose seen.bloom is
// seen (nil: a store that names none).
func storeBytes(up StateUpdate, seen []byte) ([]byte, error) {
	store := up.Store
	if store == nil {
		store = []StoredSignature{}
	}
	sum := ""
	if seen != nil {
		sum = sha256Hex(seen)
	}
	b, err := json.MarshalIndent(storeFile{Schema: StateSchema, FormatMinor: StateFormatMinor, Night: up.Night, Current: up.Current, Build: up.Build, Signatures: store, LastGood: up.LastGood, ExhaustiveNext: up.ExhaustiveNext, SeenSHA256: sum}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ReadStateUpdate reads a shard's OUT/state filter (the store is
// recomputed by merge from the merged report).
func ReadStateUpdate(outDir string) (*Bloom, error) {
	p := filepath.Join(outDir, StateUpdateDir, StateSeenFile)
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("%s: the shard wrote no state update (was it run with --state?)", outDir)
	}
	return ReadBloom(p)
}

// graphOfKept rebuilds a kept graph.
func graphOfKept(k KeptGraph) (*cfg.Graph, error) {
	return graphOf(&Example{Graph: k.Graph, Weights: k.Weights})
}

// nightBuild is the build of the structurizer a night's current side ran
// (StateReport.Build): for a cmd spec, the digest of the files its
// command names, its program and every word that reads as a path to a
// file (cmdFiles, campaign.json's side_files: SideFiles.Current), so a
// program or script rebuilt at the same path reads as another build; for
// cfgfuzz's own structurizer (self, isolated), the cfgfuzz build
// (Writer.Build: its version and revision, and its executable's digest
// when it has uncommitted changes or no revision); for a revision, the
// spec, whose commit names the build. "" when none is known (a cmd spec
// naming no file that can be read).
func nightBuild(s *Settings, cmdFiles string, w Writer) string {
	sp, err := ParseSpec(s.Current)
	switch {
	case err != nil:
		return ""
	case sp.Kind == SpecCmd:
		return cmdFiles
	case sp.IsSelf():
		return "cfgfuzz " + writerOr(w).Build
	}
	return s.Current
}

// noteBuild records tonight's build in the state section, and the build
// the state recorded for its last night when that night ran the same
// current side on another build: a binary rebuilt at the same path, whose
// signatures may read fixed or new by the rebuild alone.
func (s *StateReport) noteBuild(st *State, current, build string) {
	s.Build = build
	if st.Build != "" && build != "" && st.Build != build && st.Current == current {
		s.PreviousBuild, s.PreviousNight = st.Build, st.Night
	}
}

// noteBaseline records in the state section the state's last good night
// when the campaign's baseline is its revision and it had known
// signatures (GoodNight.KnownNote).
func (s *StateReport) noteBaseline(st *State, baseline string) {
	g := st.LastGood
	if g == nil || len(g.Known) == 0 || baseline == "" {
		return
	}
	sp, err := ParseSpec(baseline)
	if err != nil || sp.Rev != g.Revision || sp.WorkTree != "" {
		return
	}
	if sp.Kind == SpecRev && g.Repo == "" || sp.Kind == SpecRepo && g.Repo != "" && filepath.Clean(sp.Repo) == filepath.Clean(g.Repo) {
		s.BaselineLastGood = g
	}
}

// BaselineNote says that the baseline is the last good night's revision
// and which known signatures that night had (StateReport.BaselineLastGood);
// "" when not.
func (s *StateReport) BaselineNote() string {
	if s.BaselineLastGood == nil {
		return ""
	}
	return s.BaselineLastGood.KnownNote()
}

// BuildNote says that the structurizer's build changed since the state's
// last night (StateReport.PreviousBuild); "" when it did not, or is not
// known.
func (s *StateReport) BuildNote() string {
	if s.PreviousBuild == "" {
		return ""
	}
	return fmt.Sprintf("the structurizer's build differs from night %s's (%s then, %s tonight) though its spec is the same: it was rebuilt in place, so the classes compare two builds (a signature fixed or new tonight may be the rebuild's)",
		s.PreviousNight, s.PreviousBuild, s.Build)
}
