// record.go defines a Record, the campaign's unit of account: what happened
// to one graph (by campaign index) on the current side and, when comparing,
// on the baseline, with the graph's divergence class. Records are what the
// results log stores and what every report is computed from, so they hold
// no timing: the same graph always gives the same record.

package fuzz

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// Outcomes of one side on one graph.
const (
	OutOK      = "ok"      // structured, every check passed
	OutInvalid = "invalid" // structured, a check failed (or the function could not be emitted)
	OutRefused = "refused" // a typed refusal
	// OutUnsupported: the graph uses what the structurizer declared it does
	// not serve (protocol v2): not sent, not a finding.
	OutUnsupported = "unsupported"
	OutPanic       = "panic"   // the structurizer panicked
	OutTimeout     = "timeout" // no answer within the per-graph limit
	OutCrash       = "crash"   // the structurizer process died or broke the protocol
	OutError       = "error"   // harness error (validator missing, bad request): not a finding
)

// Outcomes lists the outcomes in report order.
var Outcomes = []string{OutOK, OutInvalid, OutRefused, OutUnsupported, OutPanic, OutTimeout, OutCrash, OutError}

// isFailure reports whether an outcome is a finding.
func isFailure(out string) bool {
	switch out {
	case OutInvalid, OutPanic, OutTimeout, OutCrash:
		return true
	}
	return false
}

// Divergence classes of a graph when a baseline runs beside the current side.
const (
	ClassSame             = "same"              // same outcome and, when structured, the same module
	ClassChanged          = "output-changed"    // both valid or both invalid (Divergences.BothInvalid), different modules
	ClassNewlyStructured  = "newly-structured"  // baseline refused, current structures validly
	ClassNewlyRefused     = "newly-refused"     // baseline structured the graph (validly, or failed on it), current refuses
	ClassNewlyUnsupported = "newly-unsupported" // current declared the graph unsupported (not sent), baseline did not
	ClassNewlySupported   = "newly-supported"   // baseline declared the graph unsupported, current structured it validly or refused it
	ClassNewlyInvalid     = "newly-invalid"     // current invalid where the baseline was not
	ClassInvalidFixed     = "invalid-fixed"     // baseline failed (invalid, panic, timeout, crash), current valid
	ClassCrash            = "crash"             // current panicked or died where the baseline did not
	ClassTimeout          = "timeout"           // current timed out where the baseline did not
	ClassError            = "harness-error"     // either side had a harness error
)

// Classes lists the divergence classes in report order.
var Classes = []string{ClassSame, ClassChanged, ClassNewlyStructured, ClassNewlyRefused, ClassNewlyUnsupported, ClassNewlySupported, ClassNewlyInvalid, ClassInvalidFixed, ClassCrash, ClassTimeout, ClassError}

// RecordSchema names the format of a results.jsonl line (the JSON Schema
// fuzz/schema/record-v1.json).
const RecordSchema = "cfgfuzz-record/v1"

// SideResult is one side's judged answer.
type SideResult struct {
	Outcome   string `json:"outcome"`
	Signature string `json:"signature,omitempty"` // findings: "check:reason", stable
	Detail    string `json:"detail,omitempty"`    // first line of the failure
	// NotStarted marks an error of a structurizer process that answered
	// nothing, not even the protocol's hello (Answer.NotStarted).
	NotStarted bool `json:"not_started,omitempty"`
	// Also is the signatures of the other checks that failed, in check
	// order, after Signature's (nil when one failed): the finding stands
	// on Signature; a re-run of a kept graph shows a signature either
	// names (fails).
	Also      []string `json:"also,omitempty"`
	Hash      string   `json:"hash,omitempty"` // module digest when structured
	BlocksOut int      `json:"blocks_out,omitempty"`
	RouteVars int      `json:"route_vars,omitempty"`
	Clones    int      `json:"clones,omitempty"`
	Fallbacks int      `json:"fallbacks,omitempty"`
	// CopiedWords is what the module copies of the graph's blocks, as the
	// growth check counts it against the clone budget (the module's own
	// count, for any structurizer); 0 when growth did not run.
	CopiedWords int `json:"copied_words,omitempty"`
	// ModuleBlocks and ModuleWords are the module's size as the module
	// says it (oracle.Subject.Size: the entry point's blocks, the words
	// less debug information), whatever the structurizer declares; 0 when
	// no module was judged.
	ModuleBlocks int `json:"module_blocks,omitempty"`
	ModuleWords  int `json:"module_words,omitempty"`
	// GPU says that the gpu check judged the module too (a graph
	// Settings.GPUEvery samples, whose checks finished).
	GPU bool `json:"gpu,omitempty"`
	// Unchecked is what of the checks could not judge the module of a
	// graph that passed (oracle.Unchecked: a skipped check's name,
	// CHECK:PART for a part), in check order; nil when every check that
	// ran judged all of it, and for any other outcome (a finding stands
	// on the check that failed).
	Unchecked []string `json:"unchecked,omitempty"`
	// Func is kept for findings only, to draw the structured graph, and
	// only up to MaxKeptFunc bytes of JSON: FuncCut is the size of one
	// longer, not kept (boundFunc); 0 none was cut.
	Func    *structurizer.Func `json:"func,omitempty"`
	FuncCut int                `json:"func_cut,omitempty"`
	// Module is the side's module, kept on both sides for the first 5
	// divergent graphs of each class a worker meets (keepModules), for
	// the compare report's pictures and disassembly diff.
	Module []byte `json:"module,omitempty"`
}

