// flagbounds_test.go: every command refuses a numeric flag out of range
// with a usage error naming the flag, before doing any work.
package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestNumericFlagsOutOfRange(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--walks", "-5"},
		{"run", "--graphs", "-1"},
		{"run", "--workers", "-2"},
		{"run", "--timeout", "0s"},
		{"run", "--duration", "-1s"},
		{"run", "--gpu-every", "-3"},
		{"run", "--mutate", "NaN"},
		{"run", "--mutate", "-0.1"},
		{"compare", "--baseline", "HEAD", "--walks", "-5"},
		{"check", "--walks", "-5"},
		{"check", "--walks", "99999999999"},
		{"regress", "--walks", "70000"},
		{"check", "--timeout", "-1s"},
		{"run", "--start-timeout", "0s"},
		{"check", "--start-timeout", "-1s"},
		{"regress", "--start-timeout", "0s"},
		{"selftest", "--timeout", "0s"},
		{"selftest", "--start-timeout", "-1s"},
		{"regress", "--duration", "-1s"},
		{"minimize", "--walks", "-1", "x.txt"},
		{"minimize", "x.txt", "--index", "-1"},
		{"bench", "--driver", "--repeats", "0"},
		{"bench", "--driver", "--graphs", "0"},
		{"gen", "--words", "-1"},
		{"gen", "--switch", "1.5"},
		{"gen", "--switch", "NaN"},
		{"gen", "--wide-switch", "-0.5"},
		{"gen", "--kind", "exhaustive", "--n", "0"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader("{{}}"), &stdout, &stderr)
		flag := ""
		for _, a := range args {
			if strings.HasPrefix(a, "--") && a != "--driver" && a != "--baseline" && a != "--kind" {
				flag = a
			}
		}
		if code != exitUsage || !strings.Contains(stderr.String(), flag) || !strings.Contains(stderr.String(), "must") {
			t.Errorf("%v: exit %d, stderr %q", args, code, firstLine(stderr.String()))
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: wrote output %q", args, firstLine(stdout.String()))
		}
	}
}

func TestNumericFlagsInRange(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--walks", "0", "--strategy", "dispatch", "--checks", "pdom"}, strings.NewReader("{{}}"), &stdout, &stderr); code != exitOK {
		t.Fatalf("--walks 0: exit %d, %s", code, stderr.String())
	}
}

// TestProgressModeChecked: a --progress value that names no display is a
// usage error naming the flag, not the auto display.
func TestProgressModeChecked(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--progress", "plian", "--graphs", "1"},
		{"compare", "--baseline-structurizer", "self", "--current", "self", "--progress", "plian", "--graphs", "1"},
		{"merge", "--progress", "plian", "shard"},
	} {
		var stdout, stderr bytes.Buffer
		dir := t.TempDir()
		code := run(append(args, "--out", dir), nil, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "--progress") {
			t.Errorf("%v: exit %d, want 2 naming --progress\n%s%s", args, code, stdout.String(), stderr.String())
		}
	}
}

// TestEmptyFlagValuesRefused: a flag that names a program or a path,
// given an empty value (an unset shell variable), is a usage error naming
// it, not the flag left out (this tree's structurizer tested, the default
// directory written); a campaign given --graphs 0 or --duration 0 and no
// other budget is refused, not run for the default 30 s; a --junit file
// that is a directory is refused before any case runs, naming the flag.
func TestEmptyFlagValuesRefused(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--structurizer", "", "--graphs", "1", "--out", out + "/a"}, "--structurizer: empty value"},
		{[]string{"check", "--structurizer", " ", "-"}, "--structurizer: empty value"},
		{[]string{"compare", "--baseline-structurizer", "", "--graphs", "1"}, "--baseline-structurizer: empty value"},
		{[]string{"run", "--out", "", "--graphs", "1"}, "--out: empty value"},
		{[]string{"regress", "--junit", "", out}, "--junit: empty value"},
		{[]string{"regress", "--junit", out, out}, "--junit " + out + " is a directory"},
		{[]string{"run", "--duration", "0s", "--out", out + "/b"}, "leave the campaign no budget"},
		{[]string{"run", "--graphs", "0", "--out", out + "/c"}, "leave the campaign no budget"},
	} {
		code, stdout, stderr := runCmd(tc.args, "{{}}\n")
		if code != exitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%q: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, stdout, stderr)
		}
	}
}

