// exec_parting_test.go: the trace-mismatch detail names where the module's
// trace leaves the walk's.
package oracle

import "testing"

func TestParting(t *testing.T) {
	for _, c := range []struct {
		graph, module []int
		want          string
	}{
		{[]int{0, 1, 3, 4}, []int{0, 2, 3, 1, 3, 4}, "the traces part at position 1, after 0: the graph goes to b1, the module to b2"},
		{[]int{2}, []int{1}, "the traces part at position 0, at the start: the graph goes to b2, the module to b1"},
		{[]int{0, 1, 1, 1, 1, 1, 1, 0}, []int{0, 1, 1, 1, 1, 1, 1, 1}, "the traces part at position 7, after ... 1 1 1 1: the graph goes to b0, the module to b1"},
		{[]int{0, 1, 2}, []int{0, 1}, "the module's trace ends at position 2, after 0 1: the graph goes on to b2"},
		{[]int{0, 1}, []int{0, 1, 2}, "the graph's trace ends at position 2, after 0 1: the module goes on to b2"},
		{[]int{0, 1}, []int{0, 1}, "the traces agree as far as recorded"},
	} {
		if got := parting(c.graph, c.module); got != c.want {
			t.Errorf("parting(%v, %v) = %q, want %q", c.graph, c.module, got, c.want)
		}
	}
}
