// idtable_test.go holds idTable to a Go map under random sets, gets and
// clears, with ids below and past its dense size, across a wrap of its
// generation stamps.

package oracle

import (
	"math/rand/v2"
	"testing"
)

func TestIDTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var tab idTable
	for round := range 50 {
		bound := uint32(r.IntN(300))
		tab.reset(bound)
		if round == 25 {
			tab.gen = ^uint32(0) - 1 // the next clears wrap the stamps around
		}
		ref := map[uint32]uint32{}
		for step := range 2000 {
			id := uint32(r.IntN(int(bound) + 50)) // some past the dense size
			switch r.IntN(10) {
			case 0:
				if step%7 == 0 {
					tab.clear()
					clear(ref)
				}
			case 1, 2, 3, 4:
				v := r.Uint32()
				_, was := ref[id]
				if got := tab.set(id, v); got != was {
					t.Fatalf("round %d step %d: set(%d) said set before %v, want %v", round, step, id, got, was)
				}
				ref[id] = v
			default:
				want, wok := ref[id]
				got, ok := tab.get(id)
				if got != want || ok != wok || tab.has(id) != wok {
					t.Fatalf("round %d step %d: get(%d) = %d, %v; want %d, %v", round, step, id, got, ok, want, wok)
				}
			}
		}
	}
}

func TestIDTableDenseSizeCapped(t *testing.T) {
	var tab idTable
	tab.reset(^uint32(0))
	if len(tab.vals) != idTableDense {
		t.Fatalf("dense size %d for the largest bound, want %d", len(tab.vals), idTableDense)
	}
	tab.set(^uint32(0)-1, 7)
	if v, ok := tab.get(^uint32(0) - 1); !ok || v != 7 {
		t.Fatalf("far id: %d, %v", v, ok)
	}
	tab.clear()
	if tab.has(^uint32(0) - 1) {
		t.Fatal("far id kept past clear")
	}
}
