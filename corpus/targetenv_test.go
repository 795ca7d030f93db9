package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// TestUnknownTargetEnvRefused: a runner on a target environment the
// validator does not know is refused, not made without spirv-val, when
// the validator runs on the default one.
func TestUnknownTargetEnvRefused(t *testing.T) {
	if _, err := oracle.LookupValidator(oracle.DefaultTargetEnv); err != nil {
		t.Skipf("no validator here: %v", err)
	}
	if _, err := oracle.LookupValidator("vulkan9.9"); err == nil {
		t.Skip("the validator here takes vulkan9.9")
	}
	opt := CampaignOracle(Judging{TargetEnv: "vulkan9.9"})
	if checks := AllChecks(opt); !slices.Contains(checks, "spirv-val") {
		t.Errorf("AllChecks leaves spirv-val out on an unknown target environment: %v", checks)
	}
	if _, err := NewRunner(RunnerOptions{Oracle: opt}); err == nil {
		t.Error("a runner on an unknown target environment was made")
	}
	if _, err := NewRunner(RunnerOptions{Oracle: CampaignOracle(Judging{TargetEnv: "vulkan1.3"})}); err != nil {
		t.Errorf("a runner on vulkan1.3: %v", err)
	}
}

// TestTargetEnvHeaderReadAtParse: a '# target-env:' that is no name
// makes the file not read, the error naming the file and the line; a name
// reads, known to the validator or not (the runner refuses an unknown one
// when the file is judged: TestUnknownTargetEnvRefused).
func TestTargetEnvHeaderReadAtParse(t *testing.T) {
	for _, env := range []string{"vulkan1.3", "vulkan9.9"} {
		if r, err := ParseRegression("ok.cfg", []byte("# signature: x\n# target-env: "+env+"\n{{}}\n")); err != nil || r.Header.Env() != env {
			t.Errorf("# target-env: %s: %+v, %v", env, r, err)
		}
	}
	cases := map[string]string{"vulkan 1.3": "not a target environment's name", "": "names no target environment"}
	for env, want := range cases {
		_, err := ParseRegression("in.cfg", []byte("# signature: x\n# note\n# target-env: "+env+"\n{{}}\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "in.cfg:3: '# target-env:") || !strings.Contains(err.Error(), want) {
			t.Errorf("# target-env: %q: error %v, want in.cfg:3 and %q", env, err, want)
		}
	}
}
