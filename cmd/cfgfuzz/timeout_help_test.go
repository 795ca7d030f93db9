// timeout_help_test.go: --timeout's help says what the limit decides and
// what it does not, on every command a slow structurizer meets it.
package main

import (
	"bytes"
	"flag"
	"io"
	"strings"
	"testing"
)

// TestTimeoutHelpNamesItsFindingsAndGrowthTime: run's (and compare's),
// check's and regress's --timeout say that a call past it is a finding,
// and that an answer within it can still fail growth:time, whose limit
// (--growth-time, 1 s, + 1 ms a block) is not --timeout's: a structurizer
// that takes 20 s on some graphs is not passed by a larger --timeout
// alone.
func TestTimeoutHelpNamesItsFindingsAndGrowthTime(t *testing.T) {
	run := flag.NewFlagSet("run", flag.ContinueOnError)
	var f campaignFlags
	f.define(run, false)
	check := flag.NewFlagSet("check", flag.ContinueOnError)
	var l checkLimits
	l.register(check)
	var regress bytes.Buffer
	runRegress([]string{"-h"}, strings.NewReader(""), &regress, io.Discard, nil)
	helps := map[string]string{"run": run.Lookup("timeout").Usage, "check": check.Lookup("timeout").Usage, "regress": regress.String()}
	for cmd, help := range helps {
		for _, want := range []string{"structurize:timeout", "meta:rerun-failed:timeout", "growth:time", "--growth-time (1s) + 1ms per block"} {
			if !strings.Contains(help, want) {
				t.Errorf("%s --timeout's help: want %q in %q", cmd, want, help)
			}
		}
	}
}

// TestGrowthTimeHelp: --growth-time's help, the same on every judging
// command, says what it limits (growth:time), that --timeout is the limit
// on one call and the larger for a slow structurizer, that --checks
// -growth drops every growth limit, and its default.
func TestGrowthTimeHelp(t *testing.T) {
	for _, name := range judgeCommands {
		code, help, errs := runCmd([]string{name, "-h"}, "")
		if code != exitOK {
			t.Fatalf("%s -h: exit %d: %s", name, code, errs)
		}
		_, block, _ := strings.Cut(help, "  -growth-time DURATION\n")
		block, _, _ = strings.Cut(block, "\n  -")
		for _, want := range []string{"growth:time", "--timeout is the limit on one structurizer call", "--timeout the larger", "--checks -growth drops every growth limit", "(default 1s)"} {
			if !strings.Contains(block, want) {
				t.Errorf("%s -h: --growth-time's help lacks %q: %q", name, want, block)
			}
		}
	}
}
