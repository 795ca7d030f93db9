// judgeflags_test.go: the judgement flags (--allow-fallbacks,
// --check-timeout, --growth-time, --rules-compat, --target-env) are one definition with
// one meaning on every judging command. A campaign run with non-default
// values records them, prints them in every replay command (console,
// report.json, report.md, the findings store), and those commands, run as
// printed through sh -c, reproduce the finding's signature with check, and
// with minimize given the same flags. A finding only the setting shows
// (spirv-val under vulkan1.0 rejects the modules' SPIR-V version) is not
// reproduced without it. Invalid values are usage errors naming the flag
// and the value.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// judgeCommands are the commands that judge graphs.
var judgeCommands = []string{"check", "minimize", "regress", "bisect", "run", "compare"}

func TestJudgementFlagsOnEveryJudgingCommand(t *testing.T) {
	var want string
	for _, name := range judgeCommands {
		code, help, errs := runCmd([]string{name, "-h"}, "")
		if code != exitOK {
			t.Fatalf("%s -h: exit %d: %s", name, code, errs)
		}
		var got []string
		for _, line := range strings.Split(help, "\n") {
			for _, flag := range []string{"allow-fallbacks", "check-timeout", "growth-time", "rules-compat", "target-env"} {
				if strings.HasPrefix(line, "  -"+flag+" ") || line == "  -"+flag {
					got = append(got, line)
				}
			}
		}
		// The help of each flag (its usage line follows it) is the same
		// everywhere: compare the whole blocks.
		block := judgeHelpBlock(help)
		if len(got) != 5 {
			t.Errorf("%s -h lists %d of the 5 judgement flags:\n%s", name, len(got), help)
		}
		if want == "" {
			want = block
		} else if block != want {
			t.Errorf("%s -h: judgement flags read\n%s\nwant as check's\n%s", name, block, want)
		}
	}
	bad := map[string]string{"--target-env": "nonsense-env", "--rules-compat": "spirv-tools-1999", "--check-timeout": "0s", "--growth-time": "0s"}
	g := filepath.Join(t.TempDir(), "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {4, 1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range judgeCommands {
		for flag, value := range bad {
			args := []string{name, flag, value}
			switch name {
			case "check", "minimize":
				args = append(args, g)
			case "run", "compare":
				args = append(args, "--graphs", "1", "--out", filepath.Join(t.TempDir(), "out"))
				if name == "compare" {
					args = append(args, "--baseline-structurizer", "self")
				}
			case "bisect":
				args = append(args, "--good", "HEAD", "--bad", "HEAD", g)
			case "regress":
				args = append(args, t.TempDir())
			}
			code, _, errs := runCmd(args, "")
			if code != exitUsage || !strings.Contains(errs, flag) || !strings.Contains(errs, value) {
				t.Errorf("%s %s %s: exit %d, %q; want 2 naming the flag and the value", name, flag, value, code, errs)
			}
		}
	}
}

// judgeHelpBlock is the lines of help from each judgement flag to the next
// flag, in order.
func judgeHelpBlock(help string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(help, "\n") {
		if strings.HasPrefix(line, "  -") {
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "  -"), " ")
			in = name == "allow-fallbacks" || name == "check-timeout" || name == "growth-time" || name == "rules-compat" || name == "target-env"
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func TestCampaignJudgementSettingsReplayAndMinimize(t *testing.T) {
	cases := []struct {
		name  string
		flags []string
		// printed: what every replay command must carry.
		printed []string
		// onlyWith: the finding shows only under these settings, so a
		// minimize without the judgement flags must not reproduce it.
		onlyWith bool
	}{
		{name: "swap-arms", flags: []string{"--inject", "swap-arms", "--target-env", "vulkan1.3", "--rules-compat", "spirv-tools-2023.1", "--check-timeout", "90s", "--allow-fallbacks"},
			printed: []string{"--inject swap-arms", "--target-env vulkan1.3", "--rules-compat spirv-tools-2023.1", "--check-timeout 1m30s", "--checks "}},
		{name: "vulkan1.0", flags: []string{"--target-env", "vulkan1.0"}, printed: []string{"--target-env vulkan1.0"}, onlyWith: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "c")
			args := append([]string{"run", "--graphs", "8", "--kinds", "reducible", "--weights", "w0", "--seed", "5", "--dispatch-every", "0",
				"--minimize-steps", "300", "--progress", "none", "--out", out}, tc.flags...)
			code, stdout, stderr := runCmd(args, "")
			if code != exitFail {
				t.Fatalf("campaign: exit %d\n%s%s", code, stdout, stderr)
			}
			rep := readCampaignReport(t, out)
			if len(rep.Findings) == 0 {
				t.Fatalf("no findings:\n%s", stdout)
			}
			md, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings {
				for _, p := range tc.printed {
					if !strings.Contains(f.Replay, p) {
						t.Errorf("report.json replay %q lacks %q", f.Replay, p)
					}
				}
				if want := " --checks " + corpus.PinChecks("-fallback"); tc.name == "swap-arms" && !strings.Contains(f.Replay, want) {
					t.Errorf("replay %q: --allow-fallbacks leaves the fallback check out: want%s", f.Replay, want)
				}
				if !strings.Contains(stdout, "replay: "+f.Replay) {
					t.Errorf("the console does not print the replay %q:\n%s", f.Replay, stdout)
				}
				if !strings.Contains(string(md), f.Replay) {
					t.Errorf("report.md does not hold the replay %q", f.Replay)
				}
				if code, out := shellReplay(t, dir, f.Replay); code != exitFail || !strings.Contains(out, "FAIL "+f.Signature+" ") {
					t.Errorf("replay %q: exit %d, want 1 failing with %s:\n%s", f.Replay, code, f.Signature, out)
				}
				if f.Minimized == "" {
					t.Errorf("%s: not minimized", f.Signature)
				} else if min := fuzz.MinimizedReplay(&rep.Settings, &f); !strings.Contains(string(md), min) {
					t.Errorf("report.md does not hold the minimized graph's replay %q", min)
				} else {
					if code, out := shellReplay(t, dir, min); code != exitFail || !strings.Contains(out, "FAIL "+f.Signature+" ") {
						t.Errorf("minimized replay %q: exit %d, want 1 failing with %s:\n%s", min, code, f.Signature, out)
					}
				}

				// minimize with the replay's flags, as printed.
				print, check, ok := strings.Cut(f.Replay, " | cfgfuzz check ")
				if !ok {
					t.Fatalf("replay %q: no check command", f.Replay)
				}
				store := filepath.Join(dir, "store")
				mini := print + " > g.cfg && cfgfuzz minimize " + check + " --store " + store + " g.cfg"
				code, out := shellReplay(t, dir, mini)
				if code != exitOK || !strings.Contains(out, "minimize: "+f.Signature+":") || !strings.Contains(out, "verified: true") {
					t.Errorf("%s: exit %d, want 0 minimizing %s:\n%s", mini, code, f.Signature, out)
				}
				replays := storedReplays(t, store)
				if len(replays) == 0 {
					t.Errorf("%s: nothing stored", mini)
				}
				for _, r := range replays {
					for _, p := range tc.printed {
						if !strings.Contains(r, p) {
							t.Errorf("the store's replay %q (minimize) lacks %q", r, p)
						}
					}
				}
				if tc.onlyWith {
					plain := print + " > g.cfg && cfgfuzz minimize --signature " + shellQuote(f.Signature) + " g.cfg"
					if code, out := shellReplay(t, dir, plain); code != exitUsage {
						t.Errorf("%s: exit %d, want 2 (the finding shows only under %v):\n%s", plain, code, tc.flags, out)
					}
				}
				break // one finding is enough: the others print the same flags
			}
		})
	}
}

