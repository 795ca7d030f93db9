// store_fuzz_test.go: the state directory's findings.json. TestStoreDamage
// lists damage a hand edit leaves and the error that names it;
// FuzzReadStore (go test -fuzz '^FuzzReadStore$') reads any bytes: a
// store, or an error naming the file, never a panic. A store that reads
// is one a night can use: its re-runs plan, its classes and the next
// night's state come out without a panic, and written back as
// WriteStateUpdate writes it, it reads again as the same store. The seed
// corpus is a store WriteStateUpdate writes here, and under
// testdata/fuzz/FuzzReadStore, the findings.json of nights run with the
// cfgfuzz binary.
package fuzz

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// storeText is findings.json as WriteStateUpdate writes the store, the
// last good night and the exhaustive walk's next position, naming no
// seen.bloom.
func storeText(t testing.TB, store []StoredSignature, good *GoodNight, next *uint64) []byte {
	b, err := storeBytes(StateUpdate{Store: store, LastGood: good, ExhaustiveNext: next}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sampleStore is findings.json of rerunState's store.
func sampleStore(t testing.TB) []byte {
	next := uint64(42)
	return storeText(t, rerunState().Store, &GoodNight{Night: "2026-12-01", Revision: strings.Repeat("a", 40)}, &next)
}

func TestStoreDamage(t *testing.T) {
	good := string(sampleStore(t))
	if _, err := readStore("findings.json", []byte(good)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"outcome": "invalid"`, `"outcome": invalid`, "findings.json: line 7, column 18: invalid character 'i'"},
		{`"seed": 7`, `"seed": "7"`, "findings.json: line 33, column 21: field signatures.graphs.seed: a JSON string, not a number"},
		{`"seed": 7`, `"seed": -7`, "field signatures.graphs.seed: the number -7, out of range"},
		{`"outcome": "invalid"`, `"outcome": "ok"`, `findings.json: signatures[0] (exec:trace-mismatch): outcome "ok", want one of a finding`},
		{`"signature": "exec:trace-mismatch"`, `"signature": ""`, "findings.json: signatures[0]: no signature"},
		{`"signature": "structurize:crash:exit status N: boom",
      "strategy": "dispatch",`, `"signature": "exec:trace-mismatch",`, "findings.json: signatures[1] (exec:trace-mismatch): the same signature and strategy as signatures[0]"},
		{`"graph": "{{1}, {0, 2}, {}}"`, `"graph": "{{1}, {0, 2}, {}"`, "findings.json: signatures[0] (exec:trace-mismatch): graphs[1]: 1:17: expected ',' or '}'"},
		{`"graph": "{{1}, {0, 2}, {}}"`, `"graph": "{{1}, {0}}"`, "graphs[1]: graph has 2 blocks but 3 weights"},
		{`            16,`, `            -16,`, "graphs[1]: block 0: weight -16 outside"},
		{`"minimized": "{{0, 1}, {}}"`, `"minimized": "{{0, 1}, {}"`, "findings.json: signatures[0] (exec:trace-mismatch): minimized: 1:12: "},
		{`"revision": "aaaa`, `"revision": "--output=x aaaa`, `findings.json: last_good: revision "--output=x aaaa`},
		{`"night": "2026-12-01"`, `"night": "yesterday"`, `findings.json: last_good: night "yesterday": want a date`},
		{`"fixed": "2026-11-29"`, `"fixed": "yesterday"`, `findings.json: signatures[1] ("structurize:crash:exit status N: boom"): fixed "yesterday": want a date YYYY-MM-DD`},
		{`"first_seen": "2026-11-28"`, `"first_seen": "2026-11-31"`, `findings.json: signatures[0] (exec:trace-mismatch): first_seen "2026-11-31": want a date`},
		{`"last_seen": "2026-11-30"`, `"last_seen": ""`, `findings.json: signatures[0] (exec:trace-mismatch): last_seen "": want a date`},
		{`"last_seen": "2026-11-30"`, `"last_seen": "2026-11-27"`, `findings.json: signatures[0] (exec:trace-mismatch): last_seen 2026-11-27 before first_seen 2026-11-28`},
		{`"last_seen": "2026-11-30"`, `"last_sene": "2026-11-30"`, `findings.json: signatures[0] (exec:trace-mismatch): unknown key "last_sene" (misspelt?`},
		{`"seed": 7`, `"seed": 7, "sede": 7`, `findings.json: signatures[0] (exec:trace-mismatch): unknown key "sede"`},
		{`"night": "2026-12-01"`, `"night": "2026-12-01", "nite": "x"`, `findings.json: last_good: unknown key "nite"`},
		{`"exhaustive_next": 42`, `"exhaustive_nxt": 42`, `findings.json: unknown key "exhaustive_nxt"`},
		{`cfgfuzz-state/v1`, `cfgfuzz-state/v2`, `findings.json: schema "cfgfuzz-state/v2": a newer state format than this cfgfuzz reads ("cfgfuzz-state/v1")`},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("%s is not in the store:\n%s", c.from, good)
		}
		if _, err := readStore("findings.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: %v; want %s", c.from, c.to, err, c.want)
		}
	}
}

