// modulecfg_hash_test.go: the refinement's inline FNV-1a against hash/fnv
// on the same bytes (words little-endian, opcodes as two bytes), and its
// one-step hash of small words against the byte-wise one.
package oracle

import (
	le "encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

func TestFNVAgainstLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 0))
	t.Log("seed 5")
	for range 1000 {
		x, y := r.Uint64(), r.Uint64()
		ref := fnv.New64a()
		ref.Write(le.LittleEndian.AppendUint64(nil, x))
		ref.Write(le.LittleEndian.AppendUint64(nil, y))
		if got := fnvWord(fnvWord(fnvOffset, x), y); got != ref.Sum64() {
			t.Fatalf("x %#x y %#x: %#x, hash/fnv %#x", x, y, got, ref.Sum64())
		}
		op := spirv.Op(r.Uint32())
		ref.Reset()
		ref.Write(le.LittleEndian.AppendUint64(nil, x))
		ref.Write(le.LittleEndian.AppendUint16(nil, uint16(op)))
		if got := fnvOp(fnvWord(fnvOffset, x), op); got != ref.Sum64() {
			t.Fatalf("x %#x op %d: %#x, hash/fnv %#x", x, op, got, ref.Sum64())
		}
	}
}

// TestFNVSmall: the one-step hash of a small word is fnvWord's.
func TestFNVSmall(t *testing.T) {
	p8 := uint64(1)
	for range 8 {
		p8 *= fnvPrime
	}
	if p8 != fnvPrime8 {
		t.Fatalf("fnvPrime8 %d, want %d", fnvPrime8, p8)
	}
	r := rand.New(rand.NewPCG(6, 0))
	t.Log("seed 6")
	for range 2000 {
		h, x := r.Uint64(), r.Uint64()>>uint(r.IntN(64))
		if got, want := fnvSmall(h, x), fnvWord(h, x); got != want {
			t.Fatalf("h %#x x %#x: %#x, fnvWord %#x", h, x, got, want)
		}
	}
}
