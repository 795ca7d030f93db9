package fuzz

import (
	"strings"
	"testing"
	"time"
)

// TestGrowthTimeSetting: a campaign's GrowthTime is its workers' growth
// time limit and is in its replay commands when not the default; 0 is the
// default, recorded by no flag.
func TestGrowthTimeSetting(t *testing.T) {
	for _, c := range []struct {
		set, limit time.Duration
		flag       string
	}{{0, 0, ""}, {DefaultGrowthTime, DefaultGrowthTime, ""}, {30 * time.Second, 30 * time.Second, " --growth-time 30s"}} {
		cfg := Config{Settings: Settings{Seed: 1, Walks: 16, GrowthTime: Duration(c.set)}}
		if got := cfg.oracleOptions().Growth.TimeLimit; got != c.limit {
			t.Errorf("GrowthTime %v: the oracle's limit %v, want %v", c.set, got, c.limit)
		}
		flags := JudgingFlags(&cfg.Settings, "", "growth:time")
		if c.flag == "" && strings.Contains(flags, "growth-time") || c.flag != "" && !strings.Contains(flags, c.flag) {
			t.Errorf("GrowthTime %v: judging flags %q, want %q", c.set, flags, c.flag)
		}
	}
}
