// interp_bound_test.go: a module whose header claims a huge id bound runs
// as the same module with its true bound: the interpreter sizes its tables
// by the ids the module defines (tableBound), not by the claim.
package oracle

import (
	bin "encoding/binary"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestExecHugeClaimedBound(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3, 0}, {}})
	mod, _, err := dispatchSeam("dispatch")(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, bound := range []uint32{0x7fffffff, 0xfffffffe, 0xffffffff} {
		m := append([]byte(nil), mod...)
		bin.LittleEndian.PutUint32(m[12:], bound)
		if v := execVerdict(g, m); v.Signature != "" || v.Harness != nil {
			t.Errorf("bound %#x: %+v", bound, v)
		}
	}
}
