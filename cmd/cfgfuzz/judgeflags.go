// judgeflags.go: the judgement settings every command that judges a graph
// takes, defined once: --allow-fallbacks, --check-timeout, --growth-time,
// --rules-compat and --target-env, with the same meaning and defaults on
// check, minimize, regress, bisect, run and compare, so a campaign's
// finding is minimized and replayed under the settings that found it. A
// value these flags cannot take is a usage error naming the flag and the
// value.

package main

import (
	"cmp"
	"flag"
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// judgeFlags are the judgement settings shared by the judging commands.
type judgeFlags struct {
	allowFallbacks bool
	checkTimeout   time.Duration
	growthTime     time.Duration
	targetEnv      string
	rulesCompat    string
}

// Usages of the judgement flags.
const (
	allowFallbacksUsage = "do not report a structurizer's fallback to the dispatch loop (stats.fallbacks > 0) as a finding: the fallback check off, as --checks -fallback"
	checkTimeoutUsage   = "limit on one graph's checks: past it the graph has no verdict (outcome error, incomplete)"
	growthTimeUsage     = "the growth check's limit on a structurizer's time (`DURATION`): an answer that took longer than it and 1ms per block of the graph is the finding growth:time; a campaign, finding or regression file that records none was judged under the default. --timeout is the limit on one structurizer call (structurize:timeout past it): for a slow structurizer raise both, --timeout the larger. --checks -growth drops every growth limit, the block, word and copy limits with this one"
	targetEnvUsage      = "spirv-val's target environment: `ENV` is a name the SPIRV-Tools in use knows, as for spirv-val --target-env (vulkan1.2, vulkan1.3, universal1.5, ...)"
)

// rulesCompatUsage documents --rules-compat.
var rulesCompatUsage = "rules check: follow a validator's readings where they differ from the specification (`NAME`: " + oracle.CompatSPIRVTools2023 + "; default none, the specification)"

// define declares the flags on fs with check's defaults.
func (j *judgeFlags) define(fs *flag.FlagSet) {
	fs.BoolVar(&j.allowFallbacks, "allow-fallbacks", false, allowFallbacksUsage)
	fs.DurationVar(&j.checkTimeout, "check-timeout", fuzz.DefaultCheckTimeout, checkTimeoutUsage)
	fs.DurationVar(&j.growthTime, "growth-time", fuzz.DefaultGrowthTime, growthTimeUsage)
	fs.StringVar(&j.targetEnv, "target-env", oracle.DefaultTargetEnv, targetEnvUsage)
	fs.StringVar(&j.rulesCompat, "rules-compat", "", rulesCompatUsage)
}

// validate refuses a value the flags cannot take; the error names the
// flag and the value. The ranges of --check-timeout and --growth-time are
// checked with the other numeric flags (flagbounds.go); they are checked
// here too for a command whose flag set is not in that table.
func (j judgeFlags) validate() error {
	if j.checkTimeout <= 0 {
		return fmt.Errorf("invalid value %q for flag --check-timeout: want a positive duration", j.checkTimeout.String())
	}
	if j.growthTime <= 0 {
		return fmt.Errorf("invalid value %q for flag --growth-time: want a positive duration", j.growthTime.String())
	}
	if j.rulesCompat != "" && j.rulesCompat != oracle.CompatSPIRVTools2023 {
		return fmt.Errorf("invalid value %q for flag --rules-compat: want %s, or none", j.rulesCompat, oracle.CompatSPIRVTools2023)
	}
	if j.targetEnv == "" {
		return fmt.Errorf("invalid value %q for flag --target-env: want a target environment, e.g. %s", j.targetEnv, oracle.DefaultTargetEnv)
	}
	if err := oracle.UnknownTargetEnv(j.targetEnv); err != nil {
		return fmt.Errorf("invalid value %q for flag --target-env: %v", j.targetEnv, err)
	}
	return nil
}

// checks is the --checks value spec with --allow-fallbacks applied; nil
// means the oracle's defaults.
func (j judgeFlags) checks(spec string) []string {
	return resolveChecks(spec, j.allowFallbacks)
}

// apply sets the oracle's target environment, rules reading and the
// growth check's time limit, and bounds a driver's run (the gpu check) by
// the check limit.
func (j judgeFlags) apply(o *oracle.Options) {
	o.Env, o.RulesCompat = j.targetEnv, j.rulesCompat
	o.Growth.TimeLimit = j.growthTime
	o.GPUTimeout = j.checkTimeout
}

// settings records the flags in a campaign's settings (those at their
// defaults left out, as campaign.json and report.json omit them).
func (j judgeFlags) settings(s *fuzz.Settings) {
	if j.checkTimeout != fuzz.DefaultCheckTimeout {
		s.CheckTimeout = fuzz.Duration(j.checkTimeout)
	}
	if j.growthTime != fuzz.DefaultGrowthTime {
		s.GrowthTime = fuzz.Duration(j.growthTime)
	}
	if j.targetEnv != oracle.DefaultTargetEnv {
		s.TargetEnv = j.targetEnv
	}
	s.RulesCompat = j.rulesCompat
}

// judgeOf is the flags that judge as a campaign of settings s judged
// (settings read back): its check limit, the growth check's time limit,
// its target environment and rules reading.
func judgeOf(s *fuzz.Settings) judgeFlags {
	j := judgeFlags{checkTimeout: time.Duration(s.CheckTimeout), growthTime: time.Duration(s.GrowthTime),
		targetEnv: cmp.Or(s.TargetEnv, oracle.DefaultTargetEnv), rulesCompat: s.RulesCompat}
	if j.checkTimeout <= 0 {
		j.checkTimeout = fuzz.DefaultCheckTimeout
	}
	if j.growthTime <= 0 {
		j.growthTime = fuzz.DefaultGrowthTime
	}
	return j
}
