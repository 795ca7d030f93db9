// lint_bound_test.go: `cfgfuzz lint` reports an id bound of 0, 1, or not
// above the largest id (rule `bound`, SPIR-V specification 2.3), and
// accepts a bound far above every id.
package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestLintIDBound(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}})
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bound := binary.LittleEndian.Uint32(mod[12:])
	dir := t.TempDir()
	for _, c := range []struct {
		bound uint32
		clean bool
	}{{bound, true}, {0xffffffff, true}, {0, false}, {1, false}, {bound - 1, false}} {
		m := bytes.Clone(mod)
		binary.LittleEndian.PutUint32(m[12:], c.bound)
		p := filepath.Join(dir, "m.spv")
		if err := os.WriteFile(p, m, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{"lint", p}, nil, &stdout, &stderr)
		reported := strings.Contains(stdout.String(), "bound")
		if c.clean && (code != exitOK || reported) || !c.clean && (code != exitFail || !reported) {
			t.Errorf("bound %d (ids up to %d): exit %d, %s%s", c.bound, bound-1, code, stdout.String(), stderr.String())
		}
	}
}
