// recorded_fields_test.go: the note on a file whose header records another
// judging (recordedMismatch) and the adoption of the header's judging
// (adopt, as minimize and check take it) walk one table of fields: every
// field of the header but its structurizer and its bookkeeping is named
// by both, in the same words, and taking it leaves nothing to note.
package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// headerNotJudging are the header's fields that say nothing of how the
// graph is judged on a given structurizer: the structurizer itself, with
// the build and serve commands of a repo: one, is named by
// recordedMismatch alone and never taken.
var headerNotJudging = map[string]bool{"Signature": true, "Expect": true, "Origin": true, "Date": true, "Notes": true, "Structurizer": true,
	"Build": true, "Serve": true}

// recordedValues sets each judging field of a header to a value other
// than its default.
var recordedValues = map[string]func(h *corpus.Header){
	"Fault":        func(h *corpus.Header) { h.Fault = "swap-arms" },
	"Strategy":     func(h *corpus.Header) { h.Strategy = "dispatch" },
	"Registers":    func(h *corpus.Header) { h.Registers = 5 },
	"TargetEnv":    func(h *corpus.Header) { h.TargetEnv = "vulkan1.3" },
	"RulesCompat":  func(h *corpus.Header) { h.RulesCompat = oracle.CompatSPIRVTools2023 },
	"Walks":        func(h *corpus.Header) { h.Walks = &corpus.Walks{Random: 3, Seed: 9} },
	"Checks":       func(h *corpus.Header) { h.Checks = "-growth,-fallback" },
	"Timeout":      func(h *corpus.Header) { h.Timeout = 7 * time.Second },
	"CheckTimeout": func(h *corpus.Header) { h.CheckTimeout = 3 * time.Minute },
	"GrowthTime":   func(h *corpus.Header) { h.GrowthTime = 2 * time.Second },
}

// defaultJudging is check's and minimize's judging with no flag given.
func defaultJudging() usedJudging {
	return usedJudging{spec: fuzz.Spec{Kind: fuzz.SpecSelf}, walks: corpus.DefaultWalks, timeout: fuzz.DefaultTimeout, plants: true,
		judge: judgeFlags{checkTimeout: fuzz.DefaultCheckTimeout, growthTime: fuzz.DefaultGrowthTime, targetEnv: oracle.DefaultTargetEnv}}
}

func TestRecordedFieldsNotedAndTakenAlike(t *testing.T) {
	var all corpus.Header
	ht := reflect.TypeOf(all)
	for i := range ht.NumField() {
		name := ht.Field(i).Name
		if headerNotJudging[name] {
			continue
		}
		set, ok := recordedValues[name]
		if !ok {
			t.Errorf("corpus.Header.%s: neither a judging field of recordedValues nor in headerNotJudging: say whether check and minimize take it (recordedFields)", name)
			continue
		}
		set(&all)
		var h corpus.Header
		set(&h)
		noted := defaultJudging().mismatched(h)
		u := defaultJudging()
		taken := u.adopt(h, nil)
		want := 1
		if name == "Walks" {
			want = 2 // --walks and --seed, each taken where left out
		}
		if len(noted) != want || !reflect.DeepEqual(noted, taken) {
			t.Errorf("header recording %s alone: noted %q, taken %q; want %d flags, the same in both", name, noted, taken, want)
		}
		if left := u.mismatched(h); len(left) > 0 {
			t.Errorf("header recording %s alone: after taking it, still noted %q", name, left)
		}
		// check --json names what it took by the flags that take it.
		values := adoptedValues(h, nil)
		if len(values) == 0 {
			t.Errorf("header recording %s alone: check --json's from_header names nothing", name)
		}
		for flag := range values {
			if !slices.ContainsFunc(recordedFields, func(f recordedField) bool { return f.records(h) && slices.Contains(f.flags, flag) }) {
				t.Errorf("header recording %s alone: from_header names %q, not a flag of the field taken", name, flag)
			}
		}
	}
	noted := defaultJudging().mismatched(all)
	u := defaultJudging()
	taken := u.adopt(all, nil)
	if !reflect.DeepEqual(noted, taken) || len(noted) != len(recordedFields) {
		t.Errorf("header recording every field:\nnoted %q\ntaken %q\nwant the same %d flags", noted, taken, len(recordedFields))
	}
	if left := u.mismatched(all); len(left) > 0 {
		t.Errorf("header recording every field: after taking them, still noted %q", left)
	}
	// A flag given wins: that field is neither taken nor agreed with.
	for _, f := range recordedFields {
		given := map[string]bool{}
		for _, n := range f.flags {
			given[n] = true
		}
		u := defaultJudging()
		word := f.word(all)
		if taken := u.adopt(all, given); strings.Contains(strings.Join(taken, " "), word) || len(taken) != len(recordedFields)-1 {
			t.Errorf("--%s given: took %q, want every field but %q", strings.Join(f.flags, ", --"), taken, word)
		}
		if left := u.mismatched(all); !reflect.DeepEqual(left, []string{word}) {
			t.Errorf("--%s given: noted %q, want %q alone", strings.Join(f.flags, ", --"), left, word)
		}
	}
}
