// structured_graph_dests_test.go: a loop's destination index (destIndex,
// a scan up to destScan destinations, a map past it) against
// slices.Index over its destinations.

package structurizer

import (
	"slices"
	"testing"
)

// TestDestIndexAgainstScan adds seeded random destinations to loops of up
// to 40 of them and asks destIndex for each node, present or not, after
// every addition; each new destination has no store node.
func TestDestIndexAgainstScan(t *testing.T) {
	r := freshRand(t, 61)
	for i := range 200 {
		var l wloop
		for range r.IntN(40) {
			d := r.IntN(60)
			if slices.Contains(l.dests, d) {
				continue
			}
			l.addDest(d)
			if l.stores[len(l.stores)-1] != -1 || len(l.stores) != len(l.dests) {
				t.Fatalf("loop %d: stores %v for dests %v", i, l.stores, l.dests)
			}
			for x := range 60 {
				if got, want := l.destIndex(x), slices.Index(l.dests, x); got != want {
					t.Fatalf("loop %d, dests %v: destIndex(%d) = %d, want %d", i, l.dests, x, got, want)
				}
			}
		}
	}
}
