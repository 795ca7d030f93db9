// keptfunc_test.go: the findings store's answer.json keeps a function
// within MaxKeptFunc.
package fuzz

import (
	"encoding/json"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// TestAnswerJSONBoundsAHugeFunc: the findings store's answer.json of an
// answer whose function is megabytes keeps its size, not the function;
// a small function is kept whole.
func TestAnswerJSONBoundsAHugeFunc(t *testing.T) {
	huge := &structurizer.Func{Blocks: []structurizer.Block{{Stores: make([]structurizer.Store, 100000)}}}
	var rec answerRecord
	b := AnswerJSON(Answer{Outcome: "ok", Func: huge})
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if len(b) > MaxKeptFunc || rec.Func != nil || rec.FuncCut <= MaxKeptFunc {
		t.Errorf("answer.json of a huge func: %d bytes, func kept %v, func_cut %d", len(b), rec.Func != nil, rec.FuncCut)
	}
	small := &structurizer.Func{Blocks: []structurizer.Block{{Name: "entry"}}}
	rec = answerRecord{}
	if err := json.Unmarshal(AnswerJSON(Answer{Outcome: "ok", Func: small}), &rec); err != nil || rec.Func == nil || rec.FuncCut != 0 {
		t.Errorf("answer.json of a small func: func kept %v, func_cut %d (%v)", rec.Func != nil, rec.FuncCut, err)
	}
}
