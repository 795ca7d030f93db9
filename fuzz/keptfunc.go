// keptfunc.go bounds the structured function a finding keeps from the
// structurizer under test (its record, report.json and the findings
// store's answer.json), as its other texts are bounded (clipText): a
// server may answer with a function of up to --max-answer, megabytes,
// which every record and report of the graph would hold. One longer than
// MaxKeptFunc is not kept; its size is (func_cut), and the report's
// picture says so.

package fuzz

import (
	"encoding/json"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// MaxKeptFunc bounds the JSON of a structured function a finding keeps:
// 256 KiB, well past a function of the 400 blocks a picture draws.
const MaxKeptFunc = 256 << 10

// boundedFunc is f when its JSON is at most MaxKeptFunc bytes; else nil
// and that size.
func boundedFunc(f *structurizer.Func) (*structurizer.Func, int) {
	if f == nil {
		return nil, 0
	}
	b, err := json.Marshal(f)
	if err != nil || len(b) <= MaxKeptFunc {
		return f, 0
	}
	return nil, len(b)
}

// boundFunc drops r's function when it is longer than MaxKeptFunc,
// noting its size (FuncCut).
func (r *SideResult) boundFunc() {
	r.Func, r.FuncCut = boundedFunc(r.Func)
}
