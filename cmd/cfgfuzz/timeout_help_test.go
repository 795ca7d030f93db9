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
// (1 s + 1 ms a block) is not --timeout's: a structurizer that takes 20 s
// on some graphs is not passed by a larger --timeout alone.
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
		for _, want := range []string{"structurize:timeout", "meta:rerun-failed:timeout", "growth:time", "1s + 1ms per block", "--checks -growth"} {
			if !strings.Contains(help, want) {
				t.Errorf("%s --timeout's help: want %q in %q", cmd, want, help)
			}
		}
	}
}
