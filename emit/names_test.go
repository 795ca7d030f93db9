package emit

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// A synthetic block's name comes from a structurizer's answer: a NUL in it
// or a name longer than an instruction can hold must still give a module
// that decodes and validates, with the name's other bytes kept.
func TestHostileBlockNamesGiveValidModules(t *testing.T) {
	o := newOracle(t)
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é", 200_000)
	for name, want := range map[string]string{"a\x00b<\x1b>": "ab<\x1b>", long: long[:256]} {
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
		if err != nil {
			t.Fatal(err)
		}
		named := false
		for i := range res.Func.Blocks {
			if res.Func.Blocks[i].Kind == structurizer.Synthetic {
				res.Func.Blocks[i].Name, named = name, true
			}
		}
		if !named {
			t.Fatal("the dispatch function has no synthetic block to name")
		}
		mod, err := Bytes(res.Func, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Module(res.Func, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Bytes(), mod) {
			t.Errorf("%.20q: Bytes and Module differ", name)
		}
		dec, err := spirv.Decode(mod)
		if err != nil {
			t.Fatalf("%.20q: the module does not decode: %v", name, err)
		}
		found := false
		for _, n := range dec.Names() {
			found = found || n == want
		}
		if !found {
			t.Errorf("%.20q: no OpName %.20q", name, want)
		}
		for _, v := range o.Check(&oracle.Subject{Graph: g, Module: mod}) {
			if v.Status != oracle.Pass && v.Status != oracle.Skip {
				t.Errorf("%.20q: %s %s %s: %s", name, v.Check, v.Status, v.Signature, v.Detail)
			}
		}
	}
}