// storedReplays are the replay commands of every entry of the findings
// store under dir.
func storedReplays(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "findings", "*", "*", "verdict.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Replay string `json:"replay"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v.Replay)
	}
	return out
}

// TestCheckTimeoutMeansNoVerdict: past --check-timeout a graph has no
// verdict on minimize and regress as on check: exit 2, saying so.
func TestCheckTimeoutMeansNoVerdict(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {4, 1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regs := filepath.Join(dir, "regs")
	if code, _, errs := runCmd([]string{"minimize", "--inject", "swap-arms", "--regressions", regs, "--save-regression", "r", g}, ""); code != exitOK {
		t.Fatalf("minimize: exit %d: %s", code, errs)
	}
	for _, args := range [][]string{
		{"check", "--inject", "swap-arms", "--check-timeout", "1ns", g},
		{"minimize", "--inject", "swap-arms", "--check-timeout", "1ns", g},
		{"regress", "--check-timeout", "1ns", regs},
	} {
		code, out, errs := runCmd(args, "")
		if code != exitUsage || !strings.Contains(out+errs, "no verdict within 1ns (--check-timeout)") {
			t.Errorf("%s: exit %d\n%s%s\nwant 2, no verdict", strings.Join(args, " "), code, out, errs)
		}
	}
}

// TestRegressionRecordsItsJudgement: a regression minimized under a
// target environment and rules reading other than the defaults records
// them in its header; regress and check judge the file under them unless
// the flags say otherwise, and check names them when it judges the file
// under others.
func TestRegressionRecordsItsJudgement(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regs := filepath.Join(dir, "regs")
	code, _, stderr := runCmd([]string{"minimize", "--target-env", "vulkan1.0", "--rules-compat", oracle.CompatSPIRVTools2023,
		"--expect", "fail", "--regressions", regs, "--save-regression", "v10", g}, "")
	if code != exitOK {
		t.Fatalf("minimize: exit %d\n%s", code, stderr)
	}
	file := filepath.Join(regs, "v10.cfg")
	text := readFile(t, file)
	for _, want := range []string{"# target-env: vulkan1.0\n", "# rules-compat: " + oracle.CompatSPIRVTools2023 + "\n", "# signature: spirv-val:Invalid SPIR-V binary version"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the regression lacks %q:\n%s", want, text)
		}
	}
	if code, out, stderr := runCmd([]string{"regress", regs}, ""); code != exitOK {
		t.Errorf("regress under the file's own judgement: exit %d, want 0 (it still fails as expected)\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd([]string{"regress", "--target-env", oracle.DefaultTargetEnv, regs}, ""); code != exitFail {
		t.Errorf("regress --target-env %s: exit %d, want 1 (the module passes where the file expects a failure)\n%s%s", oracle.DefaultTargetEnv, code, out, stderr)
	}
	code, out, stderr := runCmd([]string{"check", file}, "")
	if code != exitFail || !strings.HasPrefix(out, "FAIL spirv-val:Invalid SPIR-V binary version") ||
		!strings.Contains(stderr, "as its header records: --target-env vulkan1.0 --rules-compat "+oracle.CompatSPIRVTools2023) {
		t.Errorf("check of the file with no flag: exit %d, want 1, failing under the header's judgement, which it names\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCmd([]string{"check", "--target-env", oracle.DefaultTargetEnv, "--rules-compat", "", file}, "")
	if code != exitOK || !strings.Contains(stderr, "judge it with --target-env vulkan1.0 --rules-compat "+oracle.CompatSPIRVTools2023) {
		t.Errorf("check of the file under the defaults given: exit %d, want 0 and a note naming the header's judgement\n%s%s", code, out, stderr)
	}
}
