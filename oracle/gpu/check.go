// check.go: the `gpu` check, independent of the oracle's check table so the
// oracle and the campaign engine can call it: walks of the original graph
// replayed on the driver and compared with oracle.CompareWalks. Driver
// failures are status "error", never findings.

package gpu

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// CheckName is the check's name in verdicts and signatures.
const CheckName = "gpu"

// SigInvalidModule is the gpu check's signature (after "gpu:") for a
// module the validator rejects, which the check does not run.
const SigInvalidModule = "invalid-module"

// Check runs the walks of g chosen by walkOpt through ex (normally an
// *Executor; any oracle.Executor works) and compares the traces, then the
// filler's sinks with the interpreter's (CompareSinks). Walks cut
// at the step cap are sent too wherever Prepare says the invocation will
// end: the module records the walk's prefix and later falls out of its
// loops, which the comparison of capped walks accepts.
// Verdict: Check "gpu"; Pass (its detail says so where the interpreter
// could not run the module for the sinks); Fail with signature
// "gpu:<exec signature>" or "gpu:sink-differs"; Skip when no walk can be
// sent; Error on a driver failure.
func Check(ex oracle.Executor, g *cfg.Graph, module []byte, walkOpt oracle.WalkOptions) oracle.Verdict {
	run, capped := Prepare(ex, module)
	walks := oracle.Walks(g, walkOpt)
	if !capped {
		walks = returnedWalks(walks)
	}
	if len(walks) == 0 {
		return oracle.Verdict{Check: CheckName, Status: oracle.Skip, Detail: "no walk returns within the step cap, and the module's loops cannot be bounded"}
	}
	rec := &recorder{ex: ex}
	r := oracle.CompareWalks(rec, run, walks)
	switch {
	case rec.err != nil && IsDriverError(rec.err):
		return oracle.Verdict{Check: CheckName, Status: oracle.Error, Detail: Unprefixed(rec.err)}
	case r.Harness != nil:
		return oracle.Verdict{Check: CheckName, Status: oracle.Error, Detail: r.Harness.Error()}
	case r.Signature == "":
		r = CompareSinks(module, walks, rec.obs)
	}
	switch {
	case r.Harness != nil:
		return oracle.Verdict{Check: CheckName, Status: oracle.Pass,
			Detail: fmt.Sprintf("%d walks on %s; sinks not compared: %s", len(walks), ex.Name(), Unprefixed(r.Harness))}
	case r.Signature == "":
		return oracle.Verdict{Check: CheckName, Status: oracle.Pass, Detail: fmt.Sprintf("%d walks on %s, sinks compared", len(walks), ex.Name())}
	}
	return oracle.Verdict{Check: CheckName, Status: oracle.Fail, Signature: CheckName + ":" + r.Signature,
		Detail: ex.Name() + ": " + r.Detail}
}

// Prepare returns the module to run on ex and whether walks cut at the
// step cap may be sent with it. A driver that cuts runaway loops
// (DeviceInfo.CutsLoops: lavapipe before Mesa 23) runs the module as it is,
// every walk included, with the lane guard added when the module lacks it
// (Guard: that driver's lanes past the workgroup would otherwise spend the
// loop limit; emit's modules have it and run unchanged). Elsewhere the driver runs the module bounded
// (Bound, BackEdgeLimit back edges per invocation), so neither a cut walk
// nor a wrong module can keep the device busy; a module Bound refuses runs
// as it is with the walks that returned only, and a wrong one can still
// run away until the fence times out.
func Prepare(ex oracle.Executor, module []byte) (run []byte, capped bool) {
	if cutsLoops(ex) {
		if gm, err := Guard(module); err == nil {
			return gm, true
		}
		return module, true
	}
	if bm, err := Bound(module, BackEdgeLimit); err == nil {
		return bm, true
	}
	return module, false
}

// Unprefixed is err's text without the package's "gpu: ", for a verdict
// of the check, whose name already leads it.
func Unprefixed(err error) string { return strings.TrimPrefix(err.Error(), "gpu: ") }

// cutsLoops reports whether ex describes a device that cuts runaway loops.
func cutsLoops(ex oracle.Executor) bool {
	d, ok := ex.(interface{ Info() DeviceInfo })
	return ok && d.Info().CutsLoops()
}

func returnedWalks(ws []oracle.Walk) []oracle.Walk {
	out := ws[:0:0]
	for _, w := range ws {
		if w.Returned {
			out = append(out, w)
		}
	}
	return out
}

// recorder passes Execute through and keeps its observations and error,
// so Check can tell a driver failure (which CompareWalks would call
// "unloadable") from a finding, and compare the sinks.
type recorder struct {
	ex  oracle.Executor
	obs []spirv.Observed
	err error
}

func (r *recorder) Name() string { return r.ex.Name() }

func (r *recorder) Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	obs, err := r.ex.Execute(module, batch, walks)
	r.obs, r.err = obs, err
	return obs, err
}

// Replay is an oracle.Executor that returns observations made earlier (by
// Executor.Time, say), so they can be judged by oracle.CompareWalks without
// running the module again.
type Replay struct {
	Observed []spirv.Observed
	Device   string
}

// Name is the device the observations came from.
func (r Replay) Name() string { return r.Device }

// Execute returns the stored observations.
func (r Replay) Execute([]byte, *spirv.Batch, int) ([]spirv.Observed, error) { return r.Observed, nil }
