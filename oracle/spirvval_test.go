// spirvval_test.go: the validator seam. LookupValidator gives the
// in-process validator in a cgo build and the executable without cgo; the
// two give the same verdicts and the same normalized signatures on the
// hand-written rule cases, with the in-process validator's quiet first
// pass and without it (NewNamedLibValidator); unknown target environments
// are an error; the library and the executable report one version; the
// emitter's switch limit is the validator's.
package oracle

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestLookupValidatorKind(t *testing.T) {
	v, err := LookupValidator("")
	if err != nil {
		t.Skip(err)
	}
	want := "spirv-val (exec)"
	if HaveLibValidator {
		want = "spirv-val (lib)"
	}
	if v.Name() != want {
		t.Errorf("LookupValidator gives %s, want %s", v.Name(), want)
	}
	if HaveLibValidator {
		if _, err := NewLibValidator("vulkan9.9"); err == nil {
			t.Error("an unknown target environment should be an error")
		}
	}
}

// TestValidatorVersion: ValidatorVersion names SPIRV-Tools and, where the
// spirv-val executable is on PATH, is the first line of its --version (on
// Debian the library and the executable come from one package).
func TestValidatorVersion(t *testing.T) {
	v := ValidatorVersion()
	if !strings.HasPrefix(v, "SPIRV-Tools v") || strings.Contains(v, "\n") {
		t.Fatalf("ValidatorVersion() = %q, want one line starting SPIRV-Tools v", v)
	}
	if _, err := exec.LookPath("spirv-val"); err != nil {
		t.Skip("no spirv-val on PATH to compare with")
	}
	if exe := execValidatorVersion(); exe != v {
		t.Errorf("ValidatorVersion() = %q, spirv-val --version says %q", v, exe)
	}
}

func TestLibAndExecValidatorsAgree(t *testing.T) {
	if !HaveLibValidator {
		t.Skip("built without cgo")
	}
	path, err := exec.LookPath("spirv-val")
	if err != nil {
		t.Skip("no spirv-val executable")
	}
	bad := 0
	for _, c := range ruleCases {
		lib, err := NewLibValidator(c.valEnv)
		if err != nil {
			t.Fatal(err)
		}
		named, err := NewNamedLibValidator(c.valEnv)
		if err != nil {
			t.Fatal(err)
		}
		ex := ExecValidator{Path: path, Env: c.valEnv}
		for _, kind := range []string{"bad", "good"} {
			body, err := os.ReadFile("testdata/rules/" + c.stem + "." + kind)
			if err != nil {
				t.Fatal(err)
			}
			mod := assemble(t, body, c.asEnv)
			ok1, msg1, err1 := lib.Validate(mod)
			ok2, msg2, err2 := ex.Validate(mod)
			ok3, msg3, err3 := named.Validate(mod)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatal(err1, err2, err3)
			}
			if ok1 != ok2 || NormalizeValidatorMessage(msg1) != NormalizeValidatorMessage(msg2) {
				t.Errorf("%s.%s: lib %v %q, exec %v %q", c.stem, kind, ok1, msg1, ok2, msg2)
			}
			if ok1 != ok3 || msg1 != msg3 {
				t.Errorf("%s.%s: lib %v %q, named lib %v %q", c.stem, kind, ok1, msg1, ok3, msg3)
			}
			if !ok2 {
				bad++
			}
		}
	}
	if bad == 0 {
		t.Error("no rule case is invalid to spirv-val: the rejecting path went untested")
	}
	t.Logf("%d rule cases, %d modules spirv-val rejects", len(ruleCases), bad)
}

func TestNoValidatorIsAClearError(t *testing.T) {
	if HaveLibValidator {
		t.Skip("the cgo build always has the in-process validator")
	}
	t.Setenv("PATH", t.TempDir())
	_, err := LookupValidator("")
	if err == nil || !strings.Contains(err.Error(), "cgo") || !strings.Contains(err.Error(), "spirv-tools") {
		t.Errorf("want an error naming both ways to get a validator, got %v", err)
	}
}

// TestSwitchCaseLimit: emit.MaxSwitchCases is the validator's limit on an
// OpSwitch's (literal, label) pairs, SPIR-V's universal limit: the
// dispatch loop of a chain of n blocks switches on n cases, and that many
// validate, while one case more the emitter refuses.
func TestSwitchCaseLimit(t *testing.T) {
	v, err := LookupValidator("")
	if err != nil {
		t.Skip(err)
	}
	chain := func(n int) *cfg.Graph {
		g := &cfg.Graph{Succs: make([][]int, n)}
		for i := 0; i+1 < n; i++ {
			g.Succs[i] = []int{i + 1}
		}
		return g
	}
	for _, cases := range []int{emit.MaxSwitchCases, emit.MaxSwitchCases + 1} {
		res, err := structurizer.Structurize(chain(cases), structurizer.Options{Strategy: "dispatch"})
		if err != nil {
			t.Fatal(err)
		}
		mod, err := emit.Bytes(res.Func, emit.Options{})
		var ue *emit.UnsupportedError
		if cases > emit.MaxSwitchCases {
			if !errors.As(err, &ue) || ue.Cases != cases {
				t.Errorf("a switch of %d cases: %v, want an UnsupportedError", cases, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("a switch of %d cases: %v", cases, err)
		}
		m, err := spirv.Decode(mod)
		if err != nil {
			t.Fatal(err)
		}
		widest := 0
		for _, in := range m.Insts {
			if in.Op == spirv.OpSwitch {
				widest = max(widest, (len(in.Operands)-2)/2)
			}
		}
		if widest != cases {
			t.Fatalf("the dispatch loop of %d blocks switches on %d cases, want %d", cases, widest, cases)
		}
		if ok, msg, err := v.Validate(mod); err != nil || !ok {
			t.Errorf("a switch of %d cases does not validate: %s %v", cases, msg, err)
		}
	}
}
