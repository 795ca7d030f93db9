// declkey_test.go: the nested search's seen-set key (declKey) against the
// obvious one it replaced, fmt.Sprint of the declarations: two keys are
// equal exactly when the printed declarations are.
package structurizer

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestDeclKeyAgainstSprint(t *testing.T) {
	seed := uint64(11)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	randDecl := func() []Merge {
		d := make([]Merge, r.IntN(4))
		for i := range d {
			d[i] = Merge{Kind: MergeKind(r.IntN(3)), Merge: r.IntN(12) - 1, Continue: r.IntN(12) - 1}
			if r.IntN(2) == 0 {
				d[i] = Merge{} // most blocks declare nothing
			}
		}
		return d
	}
	for range 20000 {
		a, b := randDecl(), randDecl()
		if (declKey(a) == declKey(b)) != (fmt.Sprint(a) == fmt.Sprint(b)) {
			t.Fatalf("%v and %v: keys %q and %q", a, b, declKey(a), declKey(b))
		}
	}
}
