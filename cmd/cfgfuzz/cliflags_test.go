// cliflags_test.go: every subcommand's command line behaves alike: -h and
// --help exit 0, a bad flag or value is one line on standard error with
// exit 2, flags go before or after the operands, --list-faults lists every
// fault with its description (cliflags.go).
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func TestEveryCommandHelpExitsZero(t *testing.T) {
	for name := range commands {
		for _, h := range []string{"-h", "--help"} {
			code, stdout, stderr := runCmd([]string{name, h}, "")
			if stderr != "" {
				t.Errorf("cfgfuzz %s %s wrote to standard error (the usage asked for is the output):\n%s", name, h, stderr)
			}
			stderr = stdout
			if code != exitOK {
				t.Errorf("cfgfuzz %s %s: exit %d, want 0; stderr:\n%s", name, h, code, stderr)
			}
			if !strings.Contains(stderr, "usage: cfgfuzz "+name) {
				t.Errorf("cfgfuzz %s %s: the usage does not start with the tool's own line; got:\n%s", name, h, stderr)
			}
			if strings.Contains(stderr, "Usage of ") {
				t.Errorf("cfgfuzz %s %s printed Go's raw usage:\n%s", name, h, stderr)
			}
		}
	}
}

// TestBadFlagIsOneLine: a bad flag or value is one line naming the
// command, the error and how to list the flags, not the whole usage.
func TestBadFlagIsOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--graphs", "-5"},
		{"gen", "--count", "-1"},
		{"gen", "--blocks", "9-5"},
		{"check", "--nope"},
		{"bench", "--repeats", "0"},
	} {
		var stdout, stderr strings.Builder
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code != exitUsage || len(lines) != 1 || !strings.HasPrefix(lines[0], "cfgfuzz "+args[0]+": ") || !strings.HasSuffix(lines[0], "(cfgfuzz "+args[0]+" -h lists the flags)") {
			t.Errorf("%v: exit %d, want 2 and one line naming the command and -h:\n%s", args, code, stderr.String())
		}
	}
}

// TestUnknownGPUDevice: an unknown --gpu-device is a usage error on every
// command that takes it, with the gpu check on or off.
func TestUnknownGPUDevice(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--graphs", "1", "--gpu-device", "foo", "--out", filepath.Join(t.TempDir(), "out")},
		{"compare", "--graphs", "1", "--baseline", "self", "--gpu-device", "foo", "--out", filepath.Join(t.TempDir(), "out")},
		{"check", "--gpu-device", "foo", "-"},
		{"minimize", "--gpu-device", "foo", "-"},
		{"bisect", "--good", "HEAD", "--bad", "HEAD", "--gpu-device", "foo", "-"},
	} {
		code, _, stderr := runCmd(args, "{{1}, {}}\n")
		if code != exitUsage || !strings.Contains(stderr, `--gpu-device "foo": want cpu, gpu or any`) {
			t.Errorf("%v: exit %d, want 2 naming the device:\n%s", args, code, stderr)
		}
	}
}

func TestHelpCommand(t *testing.T) {
	code, out, _ := runCmd([]string{"help", "regress"}, "")
	if code != exitOK || !strings.HasPrefix(out, "usage: cfgfuzz regress") {
		t.Errorf("cfgfuzz help regress: exit %d, output %.80q, want regress's usage", code, out)
	}
	if code, _, _ := runCmd([]string{"help", "nosuch"}, ""); code != exitUsage {
		t.Errorf("cfgfuzz help nosuch: exit %d, want 2", code)
	}
}

// TestUnknownCommandNamesTheNearest: a mistyped command is one line
// naming the command it most likely meant, as a mistyped flag is; a name
// near none keeps the list of commands.
func TestUnknownCommandNamesTheNearest(t *testing.T) {
	for typo, want := range map[string]string{"comapre": "compare", "regres": "regress", "bisetc": "bisect", "minimise": "minimize"} {
		code, out, stderr := runCmd([]string{typo, "--graphs", "5"}, "")
		line := `cfgfuzz: unknown command "` + typo + `": did you mean ` + want + "?"
		if code != exitUsage || out != "" || !strings.HasPrefix(stderr, line) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("cfgfuzz %s: exit %d, want 2 and one line starting %q\n%s%s", typo, code, line, out, stderr)
		}
	}
	code, _, stderr := runCmd([]string{"frobnicate"}, "")
	if code != exitUsage || strings.Contains(stderr, "did you mean") || !strings.Contains(stderr, "commands:") {
		t.Errorf("cfgfuzz frobnicate: exit %d, want 2 and the list of commands without a guess\n%s", code, stderr)
	}
}

