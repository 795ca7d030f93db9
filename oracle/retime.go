// retime.go: the one rule for a slow verdict, which campaigns (package
// fuzz's workers), `cfgfuzz check` and the corpus's Judge (minimize,
// regress) all follow: a growth:time verdict stands only when the
// structurizer is slow three times in a row. The structurization is timed
// twice more and the checks run again with the fastest of the three
// times, so a pause of a loaded machine (or of the garbage collector) is
// not a finding and reports stay equal from run to run.

package oracle

import "time"

// RetimeRuns is how many more times a slow structurization is timed.
const RetimeRuns = 2

// RetimeSlow returns vs unchanged unless its first failure is growth:time;
// then it calls again RetimeRuns times (each call structurizes sub's graph
// once more and returns the time it took; a failed run returns a time no
// shorter than the first), keeps the fastest time in sub.Info.Duration and
// returns o's checks run again on sub, with shared lent as in CheckShared
// (nil lends nothing).
func RetimeSlow(o *Oracle, sub *Subject, shared *Shared, vs []Verdict, again func() time.Duration) []Verdict {
	if v := Failed(vs); v == nil || v.Signature != "growth:"+SigGrowthTime {
		return vs
	}
	o.setRunning(&growthName)
	for range RetimeRuns {
		sub.Info.Duration = min(sub.Info.Duration, again())
	}
	o.setRunning(nil)
	return o.CheckShared(sub, shared)
}

// growthName is the check RetimeSlow runs for (Oracle.Running).
var growthName = "growth"
