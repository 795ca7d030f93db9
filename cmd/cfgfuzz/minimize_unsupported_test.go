// minimize_unsupported_test.go: a candidate the structurizer declared it
// does not serve (outcome unsupported, protocol v2) does not fail, and is
// no error of the minimizer.
package main

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestAnswerFailureUnsupported(t *testing.T) {
	sig, err, done := answerFailure(fuzz.Answer{Outcome: fuzz.OutUnsupported, Reason: "unsupported: switches"})
	if sig != "" || err != nil || !done {
		t.Errorf("unsupported: signature %q, error %v, done %v; want no failure", sig, err, done)
	}
}
