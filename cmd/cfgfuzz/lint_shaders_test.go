// lint_shaders_test.go: `cfgfuzz lint` on what real compilers emit. The
// GLSL and HLSL shaders of testdata/shaders (nested loops with break and
// continue, do-while, switches with fall-through and a default in the
// middle, discard, terminateInvocation, demote, ray tracing and task
// shader terminators, several functions, OpPhi-heavy code) are compiled by
// glslangValidator at -O0, -Os and with NonSemantic debug information, and
// the -O0 module is also run through spirv-opt -O and through a set of
// passes that reshape loops (unswitch, peel, unroll, merge-return). Every
// module spirv-val accepts must lint clean. Skipped without
// glslangValidator; spirv-opt's variants are skipped without spirv-opt.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// shaderHeader reads a shader's "// glslang: ARGS" and "// val: ENV"
// lines (defaults: --target-env vulkan1.2, vulkan1.2).
func shaderHeader(text string) (args []string, env string) {
	args, env = []string{"--target-env", "vulkan1.2"}, "vulkan1.2"
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "// glslang: "); ok {
			args = strings.Fields(v)
		}
		if v, ok := strings.CutPrefix(line, "// val: "); ok {
			env = strings.TrimSpace(v)
		}
	}
	return args, env
}

func TestLintCompiledShaders(t *testing.T) {
	glslang, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not installed (Debian: glslang-tools); the checked-in modules of oracle/testdata/foreign are tested without it")
	}
	opt, optErr := exec.LookPath("spirv-opt")
	sources, err := filepath.Glob("testdata/shaders/*")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no shaders: %v", err)
	}
	dir := t.TempDir()
	variants := map[string][]string{
		"O0":  nil,
		"Os":  {"-Os"},
		"gVS": {"-gVS"},
	}
	passes := map[string][]string{
		"opt-O": {"-O"},
		"opt-loops": {"--ssa-rewrite", "--loop-unswitch", "--loop-peeling", "--merge-return",
			"--loop-unroll", "--eliminate-dead-branches", "--merge-blocks", "--compact-ids"},
	}
	linted, rejected := 0, 0
	check := func(t *testing.T, mod, env string) {
		t.Helper()
		val, err := oracle.LookupValidator(env)
		if err != nil {
			t.Skip(err)
		}
		data, err := os.ReadFile(mod)
		if err != nil {
			t.Fatal(err)
		}
		if ok, msg, err := val.Validate(data); err != nil || !ok {
			// The corpus is for valid modules: one the validator rejects
			// (another glslang's output) says nothing about lint.
			t.Logf("%s: spirv-val rejects it, not linted: %v %s", filepath.Base(mod), err, firstLine(msg))
			rejected++
			return
		}
		rec := lintFile(mod, nil, oracle.RulesOptions{})
		if rec.Error != "" || len(rec.Violations) > 0 {
			t.Errorf("%s: spirv-val (%s) accepts it, lint says: %s %v", filepath.Base(mod), env, rec.Error, rec.Violations)
		}
		linted++
	}
	for _, src := range sources {
		text, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		args, env := shaderHeader(string(text))
		base := filepath.Join(dir, filepath.Base(src))
		for name, extra := range variants {
			out := base + "." + name + ".spv"
			cmd := append(append(append([]string{"-V"}, args...), extra...), "-o", out, src)
			if msg, err := exec.Command(glslang, cmd...).CombinedOutput(); err != nil {
				t.Errorf("glslangValidator %v: %v\n%s", cmd, err, msg)
				continue
			}
			check(t, out, env)
			if name != "O0" || optErr != nil {
				continue
			}
			for pname, flags := range passes {
				popt := base + "." + pname + ".spv"
				if msg, err := exec.Command(opt, append(append([]string{}, flags...), out, "-o", popt)...).CombinedOutput(); err != nil {
					t.Errorf("spirv-opt %v %s: %v\n%s", flags, filepath.Base(out), err, msg)
					continue
				}
				check(t, popt, env)
			}
		}
	}
	t.Logf("%d modules linted clean, %d left out because spirv-val rejects them", linted, rejected)
}
