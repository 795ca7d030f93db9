// modulecfg_hash_test.go: the refinement's inline FNV-1a against hash/fnv
// on the same bytes (words little-endian, strings after their length).
package oracle

import (
	le "encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

func TestFNVAgainstLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 0))
	t.Log("seed 5")
	for range 1000 {
		x, y := r.Uint64(), r.Uint64()
		s := string(le.LittleEndian.AppendUint64(nil, y))[:r.IntN(9)]
		ref := fnv.New64a()
		ref.Write(le.LittleEndian.AppendUint64(nil, x))
		ref.Write(le.LittleEndian.AppendUint64(nil, uint64(len(s))))
		ref.Write([]byte(s))
		if got := fnvString(fnvWord(fnvOffset, x), s); got != ref.Sum64() {
			t.Fatalf("x %#x s %q: %#x, hash/fnv %#x", x, s, got, ref.Sum64())
		}
	}
}