// Record is one graph's result.
type Record struct {
	// Schema is RecordSchema on every line the journal writes; "" on a
	// record made in memory.
	Schema  string `json:"schema,omitempty"`
	Index   int    `json:"i"`
	Stream  int    `json:"s"` // index into Settings.Streams
	Seed    uint64 `json:"seed"`
	Graph   string `json:"graph"`             // compact notation
	Weights []int  `json:"weights,omitempty"` // nil: all 0
	Program string `json:"program,omitempty"` // the generator's program text, for failures only
	// Strategy is the strategy every side ran when it is not the
	// campaign's (the dispatch share: Settings.GraphStrategy); "" the
	// campaign's.
	Strategy string      `json:"strategy,omitempty"`
	Current  SideResult  `json:"cur"`
	Baseline *SideResult `json:"base,omitempty"`
	Class    string      `json:"class,omitempty"` // with a baseline only
	// Mutant says how a guided campaign made the graph when it is a
	// mutant ("corpus[K] OPS; fresh from block N": grafted before the
	// fresh graph or beside it, the fresh graph starting at block N; Seed
	// is then the mutation's); "" fresh.
	Mutant string `json:"mutant,omitempty"`
	// Features are the current side's behaviour features (guided
	// campaigns; features.go).
	Features []string `json:"features,omitempty"`
	// Skipped says the graph was not run: it is isomorphic to the graph of
	// the earlier index SameAs (distinct.go). A skipped record has no
	// outcome and counts in no report table but the skipped counts.
	Skipped bool `json:"skipped,omitempty"`
	SameAs  int  `json:"same_as,omitempty"`
	// Seen marks a graph skipped unjudged because the state's filter holds
	// it (checked on an earlier night); its sides are empty.
	Seen bool `json:"seen,omitempty"`
	// stopped marks a graph the campaign's stop ended while a side's
	// server was starting (Answer.Stopped): it has no verdict, and the
	// collector neither logs nor counts it, leaving it for --resume as a
	// graph never handed out. Never written.
	stopped bool
}

// Classify returns the divergence class of a graph from both sides.
func Classify(cur, base SideResult) string {
	c, b := cur.Outcome, base.Outcome
	switch {
	case c == OutError || b == OutError:
		return ClassError
	case c == b && (c != OutOK && c != OutInvalid || cur.Hash == base.Hash):
		return ClassSame
	case c == OutTimeout:
		return ClassTimeout
	case c == OutPanic || c == OutCrash:
		return ClassCrash
	case c == OutInvalid && b != OutInvalid:
		return ClassNewlyInvalid
	case c == OutInvalid: // both invalid, different modules
		return ClassChanged
	case c == OutUnsupported: // the baseline ran the graph, the current side declared it unsupported
		return ClassNewlyUnsupported
	case b == OutUnsupported: // the current side ran it (ok or refused), the baseline declared it unsupported
		return ClassNewlySupported
	case c == OutRefused: // the baseline was ok or failed on it: the refusal is what is new
		return ClassNewlyRefused
	case b == OutOK: // c ok, different module
		return ClassChanged
	case b == OutRefused:
		return ClassNewlyStructured
	}
	return ClassInvalidFixed // c ok, b invalid, panic, timeout or crash
}

// isNew reports whether a record's current-side failure is a new finding: a
// failure that the baseline does not share (no baseline: every failure).
func (r *Record) isNew() bool {
	if !isFailure(r.Current.Outcome) {
		return false
	}
	b := r.Baseline
	return b == nil || b.Outcome == OutOK || b.Outcome == OutRefused || b.Outcome == OutUnsupported
}

// harnessSignature is the signature of a panic, timeout, crash or error
// reason: oracle.HarnessSignature, the one normalization table
// (oracle/SIGNATURES.md) the minimizer and the regression suite use too.
func harnessSignature(outcome, reason string) string {
	return oracle.HarnessSignature(outcome, reason)
}

// fails reports whether the result failed with signature sig: its own, or
// another check's that failed too.
func (r *SideResult) fails(sig string) bool {
	return isFailure(r.Outcome) && (r.Signature == sig || slices.Contains(r.Also, sig))
}
