// unsupported_test.go: a campaign records a function the emitter cannot
// encode as refused ("unsupported: ..."), any other emitter error as the
// finding emit:malformed-function.
package fuzz

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestWideSwitchIsRefusedNotAFinding(t *testing.T) {
	n := 32_767
	succs := [][]int{make([]int, n)}
	for i := range n {
		succs[0][i] = 1 + i
		succs = append(succs, nil)
	}
	res, err := structurizer.Structurize(cfg.FromSuccs(succs), structurizer.Options{Strategy: "dispatch"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ModuleOf(Answer{Outcome: "ok", Func: res.Func})
	if outcome, sig, detail := emitOutcome(err); outcome != OutRefused || sig != "" || !strings.HasPrefix(detail, "unsupported:") {
		t.Fatalf("got %q %q %q", outcome, sig, detail)
	}
	if outcome, sig, _ := emitOutcome(errString("emit: block 3: no such target")); outcome != OutInvalid || sig != "emit:malformed-function" {
		t.Fatalf("another emitter error: %q %q", outcome, sig)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
