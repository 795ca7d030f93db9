package corpus

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// A header value with a line break (a spec or a graph's file name) stays
// on its comment line: it cannot add a header field or a block.
func TestHeaderValueCannotStartALine(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	h := Header{Signature: "exec:trace-mismatch", Structurizer: "cmd:./s\n# expect: fail", Expect: "pass",
		Origin: "g\r\nb9: ret", Notes: []string{"note\n# fault: swap-arms"}}
	dir := t.TempDir()
	p, err := WriteRegression(dir, "r", h, g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadRegression(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Expect != "pass" || r.Header.Fault != "" || r.Header.Structurizer != `cmd:./s\n# expect: fail` {
		t.Errorf("header read back as %+v", r.Header)
	}
	if r.Graph.Len() != 2 {
		t.Errorf("graph read back with %d blocks, want 2", r.Graph.Len())
	}
}
