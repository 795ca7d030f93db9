// selftest_test.go: the conformance suite skips a case whose graph the
// server's declared promises exclude, naming the promise (the suite
// against real servers is cmd/cfgfuzz's selftest_test.go).
package fuzz

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func TestSelfTestUnserved(t *testing.T) {
	const irreducible = "{{1, 2}, {2}, {1}}"
	for _, c := range []struct {
		promises *proto.Promises
		graph    string
		want     string // "" served
	}{
		{nil, selfTestSwitch, ""},
		{&proto.Promises{Switches: true, Irreducible: true}, selfTestSwitch, ""},
		{&proto.Promises{Irreducible: true}, selfTestSwitch, `declares "switches":false`},
		{&proto.Promises{Irreducible: true}, selfTestLoop, ""},
		{&proto.Promises{Switches: true}, irreducible, `declares "irreducible":false`},
		{&proto.Promises{Switches: true, Irreducible: true, MaxBlocks: 3}, selfTestGraph, `declares "max_blocks":3`},
		{&proto.Promises{Switches: true, Irreducible: true, MaxBlocks: 3}, selfTestSmallGraph, ""},
	} {
		st := &selfTester{promises: c.promises}
		got := st.unserved([]string{selfTestSmallGraph, c.graph})
		if c.want == "" && got != "" || c.want != "" && (!strings.Contains(got, c.want) || !strings.Contains(got, c.graph)) {
			t.Errorf("promises %+v, graph %s: %q, want %q naming the graph", c.promises, c.graph, got, c.want)
		}
	}
}
