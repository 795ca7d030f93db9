package draw

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestDrawings(t *testing.T) {
	for _, src := range []string{"{{}}", "{{0}}", "{{1, 2}, {2, 0}, {1}, {}, {3, 3, 3}}", "{{1}, {2}, {1}}"} {
		g, err := cfg.ParseCompact(src, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		svg := FromGraph(g).SVG(Options{})
		if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<rect") != g.Len() {
			t.Errorf("%s: bad picture %.80s", src, svg)
		}
		res, err := structurizer.Structurize(g, structurizer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if svg := FromFunc(res.Func).SVG(Options{}); strings.Count(svg, "<rect") != len(res.Func.Blocks) {
			t.Errorf("%s: structured picture has the wrong number of blocks", src)
		}
	}
}

// TestModuleFunc: the picture of a module has the function's blocks.
func TestModuleFunc(t *testing.T) {
	g, _ := cfg.ParseCompact("{{1, 2}, {2, 0}, {}}", cfg.Limits{})
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := ModuleFunc(mod)
	if err != nil {
		t.Fatal(err)
	}
	orig := 0
	for _, b := range f.Blocks {
		if b.Kind == structurizer.Original {
			orig++
		}
	}
	if orig != 3 || len(f.Blocks) < len(res.Func.Blocks) {
		t.Errorf("module picture: %d blocks, %d original; the function has %d", len(f.Blocks), orig, len(res.Func.Blocks))
	}
	if svg := FromFunc(f).SVG(Options{}); strings.Count(svg, "<rect") != len(f.Blocks) {
		t.Error("bad drawing")
	}
}

// Synthetic blocks read back from a module carry their labels' names.
func TestModuleFuncNamesSyntheticBlocks(t *testing.T) {
	g, _ := cfg.ParseCompact("{{1, 2}, {2, 0}, {}}", cfg.Limits{})
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := ModuleFunc(mod)
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, b := range f.Blocks {
		if b.Kind == structurizer.Synthetic && b.Name != "" {
			named++
		}
	}
	if named == 0 {
		t.Errorf("no synthetic block is named: %+v", f.Blocks)
	}
}