func TestFlagsAfterOperands(t *testing.T) {
	g := filepath.Join(t.TempDir(), "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runCmd([]string{"check", g}, ""); code != exitOK {
		t.Fatalf("check %s: exit %d, want 0\n%s%s", g, code, out, stderr)
	}
	for _, args := range [][]string{
		{"check", g, "--inject", "swap-arms"},
		{"check", "--inject", "swap-arms", g},
		{"check", "--json", g, "--inject=swap-arms"},
	} {
		code, out, stderr := runCmd(args, "")
		if code != exitFail || !strings.Contains(out, "exec") {
			t.Errorf("cfgfuzz %s: exit %d, want 1 with an exec failure (the fault planted)\n%s%s", strings.Join(args, " "), code, out, stderr)
		}
	}
	// "--" ends the flags: what follows is a file name, even "--inject".
	code, _, stderr := runCmd([]string{"check", "--", g, "--inject"}, "")
	if code != exitUsage || !strings.Contains(stderr, "open --inject") {
		t.Errorf("check -- FILE --inject: exit %d, want 2 naming the file --inject; stderr:\n%s", code, stderr)
	}
	// A range error is still caught after an operand.
	if code, _, stderr := runCmd([]string{"check", g, "--walks", "-1"}, ""); code != exitUsage {
		t.Errorf("check FILE --walks -1: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	// Commands without operands refuse one wherever it stands.
	if code, _, _ := runCmd([]string{"run", "--graphs", "1", "stray"}, ""); code != exitUsage {
		t.Errorf("run --graphs 1 stray: exit %d, want 2", code)
	}
}

func TestListFaults(t *testing.T) {
	for _, name := range []string{"run", "compare", "check", "minimize", "structurize"} {
		code, out, stderr := runCmd([]string{name, "--list-faults"}, "")
		if code != exitOK {
			t.Errorf("%s --list-faults: exit %d, want 0; stderr:\n%s", name, code, stderr)
			continue
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(structurizer.Faults) {
			t.Errorf("%s --list-faults: %d lines, want one per fault (%d):\n%s", name, len(lines), len(structurizer.Faults), out)
		}
		for fault, desc := range structurizer.Faults {
			if !strings.Contains(out, fault) || !strings.Contains(out, desc) {
				t.Errorf("%s --list-faults lacks %s and its description:\n%s", name, fault, out)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	want := fuzz.ThisBuild()
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, stderr := runCmd(args, "")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != exitOK || len(lines) != 2 || lines[0] != want.String() || !strings.Contains(lines[1], thisWriter().String()) {
			t.Errorf("cfgfuzz %s: exit %d, output %q, want 0, %q and a line naming the writer %q\n%s", args[0], code, out, want.String(), thisWriter(), stderr)
		}
	}
	code, out, _ := runCmd([]string{"version", "--json"}, "")
	var got struct {
		fuzz.Build
		Host string `json:"host"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || got.Build != want || got.Host != fuzz.Host() {
		t.Errorf("version --json: exit %d, %+v (%v), want %+v on %s", code, got, err, want, fuzz.Host())
	}
	if !strings.Contains(want.String(), runtime.Version()) || !strings.Contains(want.String(), runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("the version line %q lacks the toolchain or the host", want.String())
	}
}

// TestFlagErrorsUseDoubleDash: an error of Go's flag package names the
// flag as the usage and the documentation do, --name, on every command,
// and a duration flag's bad value says what a duration looks like.
func TestFlagErrorsUseDoubleDash(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--seed", "abc"}, `invalid value "abc" for flag --seed: want a whole number`},
		{[]string{"run", "--duration", "5"}, `invalid value "5" for flag --duration: want a duration such as 30s or 10m`},
		{[]string{"merge", "--minimize-timeout", "x"}, `invalid value "x" for flag --minimize-timeout: want a duration such as 30s or 10m`},
		{[]string{"run", "--force=maybe"}, `invalid boolean value "maybe" for --force: want true or false`},
		{[]string{"check", "--nope"}, `flag provided but not defined: --nope`},
		{[]string{"gen", "--count"}, `flag needs an argument: --count`},
		{[]string{"regress", "-nosuch", "1"}, `flag provided but not defined: --nosuch`},
		{[]string{"bench", "--graphs", "many"}, `invalid value "many" for flag --graphs: want a whole number`},
	} {
		code, _, stderr := runCmd(c.args, "")
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args, code, c.want, stderr)
		}
		if strings.Contains(stderr, "parse error") || regexp.MustCompile(`(flag|for|:) -[a-z]`).MatchString(stderr) {
			t.Errorf("%v: a flag named with one dash, or Go's bare parse error:\n%s", c.args, stderr)
		}
	}
}

// TestFlagUsageSentencesEnd: no flag's usage text, on any command, stops
// on a word that leaves its sentence unfinished ("... the same").
func TestFlagUsageSentencesEnd(t *testing.T) {
	dangling := map[string]bool{"the": true, "a": true, "an": true, "of": true, "to": true, "and": true, "or": true,
		"same": true, "with": true, "for": true, "by": true, "in": true, "its": true, "their": true}
	for name := range commands {
		_, out, _ := runCmd([]string{name, "-h"}, "")
		var flagName, text string
		check := func() {
			text = regexp.MustCompile(`\s*\(default .*\)$`).ReplaceAllString(strings.TrimSpace(text), "")
			words := strings.Fields(text)
			if flagName != "" && len(words) > 0 && dangling[strings.ToLower(words[len(words)-1])] {
				t.Errorf("cfgfuzz %s -h: the usage of %s ends unfinished: %q", name, flagName, lastBytes(text, 80))
			}
		}
		for _, line := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(line, "  -"):
				check()
				f := strings.Fields(line)
				flagName, text = f[0], strings.Join(f[1:], " ")
				if strings.Contains(line, "\t") { // a short flag's usage on its own line
					_, text, _ = strings.Cut(line, "\t")
				}
			case strings.HasPrefix(line, "    \t"):
				text += " " + strings.TrimSpace(line)
			}
		}
		check()
	}
}

// TestRepoFlagNamesAMissingRepository: --repo naming no directory, or one
// outside any git repository, is a usage error that names --repo and why,
// before anything is built.
func TestRepoFlagNamesAMissingRepository(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	plain := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--repo", missing, "--baseline", "v1", "--graphs", "1", "--out", filepath.Join(plain, "c")}, "--repo: " + missing + ": no such directory"},
		{[]string{"compare", "--repo", plain, "--baseline", "v1", "--graphs", "1", "--out", filepath.Join(plain, "c")}, "--repo: " + plain + ": not inside a git repository"},
		{[]string{"bisect", "--repo", missing, "--good", "a", "--bad", "b", "-"}, "--repo: " + missing + ": no such directory"},
	} {
		if code, out, errs := runCmd(tc.args, "{{1}, {}}\n"); code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
}

// TestBadStrategyFaultOrFormRefusedUpFront: check refuses an unknown
// --strategy or --inject before judging a graph, as run does, and
// `cfgfuzz structurize` an unknown --form before serving.
func TestBadStrategyFaultOrFormRefusedUpFront(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--strategy", "bogus", "-"}, `unknown strategy "bogus"`},
		{[]string{"check", "--inject", "bogus", "-"}, `unknown fault "bogus"`},
		{[]string{"structurize", "--form", "bogus"}, `--form "bogus": want module or func`},
	} {
		code, out, errs := runCmd(tc.args, "{{1}, {}}\n")
		if code != exitUsage || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d, want 2, %q and nothing on stdout\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
}

// TestCurrentSideNamedOnce: compare's --current and --structurizer both
// name the current side; given both, the campaign is refused, naming
// them, rather than one silently ignored.
func TestCurrentSideNamedOnce(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	code, _, stderr := runCmd([]string{"compare", "--current", "self", "--structurizer", "cmd:cfgfuzz structurize --inject swap-arms",
		"--baseline-structurizer", "self", "--graphs", "5", "--out", out}, "")
	if code != exitUsage || !strings.Contains(stderr, "--current self and --structurizer cmd:cfgfuzz structurize --inject swap-arms both name the current side") {
		t.Errorf("exit %d, %q; want 2 naming both flags", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused campaign made %s: %v", out, err)
	}
}

// TestCompareAgainstItselfNoted: a comparison whose sides are one spec on
// one strategy says it can show only chance; one with a fault planted on
// the current side, or two strategies, says nothing.
func TestCompareAgainstItselfNoted(t *testing.T) {
	const note = "both sides are self, asked the same strategy"
	for _, tc := range []struct {
		extra []string
		noted bool
	}{{nil, true}, {[]string{"--inject", "swap-arms"}, false}, {[]string{"--baseline-strategy", "dispatch"}, false}} {
		args := append([]string{"compare", "--baseline-structurizer", "self", "--current", "self", "--graphs", "5", "--progress", "none", "--minimize=false", "--out", filepath.Join(t.TempDir(), "c")}, tc.extra...)
		_, _, stderr := runCmd(args, "")
		if got := strings.Contains(stderr, note); got != tc.noted {
			t.Errorf("%q: noted %v, want %v\n%s", tc.extra, got, tc.noted, stderr)
		}
	}
}
