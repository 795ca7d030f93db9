// malformed_modules_test.go: every check that reads a module (rules, the
// lint entry CheckRules, spirv-val, exec, growth) on seeded byte and word
// mutations of real modules of both strategies: damageWords (operands,
// opcodes, word counts, cut short), a header word changed (magic, version,
// bound, schema), an instruction's word count rewritten, bytes inserted,
// deleted or flipped (misaligned, big-endian halves). 0 panics and 0 hangs:
// each case runs under a watchdog of malformedCaseLimit. 300 cases by
// default, 10,000 with -long. Seeded; the seed is logged.
package oracle

import (
	bin "encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var long = flag.Bool("long", false, "run the long robustness tests (10,000 malformed modules)")

// malformedCaseLimit is the most one malformed case may take: far above
// what a 12-block module costs (about a millisecond), so only a hang
// reaches it.
const malformedCaseLimit = 20 * time.Second

// malformedCases is the default run's count, or the long run's.
func malformedCases(short, full int) int {
	if *long {
		return full
	}
	return short
}

func TestMalformedModulesNeverPanicOrHang(t *testing.T) {
	r := seededRand(t, 19)
	checks := []string{"rules", "exec", "growth"}
	if _, err := LookupValidator("vulkan1.1"); err == nil {
		checks = append(checks, "spirv-val")
	}
	o, err := New(Options{Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	n := malformedCases(300, 10_000)
	kinds := map[string]int{}
	statuses := map[Status]int{}
	for i := 0; i < n; {
		g, m := emittedModule(t, r, i, 12)
		if m == nil {
			continue
		}
		kind, mod := mutateModule(r, m.Bytes())
		kinds[kind]++
		vs := withinLimit(t, fmt.Sprintf("case %d (%s), graph %s", i, kind, cfg.FormatCompact(g)), func() []Verdict {
			CheckRules(mod)
			return o.Check(&Subject{Graph: g, Module: mod})
		})
		for _, v := range vs {
			statuses[v.Status]++
		}
		i++
	}
	t.Logf("%d malformed modules, checks %v: mutations %v, verdicts %v", n, checks, kinds, statuses)
}

// withinLimit runs f, failing the test on a panic or when f is still
// running after malformedCaseLimit.
func withinLimit[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	type result struct {
		v     T
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		done <- result{v: f()}
	}()
	select {
	case res := <-done:
		if res.panic != nil {
			t.Fatalf("%s: panic %v", what, res.panic)
		}
		return res.v
	case <-time.After(malformedCaseLimit):
		t.Fatalf("%s: no verdict within %v (a hang)", what, malformedCaseLimit)
	}
	var zero T
	return zero
}

// mutateModule is a damaged copy of mod and the kind of damage.
func mutateModule(r *rand.Rand, mod []byte) (string, []byte) {
	le := bin.LittleEndian
	words := len(mod) / 4
	switch r.IntN(6) {
	case 0, 1:
		return "words", damageWords(r, mod)
	case 2:
		m := append([]byte(nil), mod...)
		w := r.IntN(5)
		vals := []uint32{0, 1, 0xffffffff, r.Uint32(), le.Uint32(m[4*w:]) ^ 1<<r.IntN(32)}
		le.PutUint32(m[4*w:], vals[r.IntN(len(vals))])
		return fmt.Sprintf("header-%d", w), m
	case 3:
		// An instruction's word count rewritten: walk to a random one.
		m := append([]byte(nil), mod...)
		at, stop := 5, 5+r.IntN(words-5)
		for at < stop {
			n := int(le.Uint32(m[4*at:]) >> 16)
			if n == 0 || at+n >= words {
				break
			}
			at += n
		}
		counts := []uint32{0, 1, 2, 0xffff, uint32(r.IntN(64))}
		head := le.Uint32(m[4*at:])
		le.PutUint32(m[4*at:], counts[r.IntN(len(counts))]<<16|head&0xffff)
		return "word-count", m
	case 4:
		// Bytes inserted or deleted: the words after the cut misaligned.
		at := 20 + r.IntN(len(mod)-20)
		k := 1 + r.IntN(7)
		if r.IntN(2) == 0 {
			ins := make([]byte, k)
			for i := range ins {
				ins[i] = byte(r.Uint32())
			}
			return "insert", append(append(append([]byte(nil), mod[:at]...), ins...), mod[at:]...)
		}
		return "delete", append(append([]byte(nil), mod[:at]...), mod[min(len(mod), at+k):]...)
	}
	m := append([]byte(nil), mod...)
	for range 1 + r.IntN(16) {
		m[r.IntN(len(m))] ^= byte(1 << r.IntN(8))
	}
	return "bytes", m
}
