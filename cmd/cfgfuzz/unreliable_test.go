package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

// TestUnreliableSaysWhy: minimize calls a result flaky only when its
// judgements disagreed; a judgement that could not be made (a harness
// error) is named as such, and either way no regression is saved.
func TestUnreliableSaysWhy(t *testing.T) {
	all := corpus.Tally{Failed: 3, Judged: 3}
	for _, c := range []struct {
		name      string
		res       corpus.Result
		want, not string
	}{
		{"reliable", corpus.Result{Original: all, Confirmed: all, Verified: true}, "", ""},
		{"original mixed", corpus.Result{Original: corpus.Tally{Failed: 2, Judged: 3}, Confirmed: all, Verified: true}, "flaky: ", ""},
		{"result mixed", corpus.Result{Original: all, Confirmed: corpus.Tally{Failed: 1, Judged: 3}}, "flaky: ", ""},
		{"a judgement not made", corpus.Result{Original: all, Confirmed: corpus.Tally{Failed: 2, Judged: 2}, RejudgeErr: errors.New("spirv-val: no verdict")},
			"could not judge the result again (spirv-val: no verdict)", "flaky"},
		{"baseline fails", corpus.Result{Original: all, Confirmed: all, BaselineFails: "fake:old"}, "the baseline fails the result too", "flaky"},
	} {
		err := unreliable(&c.res)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want none", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || c.not != "" && strings.Contains(err.Error(), c.not)):
			t.Errorf("%s: %v, want %q without %q", c.name, err, c.want, c.not)
		case c.want != "" && !strings.Contains(err.Error(), "no regression"):
			t.Errorf("%s: %v does not say no regression is saved", c.name, err)
		}
	}
}
