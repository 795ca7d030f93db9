// rules_robust_test.go: the rules checker never panics, whatever the bytes:
// valid modules with random words overwritten (operands, opcodes, word
// counts) or cut short (damageWords) either decode and get a verdict or
// fail with an error. Seeded; the seed is logged.
package oracle

import (
	le "encoding/binary"
	"math/rand/v2"
	"testing"
)

func TestRulesNeverPanics(t *testing.T) {
	r := seededRand(t, 9)
	var seeds [][]byte
	for range 10 {
		seeds = append(seeds, assemble(t, structuredProgram(r), ""))
	}
	verdicts, errs := 0, 0
	for i := range 5000 {
		mod := damageWords(r, seeds[r.IntN(len(seeds))])
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("case %d: panic %v", i, p)
				}
			}()
			if _, err := CheckRules(mod); err != nil {
				errs++
			} else {
				verdicts++
			}
		}()
	}
	t.Logf("%d verdicts, %d unreadable", verdicts, errs)
}

// damageWords is a copy of mod (a valid module) with one to three words
// past the header overwritten (a random word, a small id or literal, or
// one bit flipped) and, one time in ten, cut short.
func damageWords(r *rand.Rand, mod []byte) []byte {
	mod = append([]byte(nil), mod...)
	words := len(mod) / 4
	for range 1 + r.IntN(3) {
		w := 5 + r.IntN(words-5)
		var v uint32
		switch r.IntN(3) {
		case 0:
			v = r.Uint32()
		case 1:
			v = uint32(r.IntN(64)) // a small id or literal
		default:
			v = le.LittleEndian.Uint32(mod[4*w:]) ^ 1<<r.IntN(32)
		}
		le.LittleEndian.PutUint32(mod[4*w:], v)
	}
	if r.IntN(10) == 0 {
		mod = mod[:4*(5+r.IntN(words-5))]
	}
	return mod
}
