// report_checks_test.go: a report names the checks its graphs ran, and a
// merged report those every shard ran.
package fuzz

import (
	"slices"
	"strings"
	"testing"
)

func TestReportNamesItsChecks(t *testing.T) {
	for _, c := range []struct {
		checks []string // the campaign's; nil: the oracle's defaults
		want   []string // nil: any list holding exec
	}{{nil, nil}, {[]string{"spirv-val", "exec"}, []string{"spirv-val", "exec"}}, {[]string{"exec"}, []string{"exec"}}} {
		cfg := testConfig(t, 10)
		cfg.Checks = c.checks
		rep := mustRun(t, cfg).Report
		if c.want != nil && !slices.Equal(rep.Checks, c.want) || c.want == nil && !slices.Contains(rep.Checks, "exec") {
			t.Errorf("checks %v: report names %v, want %v", c.checks, rep.Checks, c.want)
		}
		md := Markdown(rep)
		if want := "Every module ran the checks " + strings.Join(rep.Checks, ", ") + " (exec on the covering walks and 4 random ones a graph, seed 1)."; !strings.Contains(md, want) {
			t.Errorf("checks %v: report.md does not say %q", c.checks, want)
		}
	}
}

func TestMergedChecksAreEveryShards(t *testing.T) {
	shard := func(checks ...string) *shardState { return &shardState{report: Report{Checks: checks}} }
	for _, c := range []struct {
		shards []*shardState
		want   []string
	}{
		{[]*shardState{shard("pdom", "exec", "meta"), shard("exec", "pdom")}, []string{"pdom", "exec"}},
		{[]*shardState{shard("exec"), shard()}, nil},
		{[]*shardState{shard("spirv-val", "exec")}, []string{"spirv-val", "exec"}},
	} {
		if got := mergeChecks(c.shards); !slices.Equal(got, c.want) {
			t.Errorf("mergeChecks: %v, want %v", got, c.want)
		}
	}
}
