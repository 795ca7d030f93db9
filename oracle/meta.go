// meta.go: the `meta` check, metamorphic properties of a structurizer
// (ARCHITECTURE.md, structurizer guarantees 3 and 5): determinism (structurizing
// the graph again gives the same bytes), renumbering invariance (a random
// permutation of block ids, entry fixed, gives an isomorphic module, see
// modulecfg.go), idempotence (structurizing the module's own CFG adds no
// block beyond the strategy's fixed overhead; only for strategies that
// claim it) and an unchanged
// input graph. The oracle never imports a structurizer: the caller passes
// one through Subject.Structurize.

package oracle

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// ResultInfo describes one structurization, filled by the caller.
type ResultInfo struct {
	Strategy  string
	BlocksIn  int
	BlocksOut int
	WordsIn   int
	WordsOut  int
	Synthetic int // synthetic blocks the structurizer added
	Duration  time.Duration
	// Idempotent says the strategy claims idempotence (meta checks it).
	Idempotent bool
	// Fallbacks and Passes are the structurizer's own statistics
	// (stats.fallbacks and stats.passes_used): the fallback check fails
	// when Fallbacks > 0 and names the reason from Passes.
	Fallbacks int
	Passes    []string
	// NotDeterministic and NotRenumberingInvariant say the structurizer
	// does not claim determinism or renumbering invariance (a protocol v2
	// declaration): meta skips the property. The zero value claims both.
	NotDeterministic, NotRenumberingInvariant bool
	// CloneMaxWords is the heaviest block the structurizer promises to
	// copy, in words (a protocol v2 declaration); growth checks it. 0
	// promises nothing.
	CloneMaxWords int
}

// StructurizeFunc is the seam to a structurizer: a graph in, a module (or a
// refusal or error) out.
type StructurizeFunc func(g *cfg.Graph) (module []byte, info ResultInfo, err error)

// Signatures of the meta check (after "meta:").
const (
	SigNondeterministic = "nondeterministic"
	SigRenumbering      = "renumbering-not-isomorphic"
	SigNotIdempotent    = "not-idempotent"
	SigInputMutated     = "input-mutated"
	SigRerunFailed      = "rerun-failed"
	SigOutputCFG        = "output-cfg-unreadable"
)

// ErrUnsupported is what a seam returns for a graph its structurizer
// declared it does not serve (protocol v2): meta does not check a property
// on such a graph (the CFG of a module can be larger than the graph, or
// have switches it did not have).
var ErrUnsupported = errors.New("unsupported by the structurizer")

// Unsupported is ErrUnsupported with the structurizer's reason, less a
// leading "unsupported:" that would repeat it.
func Unsupported(reason string) error {
	r := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(reason), "unsupported:"))
	return fmt.Errorf("%w: %s", ErrUnsupported, r)
}

// metaRounds is the colour refinement depth of the isomorphism test.
const metaRounds = 4

func (o *Oracle) checkMeta(s *Subject) Verdict {
	if s.Structurize == nil || s.Graph == nil {
		return Verdict{Status: Skip, Detail: "no structurizer seam"}
	}
	g := s.Graph
	before := g.Clone()
	again, _, err := s.Structurize(g)
	if !g.Equal(before) {
		return metaFail(SigInputMutated, "the structurizer changed its input graph")
	}
	if err != nil {
		return rerunFailed("structurizing the same graph again", err)
	}
	if !s.Info.NotDeterministic && !bytes.Equal(again, s.Module) {
		return metaFail(SigNondeterministic, fmt.Sprintf("two runs on one graph gave different modules (%d and %d bytes)%s", len(s.Module), len(again), propertyNote("deterministic")))
	}
	own := &lazyModuleCFG{subject: s} // read once for both checks below
	var unchecked, why []string
	if !s.Info.NotRenumberingInvariant {
		v := o.checkRenumbering(s, own)
		if v.Status != Pass {
			return v
		}
		if v.Unchecked != "" {
			unchecked, why = append(unchecked, v.Unchecked), append(why, v.Detail)
		}
	}
	if s.Info.Idempotent {
		v := checkIdempotence(s, own)
		if v.Status != Pass {
			return v
		}
		if v.Unchecked != "" {
			unchecked, why = append(unchecked, v.Unchecked), append(why, v.Detail)
		}
	}
	v := Verdict{Status: Pass, Detail: metaDetail(s.Info)}
	if len(unchecked) > 0 {
		// A claimed property the re-run could not test (the structurizer
		// does not serve the graph it needs) is not a pass of it.
		v.Unchecked, v.Detail = strings.Join(unchecked, "+"), v.Detail+"; "+strings.Join(why, "; ")
	}
	return v
}

