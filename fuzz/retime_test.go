// retime_test.go: oracle.RetimeSlow on a real module of the structurizer:
// a growth:time verdict is re-timed twice and stands only when every run is
// slow; other verdicts are left alone.
package fuzz

import (
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestRetimeSlow(t *testing.T) {
	orc, err := oracle.New(oracle.Options{Checks: []string{"growth"}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		first time.Duration
		again []time.Duration
		calls int
		sig   string
	}{
		{"fast", time.Millisecond, nil, 0, ""},
		{"slow once", 3 * time.Second, []time.Duration{400 * time.Millisecond, 2 * time.Second}, 2, ""},
		{"slow three times", 3 * time.Second, []time.Duration{2 * time.Second, 5 * time.Second}, 2, "growth:" + oracle.SigGrowthTime},
	} {
		sub := &oracle.Subject{Graph: g, Module: mod, Info: oracle.ResultInfo{Duration: c.first}}
		calls := 0
		vs := oracle.RetimeSlow(orc, sub, nil, orc.Check(sub), func() time.Duration {
			calls++
			return c.again[calls-1]
		})
		sig := ""
		if f := oracle.Failed(vs); f != nil {
			sig = f.Signature
		}
		if sig != c.sig || calls != c.calls {
			t.Errorf("%s: %d re-runs, verdict %q; want %d, %q", c.name, calls, sig, c.calls, c.sig)
		}
	}
}