// TestChecksNameMissing: a --checks entry of a + or a - alone is a usage
// error saying the name after it is missing, on every command that takes
// --checks, not an unknown check "".
func TestChecksNameMissing(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--checks", "+", "-"}, `invalid value "+" for flag --checks: the name after + is missing (+NAME adds a check to the defaults, as in +gpu)`},
		{[]string{"check", "--checks", "exec, -", "-"}, `invalid value "exec, -" for flag --checks: the name after - is missing (-NAME removes one, as in -fallback)`},
		{[]string{"run", "--checks", "+", "--graphs", "1", "--out", out + "/a"}, "flag --checks: the name after + is missing"},
		{[]string{"compare", "--baseline-structurizer", "self", "--structurizer", "self", "--checks", "-", "--graphs", "1", "--out", out + "/b"}, "flag --checks: the name after - is missing"},
		{[]string{"minimize", "--checks", "+gpu,+", "x.cfg"}, "flag --checks: the name after + is missing"},
		{[]string{"regress", "--checks", "+", out}, "flag --checks: the name after + is missing"},
		{[]string{"bisect", "--checks", "+", "x.cfg"}, "flag --checks: the name after + is missing"},
	} {
		code, stdout, stderr := runCmd(tc.args, "{{}}\n")
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, `unknown check ""`) || stdout != "" {
			t.Errorf("%q: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, stdout, stderr)
		}
	}
}

// TestChecksNamesTrimmed: spaces around a --checks name are no part of
// it, after a + or a - too: " exec", "+ exec" and "- fallback" select as
// "exec", "+exec" and "-fallback" do.
func TestChecksNamesTrimmed(t *testing.T) {
	for _, checks := range []string{" exec", "+ exec", "- fallback", " + exec , -  meta"} {
		code, stdout, stderr := runCmd([]string{"check", "--checks", checks, "-"}, "{{1}, {}}\n")
		if code != 0 || !strings.Contains(stderr, "1 of 1 graphs passed") || strings.Contains(stderr, "unknown check") {
			t.Errorf("--checks %q: exit %d, want 0 and the graph passed\n%s%s", checks, code, stdout, stderr)
		}
	}
}

// TestShardFlagNamed: a --shard that is no i/n with 0 <= i < n is a usage
// error naming the flag and its value, and saying that shards are
// numbered from 0, with the shards of its n.
func TestShardFlagNamed(t *testing.T) {
	for v, shards := range map[string]string{"8/8": "for 8 shards give 0/8 to 7/8", "2/2": "for 2 shards give 0/2 and 1/2", "1": "for 2 shards give 0/2 and 1/2", "a/2": "for 2 shards give 0/2 and 1/2", "-1/2": "for 2 shards give 0/2 and 1/2"} {
		var out, errw bytes.Buffer
		code := run([]string{"run", "--shard", v, "--graphs", "1", "--out", t.TempDir()}, nil, &out, &errw)
		want := "invalid value \"" + v + "\" for flag --shard: want i/n with 0 <= i < n (shards are numbered from 0: " + shards + ")"
		if code != exitUsage || !strings.Contains(errw.String(), want) {
			t.Errorf("--shard %s: exit %d, want %d and %q\n%s", v, code, exitUsage, want, errw.String())
		}
	}
}

// TestDurationFlagsQuotedAsTyped: a duration out of range is quoted as the
// user typed it ("0", "-90s"), not as the duration it parsed to ("0s",
// "-1m30s"), on every command, and a duration flag that no table lists
// (--build-timeout) must not be negative.
func TestDurationFlagsQuotedAsTyped(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--timeout", "0"}, `invalid value "0" for flag --timeout: must be positive`},
		{[]string{"check", "--timeout=-90s"}, `invalid value "-90s" for flag --timeout: must be positive`},
		{[]string{"run", "--start-timeout", "0"}, `invalid value "0" for flag --start-timeout: must be positive`},
		{[]string{"regress", "--check-timeout", "0", "x"}, `invalid value "0" for flag --check-timeout: must be positive`},
		{[]string{"minimize", "x.txt", "--growth-time", "0"}, `invalid value "0" for flag --growth-time: must be positive`},
		{[]string{"selftest", "--timeout", "0", "--structurizer", "self"}, `invalid value "0" for flag --timeout: must be positive`},
		{[]string{"bisect", "--timeout", "0"}, `invalid value "0" for flag --timeout: must be positive`},
		{[]string{"bisect", "--check-timeout", "0"}, `invalid value "0" for flag --check-timeout: must be positive`},
		{[]string{"run", "--duration", "-60s"}, `invalid value "-60s" for flag --duration: must not be negative`},
		{[]string{"check", "--build-timeout", "-5s"}, `invalid value "-5s" for flag --build-timeout: must not be negative`},
		{[]string{"bench", "--driver", "--module-limit", "-1h"}, `invalid value "-1h" for flag --module-limit: must be positive`},
		{[]string{"bench", "--driver", "--module-limit", "0"}, `invalid value "0" for flag --module-limit: must be positive`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader("{{}}"), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %d and %q", c.args, code, firstLine(stderr.String()), exitUsage, c.want)
		}
	}
	// The usage names a duration flag's type as before the parse.
	var stdout, stderr bytes.Buffer
	if run([]string{"check", "-h"}, nil, &stdout, &stderr); !strings.Contains(stdout.String(), "-timeout duration") {
		t.Errorf("check -h lacks %q:\n%s", "-timeout duration", stdout.String())
	}
}
