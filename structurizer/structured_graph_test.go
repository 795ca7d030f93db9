// structured_graph_test.go: the working graph's memory (structured_graph.go):
// a node's size, and the shared arrays that synthetic nodes' lists are
// carved from.
package structurizer

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestWorkNodeSize: a working node takes two cache lines, as wnode's
// field order promises.
func TestWorkNodeSize(t *testing.T) {
	if size := unsafe.Sizeof(wnode{}); size != 128 {
		t.Errorf("wnode takes %d bytes, want 128", size)
	}
}

// TestWorkNodeHotLine: the fields a walk reads at every node lie in a
// node's first cache line, as wnode's field order promises.
func TestWorkNodeHotLine(t *testing.T) {
	var n wnode
	for _, f := range []struct {
		name      string
		off, size uintptr
	}{
		{"succs", unsafe.Offsetof(n.succs), unsafe.Sizeof(n.succs)},
		{"orig", unsafe.Offsetof(n.orig), unsafe.Sizeof(n.orig)},
		{"loop", unsafe.Offsetof(n.loop), unsafe.Sizeof(n.loop)},
		{"kind", unsafe.Offsetof(n.kind), unsafe.Sizeof(n.kind)},
	} {
		if f.off+f.size > 64 {
			t.Errorf("wnode.%s ends at byte %d, past the first cache line", f.name, f.off+f.size)
		}
	}
}

// TestSyntheticListsShareRoom: the successor and store lists of synthetic
// nodes are copies carved from one array, each capped at its length, so
// that appending to one leaves its neighbour be.
func TestSyntheticListsShareRoom(t *testing.T) {
	w := newWork(cfg.FromSuccs([][]int{{1}, {}}), Options{})
	a, b := w.syn("a", 1, 2), w.syn("b", 2)
	sa, sb := w.nodes[a].succs, w.nodes[b].succs
	if !slices.Equal(sa, []int{1, 2}) || !slices.Equal(sb, []int{2}) {
		t.Fatalf("succs %v and %v, want [1 2] and [2]", sa, sb)
	}
	next := unsafe.Add(unsafe.Pointer(&sa[0]), uintptr(len(sa))*unsafe.Sizeof(sa[0]))
	if cap(sa) != len(sa) || next != unsafe.Pointer(&sb[0]) {
		t.Fatalf("the lists are not neighbours in one array, each capped at its length")
	}
	w.nodes[a].succs = append(w.nodes[a].succs, 3)
	if !slices.Equal(w.nodes[b].succs, []int{2}) {
		t.Errorf("appending to a's list changed b's to %v", w.nodes[b].succs)
	}
	st := w.storeList(Store{Var: 0, Value: 7})
	st2 := w.storeList(Store{Var: 0, Value: 8})
	if len(st) != 1 || cap(st) != 1 || st[0].Value != 7 || st2[0].Value != 8 {
		t.Errorf("store lists %v (cap %d) and %v, want one store each", st, cap(st), st2)
	}
}
