// metaclaims_test.go: meta checks only the properties a structurizer
// claims (ResultInfo.NotDeterministic, NotRenumberingInvariant; a protocol
// v2 declaration): the same planted fault fails when claimed and passes,
// saying so, when not.
package oracle

import (
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestMetaChecksOnlyClaims(t *testing.T) {
	real := dispatchSeam("dispatch")
	for _, c := range []struct {
		name    string
		seam    func(calls *int) StructurizeFunc
		unclaim func(*ResultInfo)
		sig     string
	}{
		{"determinism", func(calls *int) StructurizeFunc {
			return func(g *cfg.Graph) ([]byte, ResultInfo, error) {
				*calls++
				if *calls == 2 { // the rerun gives another module
					g2 := g.Clone()
					g2.Weights[0] += 4
					return real(g2)
				}
				return real(g)
			}
		}, func(i *ResultInfo) { i.NotDeterministic = true }, "meta:" + SigNondeterministic},
		{"renumbering invariance", func(calls *int) StructurizeFunc {
			return func(g *cfg.Graph) ([]byte, ResultInfo, error) {
				*calls++
				if *calls > 2 { // the renumbered run drops an edge
					g2 := g.Clone()
					for b := range g2.Succs {
						if len(g2.Succs[b]) == 2 {
							g2.Succs[b] = g2.Succs[b][:1]
							break
						}
					}
					return real(g2)
				}
				return real(g)
			}
		}, func(i *ResultInfo) { i.NotRenumberingInvariant = true }, "meta:" + SigRenumbering},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			s := subjectOf(t, loopGraph, c.seam(&calls))
			if v := (&Oracle{}).checkMeta(s); v.Status != Fail || v.Signature != c.sig {
				t.Fatalf("claimed: want %s, got %+v", c.sig, v)
			}
			calls = 0
			s = subjectOf(t, loopGraph, c.seam(&calls))
			c.unclaim(&s.Info)
			v := (&Oracle{}).checkMeta(s)
			if v.Status != Pass || !strings.Contains(v.Detail, "not claimed") {
				t.Fatalf("not claimed: want a pass saying so, got %+v", v)
			}
		})
	}
}

// TestRerunFailuresAreNamed: a re-run that fails with a signature (a
// seam's RerunFailure) is named by it, so two re-runs that fail
// differently are two findings; any other error is meta:rerun-failed.
func TestRerunFailuresAreNamed(t *testing.T) {
	real := dispatchSeam("structured") // claims idempotence: meta re-runs the output's CFG
	failOn := func(call int, err error) StructurizeFunc {
		calls := 0
		return func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			if calls++; calls == call {
				return nil, ResultInfo{}, err
			}
			return real(g)
		}
	}
	for _, c := range []struct {
		name string
		call int // 1: the same graph again, 2: renumbered, 3: the output's CFG
		err  error
		sig  string
	}{
		{"panic again", 1, &RerunFailure{Signature: HarnessSignature(HarnessPanic, "index out of range [7] with length 7"), Detail: "index out of range [7] with length 7"},
			"meta:rerun-failed:panic:index out of range [N] with length N"},
		{"crash renumbered", 2, &RerunFailure{Signature: HarnessSignature(HarnessCrash, "Segmentation fault"), Detail: "Segmentation fault"},
			"meta:rerun-failed:crash:Segmentation fault"},
		{"timeout on the output", 3, &RerunFailure{Signature: HarnessSignature(HarnessTimeout, "no answer"), Detail: "no answer"},
			"meta:rerun-failed:timeout"},
		{"refused", 1, &RerunFailure{Signature: "structurize:refused", Detail: "too big"}, "meta:rerun-failed:refused"},
		{"an error the seam did not name", 1, errors.New("boom"), "meta:rerun-failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := subjectOf(t, loopGraph, failOn(c.call+1, c.err)) // call 1 made the subject's module
			v := (&Oracle{}).checkMeta(s)
			if v.Status != Fail || v.Signature != c.sig {
				t.Fatalf("want %s, got %+v", c.sig, v)
			}
			if !KnownSignature(v.Signature) {
				t.Errorf("%s is not in the signature table", v.Signature)
			}
			if !strings.Contains(v.Detail, c.err.Error()) {
				t.Errorf("detail %q does not say %q", v.Detail, c.err)
			}
		})
	}
}

// TestRerunHarnessErrorsAreNoFinding: a re-run the harness could not make
// (a seam's RerunHarnessError: a request error, a structurizer that did
// not start) is a harness error of meta, at each of its re-runs, never a
// failure.
func TestRerunHarnessErrorsAreNoFinding(t *testing.T) {
	real := dispatchSeam("structured") // claims idempotence: meta re-runs the output's CFG
	for call := 1; call <= 4; call++ { // the same graph, renumbered, the output's CFG, one block
		calls := 0
		s := subjectOf(t, loopGraph, func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			if calls++; calls == call+1 { // call 1 made the subject's module
				return nil, ResultInfo{}, &RerunHarnessError{Detail: "error: request: busy"}
			}
			return real(g)
		})
		if v := (&Oracle{}).checkMeta(s); v.Status != Error || !strings.Contains(v.Detail, "request: busy") {
			t.Errorf("re-run %d: %+v, want a harness error that says the request error", call, v)
		}
	}
}

// TestMetaSaysWhatItCouldNotTest: a claimed property whose re-run the
// structurizer does not serve (ErrUnsupported: the renumbered graph, the
// module's own CFG) passes meta with that part unchecked, not as tested.
func TestMetaSaysWhatItCouldNotTest(t *testing.T) {
	real := dispatchSeam("dispatch")
	for _, c := range []struct {
		name  string
		after int // re-runs served before the refusals
		part  string
	}{
		{"renumbering", 1, PartRenumbering},
		{"idempotence", 2, PartIdempotence},
	} {
		s := subjectOf(t, loopGraph, real)
		s.Info.Idempotent = true
		calls := 0 // the same graph again, renumbered, the module's CFG
		s.Structurize = func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			calls++
			if calls > c.after && !isOne(g) {
				return nil, ResultInfo{}, ErrUnsupported
			}
			return real(g)
		}
		v := (&Oracle{}).checkMeta(s)
		if v.Status != Pass || !strings.Contains(v.Unchecked, c.part) || !strings.Contains(v.Detail, c.part+" not checked") {
			t.Errorf("%s unsupported: %+v, want a pass with %s unchecked", c.name, v, c.part)
		}
	}
}

// isOne says whether g is the one-block graph idempotence also asks for.
func isOne(g *cfg.Graph) bool { return g.Len() == 1 && len(g.Succs[0]) == 0 }

// TestUnsupportedSaysItOnce: the structurizer's reason follows
// ErrUnsupported's words without repeating "unsupported".
func TestUnsupportedSaysItOnce(t *testing.T) {
	for reason, want := range map[string]string{
		"unsupported: more than 6 blocks": "unsupported by the structurizer: more than 6 blocks",
		"switches":                        "unsupported by the structurizer: switches",
	} {
		err := Unsupported(reason)
		if !errors.Is(err, ErrUnsupported) || err.Error() != want {
			t.Errorf("Unsupported(%q) = %q (errors.Is %v), want %q", reason, err, errors.Is(err, ErrUnsupported), want)
		}
	}
}
