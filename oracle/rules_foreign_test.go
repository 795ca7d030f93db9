// rules_foreign_test.go: whole modules in the shapes real compilers
// (glslang, DXC, spirv-opt) and other extensions produce, outside
// cfgfuzz's module convention (testdata/foreign/*.spvasm). Each file's
// header comments say how to assemble it, for which environment spirv-val
// judges it, and what the rules checker must say:
//
//	; as: FLAGS          spirv-as flags (default --target-env vulkan1.1)
//	; val: ENV           spirv-val's target environment (default vulkan1.1)
//	; expect: clean      no violation; or a rule id (R5), or "error"
//	; message: TEXT      text the violation or error must contain
//	; spirv-val: rejects spirv-val's verdict, when it is not the one
//	                     expect implies (clean: accepts, else rejects);
//	                     "any" where SPIRV-Tools versions differ
package oracle

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// foreignCase is one testdata/foreign file's header.
type foreignCase struct {
	as       []string
	val      string
	expect   string
	message  string
	valMatch string // "accepts", "rejects" or "any"
}

func readForeignCase(t *testing.T, text string) foreignCase {
	t.Helper()
	c := foreignCase{as: []string{"--target-env", "vulkan1.1"}, val: "vulkan1.1"}
	for _, line := range strings.Split(text, "\n") {
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "; "), ": ")
		if !ok || !strings.HasPrefix(line, "; ") {
			continue
		}
		switch key {
		case "as":
			c.as = strings.Fields(value)
		case "val":
			c.val = value
		case "expect":
			c.expect = value
		case "message":
			c.message = value
		case "spirv-val":
			c.valMatch = value
		}
	}
	if c.expect == "" {
		t.Fatal("no '; expect:' line")
	}
	if c.valMatch == "" {
		c.valMatch = "rejects"
		if c.expect == "clean" {
			c.valMatch = "accepts"
		}
	}
	return c
}

// assembleFlags runs spirv-as with flags on text.
func assembleFlags(t *testing.T, text []byte, flags []string) []byte {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Skip("spirv-as not installed")
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "m.spvasm"), filepath.Join(dir, "m.spv")
	if err := os.WriteFile(src, text, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(slices.Clone(flags), "-o", out, src)
	if msg, err := exec.Command(as, args...).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as %v: %v: %s", flags, err, msg)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestRulesForeignModules(t *testing.T) {
	files, err := filepath.Glob("testdata/foreign/*.spvasm")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/foreign modules: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".spvasm"), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := readForeignCase(t, string(text))
			mod := assembleFlags(t, text, c.as)
			vs, err := CheckRules(mod)
			var said string
			switch {
			case c.expect == "error":
				if err == nil {
					t.Fatalf("want an error, got violations %v", vs)
				}
				said = err.Error()
			case err != nil:
				t.Fatalf("want %s, got error: %v", c.expect, err)
			case c.expect == "clean":
				if len(vs) > 0 {
					t.Errorf("want clean, got %v", vs)
				}
			default:
				if !slices.Contains(rulesOf(vs), c.expect) {
					t.Errorf("want %s, got %v", c.expect, vs)
				}
				for _, v := range vs {
					said += v.String() + "\n"
				}
			}
			if c.message != "" && !strings.Contains(said, c.message) {
				t.Errorf("want a message with %q, got %q", c.message, said)
			}
			val := testValidator(t, c.val)
			ok, msg, err := val.Validate(mod)
			if err != nil {
				t.Fatal(err)
			}
			if c.valMatch == "any" {
				t.Logf("spirv-val accepts=%v: %s", ok, firstLine(msg))
			} else if ok != (c.valMatch == "accepts") {
				t.Errorf("spirv-val accepts=%v, the file says it %s: %s", ok, c.valMatch, firstLine(msg))
			}
		})
	}
}
