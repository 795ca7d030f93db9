// rerun_test.go: a re-run that fails through the seam is judged by the
// signature the seam gave it (meta:rerun-failed:<outcome>:<reason>).
package corpus

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestJudgeNamesAFailedRerun(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	orc, err := oracle.New(oracle.Options{Checks: []string{"meta"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ failure, want string }{
		{oracle.HarnessSignature(oracle.HarnessPanic, "slice bounds out of range [:12]"), "meta:rerun-failed:panic:slice bounds out of range [:N]"},
		{oracle.HarnessSignature(oracle.HarnessPanic, "nil map"), "meta:rerun-failed:panic:nil map"},
		{SigRefused, "meta:rerun-failed:refused"},
	} {
		calls := 0
		fn := func(g *cfg.Graph) Structurized {
			if calls++; calls > 1 {
				return Structurized{Failure: c.failure, Detail: "again"}
			}
			return Structurized{Module: moduleOf(t, g), Info: oracle.ResultInfo{Strategy: "structured", Idempotent: true}}
		}
		if o := Judge(fn, g, orc); o.Signature != c.want {
			t.Errorf("a re-run failing with %s: signature %q, want %q", c.failure, o.Signature, c.want)
		}
	}
}
