package corpus

import (
	"slices"
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
