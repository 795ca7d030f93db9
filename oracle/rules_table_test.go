// rules_table_test.go: hand-written modules, one or more per rule R1-R15
// (testdata/rules/<case>.bad and .good, each a main function body after
// testdata/rules/preamble.spvasm), assembled with spirv-as. Each .bad
// module must break its rule and each .good one (the defect mended) must be
// clean; both also go through spirv-val, and the table records where the
// validator agrees (see DISAGREEMENTS.md for the cases where it does not).
package oracle

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// ruleCase is one row: the files' stem, the rule the bad module breaks,
// the target environments, and whether spirv-val rejects the bad module.
type ruleCase struct {
	stem, rule string
	asEnv      string // spirv-as --target-env
	valEnv     string // validator target environment
	valRejects bool   // false: a documented disagreement (the spec is stricter)
}

var ruleCases = []ruleCase{
	{"R01", "R1", "", "", true},
	{"R02", "R2", "", "", true},
	{"R03", "R3", "", "", true},
	{"R04", "R4", "", "", true},
	{"R05", "R5", "", "", true},
	{"R06", "R6", "", "", true},
	{"R07", "R5", "", "", true}, // R7: a return in a continue construct breaks R5c
	{"R08", "R8", "", "", true},
	{"R09", "R9", "", "", true},
	{"R10", "R10", "", "", true},
	{"R11", "R11", "", "", true},
	{"R12", "R12", "", "", true},
	{"R12-seen", "R12", "", "", false}, // validator: a target seen earlier in RPO counts as a merge
	{"R12-loop", "R12", "", "", false}, // validator before v2023.2: OpLoopMerge counts as the merge
	{"R13", "R13", "", "", true},
	{"R14", "R14", "", "", true},
	{"R14-entry", "R14", "", "", true}, // the entry block as a branch target
	{"R15", "R15", "spv1.6", "vulkan1.3", true},
}

// assemble runs spirv-as on the preamble, the body and OpFunctionEnd.
func assemble(t testing.TB, body []byte, env string) []byte {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Skip("spirv-as not installed")
	}
	pre, err := os.ReadFile("testdata/rules/preamble.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	text := append(append(pre, body...), "OpFunctionEnd\n"...)
	return assembleEnv(t, as, text, env)
}

// assembleWhole assembles a whole module for vulkan1.1.
func assembleWhole(t testing.TB, text []byte) []byte {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Skip("spirv-as not installed")
	}
	return assembleEnv(t, as, text, "")
}

func assembleEnv(t testing.TB, as string, text []byte, env string) []byte {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "m.spvasm")
	if err := os.WriteFile(src, text, 0o644); err != nil {
		t.Fatal(err)
	}
	if env == "" {
		env = "vulkan1.1"
	}
	out := filepath.Join(dir, "m.spv")
	if msg, err := exec.Command(as, "--target-env", env, "-o", out, src).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v: %s", err, msg)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func testValidator(t testing.TB, env string) Validator {
	t.Helper()
	v, err := LookupValidator(env)
	if err != nil {
		t.Skip(err)
	}
	return v
}

func rulesOf(vs []Violation) []string {
	var r []string
	for _, v := range vs {
		if !slices.Contains(r, v.Rule) {
			r = append(r, v.Rule)
		}
	}
	return r
}

func TestRulesHandWritten(t *testing.T) {
	agree := 0
	for _, c := range ruleCases {
		t.Run(c.stem, func(t *testing.T) {
			val := testValidator(t, c.valEnv)
			for _, kind := range []string{"bad", "good"} {
				body, err := os.ReadFile("testdata/rules/" + c.stem + "." + kind)
				if err != nil {
					t.Fatal(err)
				}
				mod := assemble(t, body, c.asEnv)
				vs, err := CheckRules(mod)
				if err != nil {
					t.Fatalf("%s: %v", kind, err)
				}
				ok, msg, err := val.Validate(mod)
				if err != nil {
					t.Fatal(err)
				}
				if kind == "good" {
					if len(vs) > 0 {
						t.Errorf("mended module breaks rules: %v", vs)
					}
					if !ok {
						t.Errorf("spirv-val rejects the mended module: %s", msg)
					}
					continue
				}
				if !slices.Contains(rulesOf(vs), c.rule) {
					t.Errorf("want %s, lint says %v", c.rule, vs)
				}
				if ok == c.valRejects {
					t.Errorf("spirv-val rejects=%v, table says %v (%s)", !ok, c.valRejects, msg)
				}
				if !ok {
					agree++
				}
				t.Logf("lint %v; spirv-val: %s", rulesOf(vs), firstLine(msg))
			}
		})
	}
	t.Logf("spirv-val rejects %d of %d bad modules (the rest are documented disagreements)", agree, len(ruleCases))
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