// Parts of meta that Verdict.Unchecked names: a claimed property whose
// re-run the structurizer did not serve.
const (
	PartRenumbering = "renumbering"
	PartIdempotence = "idempotence"
)

// metaDetail says which properties meta checked.
func metaDetail(info ResultInfo) string {
	claim := func(claimed bool, yes, no string) string {
		if claimed {
			return yes
		}
		return no
	}
	return claim(!info.NotDeterministic, "deterministic", "determinism not claimed") + ", " +
		claim(!info.NotRenumberingInvariant, "renumbering-invariant", "renumbering invariance not claimed") + ", " +
		claim(info.Idempotent, "idempotent", "idempotence not claimed")
}

// lazyModuleCFG reads a subject's module CFG on first use (by a scan of
// its words, else from the parse the rules check shares) and keeps it.
type lazyModuleCFG struct {
	subject *Subject
	mc      *moduleCFG
	err     error
	done    bool
}

func (l *lazyModuleCFG) get() (*moduleCFG, error) {
	if !l.done {
		var ok bool
		if l.mc, ok = scanModuleCFG(l.subject.Module); !ok {
			l.mc, l.err = l.subject.parsedModuleCFG()
		}
		l.done = true
	}
	return l.mc, l.err
}

// parsedModuleCFG is the subject's module CFG from the parse the checks
// share: the decoding path, for a module the scan gives up on.
func (s *Subject) parsedModuleCFG() (*moduleCFG, error) {
	p, err := s.parsed()
	if err != nil {
		return nil, err
	}
	m, _ := s.decoded() // parsed decoded it
	return moduleCFGParsed(m, p)
}

// propertyNote ends the detail of a property meta found missing: what it
// is about and how a structurizer says it does not promise it.
func propertyNote(promise string) string {
	return fmt.Sprintf("; a property of the structurizer, not of this module's correctness: one that does not promise it declares %q false in a protocol v2 handshake (fuzz/PROTOCOL.md), or --checks -meta turns the check off", promise)
}

func metaFail(sig, detail string) Verdict {
	return Verdict{Status: Fail, Signature: "meta:" + sig, Detail: detail}
}

// RerunFailure is a re-run that gave no module, as a seam reports it:
// the harness signature the same answer would have on a first run
// ("structurize:panic:<reason>", "structurize:refused", ...) and the
// reason's first line.
type RerunFailure struct {
	Signature string
	Detail    string
}

func (e *RerunFailure) Error() string { return e.Signature + ": " + e.Detail }

// RerunHarnessError is a re-run the harness could not make, as a seam
// reports it: the request could not be served (an error whose reason
// starts "request: ", fuzz/PROTOCOL.md) or the structurizer did not start.
// Detail is what the seam said. Meta makes no verdict of it: the check is
// a harness error, as the same answer to a first run is.
type RerunHarnessError struct{ Detail string }

func (e *RerunHarnessError) Error() string { return e.Detail }

// rerunFailed is the verdict on a re-run that failed with err while doing
// what. A RerunFailure names the failure in the signature
// ("meta:rerun-failed:panic:<reason>"), so re-runs that fail differently
// are different findings; any other error is "meta:rerun-failed". A
// RerunHarnessError is no finding: the verdict is a harness error.
func rerunFailed(what string, err error) Verdict {
	if he := (*RerunHarnessError)(nil); errors.As(err, &he) {
		return Verdict{Status: Error, Detail: what + ": " + err.Error()}
	}
	sig := SigRerunFailed
	var rf *RerunFailure
	if errors.As(err, &rf) {
		if rest, ok := strings.CutPrefix(rf.Signature, "structurize:"); ok && rest != "" {
			sig += ":" + rest
		}
	}
	return metaFail(sig, what+": "+err.Error())
}

