// adapters_guide_test.go holds ADAPTERS.md's worked examples to the code:
// each `func` example marked <!-- guide-example graph="..." --> is decoded,
// validated and emitted as cfgfuzz emits a protocol answer, and the
// oracle's checks run on it against its graph; an example marked
// fails="SIG" must fail with that signature, every other must pass.
package fuzz

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var guideExample = regexp.MustCompile("(?s)<!-- guide-example graph=\"([^\"]*)\"(?: fails=\"([^\"]*)\")? -->\n```json\n(.*?)```")

func TestAdaptersGuideExamples(t *testing.T) {
	doc, err := os.ReadFile("ADAPTERS.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := guideExample.FindAllStringSubmatch(string(doc), -1)
	if len(examples) < 3 {
		t.Fatalf("%d guide examples in ADAPTERS.md, want 3", len(examples))
	}
	orc, err := oracle.New(oracle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, ex := range examples {
		graph, fails, text := ex[1], ex[2], ex[3]
		g, err := cfg.ParseCompact(graph, cfg.Limits{})
		if err != nil {
			t.Fatalf("example %d: graph: %v", i+1, err)
		}
		var f structurizer.Func
		if err := json.Unmarshal([]byte(text), &f); err != nil {
			t.Fatalf("example %d: func: %v", i+1, err)
		}
		mod, err := emit.Bytes(&f, emit.Options{})
		if err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		vs := orc.Check(&oracle.Subject{Graph: g, Module: mod})
		if e := oracle.Errored(vs); e != nil {
			t.Fatalf("example %d: harness error in %s: %s", i+1, e.Check, e.Detail)
		}
		got := ""
		if v := oracle.Failed(vs); v != nil {
			got = v.Signature
		}
		if got != fails {
			t.Errorf("example %d (%s): signature %q, want %q (\"\": every check passes)", i+1, graph, got, fails)
		}
	}
}