// TestStoreExhaustiveNextBounded: an exhaustive_next past 2^63, from
// which the walk would wrap past 2^64, is damage named by the file and the
// key; 2^63 itself reads. A night whose walk ends past it records the
// position of the same graph modulo the growing order's length, one a
// state reads.
func TestStoreExhaustiveNextBounded(t *testing.T) {
	good := string(sampleStore(t))
	for _, next := range []string{"9223372036854775809", "18446744073709551615"} {
		bad := strings.Replace(good, `"exhaustive_next": 42`, `"exhaustive_next": `+next, 1)
		want := "findings.json: exhaustive_next " + next + ": past 2^63"
		if _, err := readStore("findings.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("exhaustive_next %s: %v; want %s", next, err, want)
		}
	}
	top := strings.Replace(good, `"exhaustive_next": 42`, `"exhaustive_next": 9223372036854775808`, 1)
	if f, err := readStore("findings.json", []byte(top)); err != nil || *f.ExhaustiveNext != MaxExhaustiveNext {
		t.Errorf("exhaustive_next 2^63: %v", err)
	}
	for _, p := range []uint64{MaxExhaustiveNext + 1, math.MaxUint64} {
		got := exhaustiveNext(p)
		if got > MaxExhaustiveNext || cfg.FormatCompact(gen.GrowingAt(got)) != cfg.FormatCompact(gen.GrowingAt(p)) {
			t.Errorf("a walk ending at %d records %d: want a position of at most 2^63 with the same graph", p, got)
		}
	}
	if got := exhaustiveNext(MaxExhaustiveNext); got != MaxExhaustiveNext {
		t.Errorf("a walk ending at 2^63 records %d", got)
	}
}

// TestStoreRegressedOutOfOrder: a regression fixed after the night it
// regressed is damage, named.
func TestStoreRegressedOutOfOrder(t *testing.T) {
	st := rerunState()
	e := st.Store[0]
	e.Regressed = &Regressed{Night: "2026-11-30", FixedSince: "2026-11-29"}
	st.Store[0] = e
	if _, err := readStore("findings.json", storeText(t, st.Store, nil, nil)); err != nil {
		t.Fatalf("in order: %v", err)
	}
	e.Regressed = &Regressed{Night: "2026-11-29", FixedSince: "2026-11-30"}
	st.Store[0] = e
	want := "regressed.fixed_since 2026-11-30 after regressed.night 2026-11-29"
	if _, err := readStore("findings.json", storeText(t, st.Store, nil, nil)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("out of order: %v, want %q", err, want)
	}
}

func FuzzReadStore(f *testing.F) {
	good := sampleStore(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"schema": "cfgfuzz-state/v1", "signatures": []}`))
	f.Add([]byte(`{"schema": "cfgfuzz-state/v1", "signatures": null}`))
	f.Add([]byte(`{"schema": "cfgfuzz-state/v1", "signatures": [{"signature": "x", "outcome": "crash", "graphs": [{"graph": "{{}}", "weights": [3]}]}]}`))
	f.Add([]byte{})
	seen := NewBloom()
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := readStore("in/findings.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in/findings.json: ") {
				t.Fatalf("%q: error %q does not name the file", data, err)
			}
			return
		}
		state := &State{Store: st.Signatures, LastGood: st.LastGood, ExhaustiveNext: st.ExhaustiveNext, Triage: map[string]TriageEntry{}, Seen: seen}
		sortStore(state.Store)
		plan := rerunPlan(state)
		for i := range plan {
			plan[i].Result = SideResult{Outcome: []string{OutOK, OutInvalid, OutError}[i%3], Signature: "exec:trace-mismatch"}
		}
		rep := &Report{Settings: Settings{Night: "2026-12-02", Current: "self"}, Findings: []Finding{}}
		rep.State = ClassifyState(state, rep, plan)
		up := NextState(state, rep, nil)
		for _, e := range up.Store {
			for _, g := range e.Graphs {
				if _, err := graphOfKept(g); err != nil {
					t.Fatalf("%q: the next night keeps a graph that does not read: %v", data, err)
				}
			}
		}
		text := storeText(t, state.Store, state.LastGood, state.ExhaustiveNext)
		again, err := readStore("in/findings.json", text)
		if err != nil {
			t.Fatalf("%q read, written back as\n%s\ndoes not read: %v", data, text, err)
		}
		sortStore(again.Signatures)
		if text2 := storeText(t, again.Signatures, again.LastGood, again.ExhaustiveNext); !bytes.Equal(text, text2) {
			t.Fatalf("%q written back as\n%s\nreads and writes back as\n%s", data, text, text2)
		}
	})
}
