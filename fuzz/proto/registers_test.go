// registers_test.go: a request's options.registers reaches the module the
// server emits: with it the module passes the walks chosen for that file,
// without it (the same graph) it fails them; an out-of-range count is a
// request error.
package proto

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestLocalModuleCarriesRegisters(t *testing.T) {
	const graph = "{{1, 2}, {3}, {3}, {}}"
	g, err := cfg.ParseCompact(graph, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	walks := oracle.Walks(g, oracle.WalkOptions{Registers: 32})
	for _, n := range []int{32, 0} {
		resp := Local(true)(Request{V: Version, Graph: graph, Options: Options{Registers: n}})
		if resp.Outcome != OK {
			t.Fatalf("registers %d: %s %s", n, resp.Outcome, resp.Reason)
		}
		r := oracle.CompareWalks(oracle.Interpreter{}, resp.Module, walks)
		if (r.Signature == "") != (n == 32) {
			t.Errorf("module for %d registers against walks for 32: %q %s", n, r.Signature, r.Detail)
		}
	}
	resp := Local(true)(Request{V: Version, Graph: graph, Options: Options{Registers: -1}})
	if resp.Outcome != Error || !strings.HasPrefix(resp.Reason, RequestError) {
		t.Errorf("registers -1: %s %s", resp.Outcome, resp.Reason)
	}
}
