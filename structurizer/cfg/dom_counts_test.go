// dom_counts_test.go: the dominator computations' int32 arrays have
// explicit limits, checked at their entry: semi-NCA numbers at most
// math.MaxInt32 nodes and lists at most math.MaxInt32 edges, a DomTree's
// interval numbers hold at most math.MaxInt32/2 - 1 blocks; one more is an
// error naming the count and the limit. The counts are given to the
// checks directly: no graph that large fits in memory.
package cfg

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestDominatorCountLimits(t *testing.T) {
	const maxTree = math.MaxInt32/2 - 1
	for _, c := range []struct {
		name string
		err  error
		want string // in the error; "" none
	}{
		{"semi-NCA, a small graph", semiNCACounts(5, 7), ""},
		{"semi-NCA, nodes at the limit", semiNCACounts(math.MaxInt32, 0), ""},
		{"semi-NCA, edges at the limit", semiNCACounts(3, math.MaxInt32), ""},
		{"semi-NCA, one node too many", semiNCACounts(math.MaxInt32+1, 0), fmt.Sprintf("dominators of %d nodes: semi-NCA numbers at most %d", int64(math.MaxInt32)+1, math.MaxInt32)},
		{"semi-NCA, one edge too many", semiNCACounts(3, math.MaxInt32+1), fmt.Sprintf("%d edges: semi-NCA lists at most %d", int64(math.MaxInt32)+1, math.MaxInt32)},
		{"tree, a small one", treeCounts(9), ""},
		{"tree, at the limit", treeCounts(maxTree), ""},
		{"tree, one block too many", treeCounts(maxTree + 1), fmt.Sprintf("dominator tree of %d blocks: its int32 interval numbers number at most %d", maxTree+1, maxTree)},
	} {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("%s: %v, want none", c.name, c.err)
		case c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.name, c.err, c.want)
		}
	}
}
