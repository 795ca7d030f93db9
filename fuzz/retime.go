// retime.go: the one rule for a slow verdict, shared by campaigns (the
// worker) and `cfgfuzz check`: a growth:time verdict stands only when the
// structurizer is slow three times in a row. The structurization is timed
// twice more and the checks run again with the fastest of the three times,
// so a pause of a loaded machine (or of the garbage collector) is not a
// finding and reports stay equal from run to run.
package fuzz

import (
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// RetimeRuns is how many more times a slow structurization is timed.
const RetimeRuns = 2

// sigGrowthTime is the oracle's verdict on a slow structurization.
const sigGrowthTime = "growth:" + oracle.SigGrowthTime

// RetimeSlow returns vs unchanged unless its first failure is growth:time;
// then it calls again RetimeRuns times (each call structurizes sub's graph
// once more and returns the time it took), keeps the fastest time in
// sub.Info.Duration and returns the checks of orc run again on sub.
func RetimeSlow(orc *oracle.Oracle, sub *oracle.Subject, vs []oracle.Verdict, again func() time.Duration) []oracle.Verdict {
	return retimeShared(orc, sub, nil, vs, again)
}

// retimeShared is RetimeSlow for a compare's side, whose checks run again
// with the other side's module verdicts lent (oracle.Oracle.CheckShared).
func retimeShared(orc *oracle.Oracle, sub *oracle.Subject, shared *oracle.Shared, vs []oracle.Verdict, again func() time.Duration) []oracle.Verdict {
	if v := oracle.Failed(vs); v == nil || v.Signature != sigGrowthTime {
		return vs
	}
	for range RetimeRuns {
		sub.Info.Duration = min(sub.Info.Duration, again())
	}
	return orc.CheckShared(sub, shared)
}