// checkRenumbering structurizes a permuted copy and compares canonical
// forms, the first module's reported ids mapped through the permutation.
func (o *Oracle) checkRenumbering(s *Subject, own *lazyModuleCFG) Verdict {
	g := s.Graph
	n := g.Len()
	if n <= 2 {
		return Verdict{Status: Pass}
	}
	seed := o.opt.Seed ^ uint64(n)*0x9e3779b97f4a7c15
	r := rand.New(rand.NewPCG(seed, uint64(g.Edges())))
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	r.Shuffle(n-1, func(i, j int) { perm[i+1], perm[j+1] = perm[j+1], perm[i+1] })
	permuted, _, err := s.Structurize(g.Permute(perm))
	if errors.Is(err, ErrUnsupported) {
		return Verdict{Status: Pass, Unchecked: PartRenumbering, Detail: "renumbering not checked: " + err.Error()}
	}
	if err != nil {
		return rerunFailed(fmt.Sprintf("structurizing the graph renumbered by %v", perm), err)
	}
	a, err := own.get()
	if err != nil {
		return metaFail(SigOutputCFG, err.Error())
	}
	b, err := readModuleCFG(permuted)
	if err != nil {
		return metaFail(SigOutputCFG, "renumbered: "+err.Error())
	}
	rename := func(id int) int {
		if id < n {
			return perm[id]
		}
		return id
	}
	ca, cb := a.canonicalColours(rename, metaRounds), b.canonicalColours(nil, metaRounds)
	if !equalColours(ca, cb) {
		return metaFail(SigRenumbering, fmt.Sprintf("renumbering %v: %d blocks against %d, canonical forms differ (seed %d)%s", perm, len(ca), len(cb), seed, propertyNote("renumbering_invariant")))
	}
	return Verdict{Status: Pass}
}

func equalColours(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkIdempotence structurizes the module's own CFG (every block of the
// entry point a node) and requires the new module to have no more blocks
// than the first one plus the strategy's fixed overhead: what structurizing
// and emitting adds to the one-block graph (prologue and entry blocks).
// Counting blocks of modules, not synthetic blocks, makes a block that the
// read-back graph cannot keep (an unreachable merge block, which
// Structurize drops) and that the re-run creates again count as nothing.
// The module's CFG has back the cases of a switch past SPIR-V's limit
// that the module had to leave out (withLeftOutCases): the re-run
// structurizes the control flow the structured function declares, not a
// narrower switch that may lay out otherwise.
func checkIdempotence(s *Subject, own *lazyModuleCFG) Verdict {
	mc, err := own.get()
	if err != nil {
		return metaFail(SigOutputCFG, err.Error())
	}
	again, _, err := s.Structurize(withLeftOutCases(mc, s.Graph))
	if errors.Is(err, ErrUnsupported) {
		return Verdict{Status: Pass, Unchecked: PartIdempotence, Detail: "idempotence not checked: " + err.Error()}
	}
	if err != nil {
		return rerunFailed("structurizing the output's CFG", err)
	}
	one, _, err := s.Structurize(cfg.FromSuccs([][]int{{}}))
	if err != nil {
		return rerunFailed("structurizing the one-block graph", err)
	}
	first, err1 := s.entryBlocks()
	second, err2 := entryBlocks(again)
	base, err3 := entryBlocks(one)
	if err := errors.Join(err1, err2, err3); err != nil {
		return metaFail(SigOutputCFG, err.Error())
	}
	if overhead := base - 1; second > first+overhead {
		return metaFail(SigNotIdempotent, fmt.Sprintf("structurizing the output's CFG (%d blocks) gave %d blocks, more than %d + the strategy's overhead %d%s", mc.graph.Len(), second, first, overhead, propertyNote("idempotent")))
	}
	return Verdict{Status: Pass}
}
