// completion_test.go: the completion scripts list every command and each
// command's flags, and a value flag's values; the bash script parses
// (bash -n) and completes in bash.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	code, script, stderr := runCmd([]string{"completion", "bash"}, "")
	if code != exitOK {
		t.Fatalf("completion bash: exit %d\n%s", code, stderr)
	}
	path := filepath.Join(t.TempDir(), "cfgfuzz.bash")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bash, "-n", path).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	for name := range commands {
		if !strings.Contains(script, "    "+name+") flags=") {
			t.Errorf("the bash script has no case for %s", name)
		}
	}
	// Completing in bash itself: a command from its prefix, a flag after a
	// file operand, a flag only one command has.
	for _, tc := range []struct{ words, want, not string }{
		{"cfgfuzz che", "check", ""},
		{"cfgfuzz check g.cfg --inj", "--inject", ""},
		{"cfgfuzz regress --ju", "--junit", ""},
		{"cfgfuzz compare --cur", "--current", ""},
		{"cfgfuzz run --cur", "", "--current"},
		{"cfgfuzz completion ", "bash zsh fish", ""},
		{"cfgfuzz gen --kind ", "reducible irreducible nonterminating program exhaustive", ""},
		{"cfgfuzz run --inject sw", "swap-arms", ""},
		{"cfgfuzz run --progress ", "auto bar plain none", ""},
		{"cfgfuzz check --json ", "", "reducible"}, // a boolean takes no value: files follow
	} {
		words := strings.Fields(tc.words)
		if strings.HasSuffix(tc.words, " ") {
			words = append(words, "")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = shellQuote(w)
		}
		prog := "source " + shellQuote(path) + "; COMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=" +
			itoa(len(words)-1) + "; _cfgfuzz; echo \"${COMPREPLY[*]}\""
		out, err := exec.Command(bash, "-c", prog).CombinedOutput()
		got := strings.TrimSpace(string(out))
		if err != nil || (tc.want != "" && !strings.Contains(got, tc.want)) || (tc.not != "" && strings.Contains(got, tc.not)) {
			t.Errorf("completing %q: %q (%v), want %q without %q", tc.words, got, err, tc.want, tc.not)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestCompletionZshFish(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		code, script, stderr := runCmd([]string{"completion", shell}, "")
		if code != exitOK {
			t.Fatalf("completion %s: exit %d\n%s", shell, code, stderr)
		}
		for name := range commands {
			if !strings.Contains(script, name) {
				t.Errorf("the %s script lacks the command %s", shell, name)
			}
		}
		for _, flag := range []string{"inject", "list-faults", "junit", "current"} {
			if !strings.Contains(script, flag) {
				t.Errorf("the %s script lacks the flag --%s", shell, flag)
			}
		}
		if !strings.Contains(script, "swap-arms") || !strings.Contains(script, "nonterminating") {
			t.Errorf("the %s script lacks the values of --inject or --kind", shell)
		}
		if path, err := exec.LookPath(shell); err == nil {
			f := filepath.Join(t.TempDir(), "c."+shell)
			os.WriteFile(f, []byte(script), 0o644)
			if out, err := exec.Command(path, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, out)
			}
		} else {
			t.Logf("no %s here: its script is checked for its commands and flags only", shell)
		}
	}
	if code, _, _ := runCmd([]string{"completion", "tcsh"}, ""); code != exitUsage {
		t.Errorf("completion tcsh: exit %d, want 2", code)
	}
}
