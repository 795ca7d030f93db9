// sideseam.go: classifyAnswer, the one reading of a side's answer (outcome,
// signature, detail) that the campaign's workers and the corpus runner
// share, and SideStructurizer, a Side as corpus.StructurizeFunc, through
// which `check`, `minimize`, `regress`, the campaign's minimizer and the
// findings store judge any structurizer (fuzz.Spec) exactly as the
// campaign does. Signatures come from oracle.HarnessSignature, the one
// normalization table (oracle/SIGNATURES.md).

package fuzz

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// classifyAnswer reads an answer: OutOK (a module or function to check,
// no signature), OutRefused (corpus.SigRefused), OutPanic, OutTimeout,
// OutCrash and OutInvalid (an error on a valid graph) with their harness
// signatures, or OutError (the request could not be served, or the
// structurizer did not start: not a finding). detail is the reason's first line. The signature of a protocol
// violation names the rule broken alone (Answer.Signed).
func classifyAnswer(a Answer) (outcome, sig, detail string) {
	switch a.Outcome {
	case proto.OK:
		return OutOK, "", ""
	case proto.Refused:
		return OutRefused, corpus.SigRefused, a.Reason
	case OutUnsupported:
		return OutUnsupported, "", firstLine(a.Reason)
	case OutPanic, OutTimeout, OutCrash:
		why := a.Reason
		if a.Signed != "" {
			why = a.Signed
		}
		return a.Outcome, harnessSignature(a.Outcome, why), firstLine(a.Reason)
	case proto.Error:
		if !a.NotStarted && !strings.HasPrefix(a.Reason, proto.RequestError) {
			return OutInvalid, harnessSignature("error", a.Reason), firstLine(a.Reason)
		}
	}
	return OutError, "", firstLine(a.Outcome + ": " + a.Reason)
}

// answerRecord is an answer as answer.json of a findings-store entry
// holds it: the protocol response's fields (PROTOCOL.md), module in base64.
type answerRecord struct {
	Outcome string              `json:"outcome"`
	Reason  string              `json:"reason,omitempty"`
	Stats   *structurizer.Stats `json:"stats,omitempty"`
	Module  []byte              `json:"module,omitempty"`
	Func    *structurizer.Func  `json:"func,omitempty"`
	// FuncCut is the size of a func longer than MaxKeptFunc, not kept.
	FuncCut int `json:"func_cut,omitempty"`
	// Stderr is the server's standard error tail when it died.
	Stderr string `json:"stderr,omitempty"`
}

// AnswerJSON is the answer as a findings-store entry keeps it.
func AnswerJSON(a Answer) []byte {
	f, cut := boundedFunc(a.Func)
	b, err := json.MarshalIndent(answerRecord{Outcome: a.Outcome, Reason: a.Reason, Stats: a.Stats, Module: a.Module, Func: f, FuncCut: cut, Stderr: a.Stderr}, "", "  ")
	if err != nil {
		return nil
	}
	return append(b, '\n')
}

// NotStartedError is the harness error (corpus.Structurized.Err) that
// SideStructurizer gives a graph whose structurizer server answered
// nothing, not even the protocol's hello, within the call limit and its
// start-up allowance (Answer.NotStarted): a command that judges graphs one
// after another counts these (UnstartedStop).
type NotStartedError struct {
	Detail string
}

func (e *NotStartedError) Error() string { return e.Detail }

// NotStarted says whether err is, or wraps, a NotStartedError.
func NotStarted(err error) bool {
	var ns *NotStartedError
	return errors.As(err, &ns)
}

// SideStructurizer structurizes through side with opt, each call within
// limit, as corpus.StructurizeFunc. The side is not safe for concurrent
// use, so neither is the function.
func SideStructurizer(side Side, opt proto.Options, limit time.Duration) corpus.StructurizeFunc {
	return func(g *cfg.Graph) corpus.Structurized {
		start := time.Now()
		a := side.Structurize(g.Clone(), opt, limit)
		s := corpus.Structurized{Stats: a.Stats, Answer: AnswerJSON(a), Info: InfoOf(a, opt, time.Since(start))}
		out, sig, detail := classifyAnswer(a)
		switch out {
		case OutOK:
			mod, err := ModuleFor(a, opt)
			var ue *emit.UnsupportedError
			switch {
			case errors.As(err, &ue): // too wide to encode: emit/CONVENTION.md "Limits"
				s.Unsupported, s.Detail = true, ue.Error()
				return s
			case err != nil:
				s.Failure, s.Detail = corpus.SigEmit, err.Error()
				return s
			}
			s.Module = mod
		case OutError:
			s.Err = errors.New(detail)
			if a.NotStarted {
				s.Err = &NotStartedError{Detail: detail}
			}
		case OutUnsupported:
			s.Unsupported, s.Detail = true, a.Reason
		default:
			s.Failure, s.Detail = sig, detail
		}
		return s
	}
}
