// seam.go defines Structurized and StructurizeFunc, the seam through which
// a Runner judges any structurizer, not only this tree's: package fuzz
// adapts a fuzz.Side (an external program speaking the protocol, a built
// revision, the in-process tree) to a StructurizeFunc, so the minimizer,
// the findings store and the regression suite judge an external
// structurizer exactly as the campaign does: its module, its verdicts, its
// statistics, its answer.

package corpus

import (
	"errors"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Structurized is what a structurizer made of one graph.
type Structurized struct {
	// Module is the SPIR-V module (nil when the structurizer failed).
	Module []byte
	// Info describes the structurization for the growth and meta checks.
	Info oracle.ResultInfo
	// Stats are the structurizer's own statistics (nil when it sent none).
	Stats *structurizer.Stats
	// Failure is the signature of an answer that carries no module (a
	// refusal, a panic, a timeout, a crash, an error, a function the
	// emitter rejects: oracle.HarnessSignature's forms); "" when Module is
	// set. Detail is its text.
	Failure, Detail string
	// Answer is the structurizer's answer as a findings-store entry keeps
	// it (answer.json); nil for the in-process structurizer.
	Answer []byte
	// Err is a harness error (the request could not be served): not a
	// finding.
	Err error
	// Unsupported says the structurizer declared it does not serve the
	// graph (a protocol v2 declaration; PROTOCOL.md): it was not sent, no
	// module, no finding. Detail says why.
	Unsupported bool
}

// StructurizeFunc structurizes one graph. It must not panic.
type StructurizeFunc func(g *cfg.Graph) Structurized

// checkOf is the check part of a signature ("structurize" of
// "structurize:panic:...").
func checkOf(sig string) string {
	if i := strings.IndexByte(sig, ':'); i >= 0 {
		return sig[:i]
	}
	return sig
}

// Judge judges g through the seam: a failure without a module is its
// own verdict; a module is checked by orc, whose meta check re-runs the
// seam.
func Judge(fn StructurizeFunc, g *cfg.Graph, orc *oracle.Oracle) Outcome {
	s := fn(g)
	if s.Err != nil {
		return Outcome{Err: s.Err}
	}
	if s.Unsupported {
		return Outcome{Unsupported: s.Detail}
	}
	if s.Failure != "" {
		f := failure(s.Failure, checkOf(s.Failure), s.Detail)
		f.Stats, f.Answer, f.Took = s.Stats, s.Answer, s.Info.Duration
		return f
	}
	out := Outcome{Stats: s.Stats, Module: s.Module, Answer: s.Answer, Took: s.Info.Duration}
	sub := &oracle.Subject{Graph: g, Module: s.Module, Info: s.Info, Structurize: rerunSeam(fn)}
	out.Verdicts = oracle.RetimeSlow(orc, sub, nil, orc.Check(sub), func() time.Duration {
		if again := fn(g); again.Failure == "" && again.Err == nil {
			return again.Info.Duration
		}
		return sub.Info.Duration
	})
	out.Took = sub.Info.Duration
	if v := oracle.Failed(out.Verdicts); v != nil {
		out.Signature = v.Signature
	} else if v := oracle.Errored(out.Verdicts); v != nil {
		out.Err = errors.New(v.Check + ": " + v.Detail)
	}
	return out
}

// rerunSeam is the oracle's re-run (meta) through the seam: a failure the
// seam gave a signature (a refusal, panic, crash, timeout) is an
// *oracle.RerunFailure carrying it, a harness error (Structurized.Err) an
// *oracle.RerunHarnessError.
func rerunSeam(fn StructurizeFunc) oracle.StructurizeFunc {
	return func(g *cfg.Graph) ([]byte, oracle.ResultInfo, error) {
		s := fn(g)
		switch {
		case s.Err != nil: // a harness error, as on a first run (Judge)
			return nil, oracle.ResultInfo{}, &oracle.RerunHarnessError{Detail: s.Err.Error()}
		case s.Unsupported: // meta does not check what the side does not serve
			return nil, oracle.ResultInfo{}, oracle.Unsupported(s.Detail)
		case s.Failure != "":
			return nil, oracle.ResultInfo{}, &oracle.RerunFailure{Signature: s.Failure, Detail: s.Detail}
		}
		return s.Module, s.Info, nil
	}
}
