// gctune.go keeps cmd/cfgfuzz's garbage collector target (GOGC) from
// multiplying a large live heap: CampaignGCPercent suits the small heap
// of a short campaign, but a campaign keeps every graph's record until
// its report (engine.go), so its live heap grows with its graphs, and at
// 400% the process held five times that. TuneGC lowers the target as
// the live heap grows, so that the garbage above it stays within
// CampaignHeapHeadroom, down to Go's default of 100.

package fuzz

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// CampaignHeapHeadroom is the garbage TuneGC lets the heap hold above its
// live part once CampaignGCPercent would allow more.
const CampaignHeapHeadroom = 256 << 20

// GCPercentFor is the GOGC for a live heap of live bytes: CampaignGCPercent
// while that leaves at most CampaignHeapHeadroom of garbage, less above,
// never below 100.
func GCPercentFor(live uint64) int {
	if live == 0 {
		return CampaignGCPercent
	}
	return int(max(100, min(CampaignGCPercent, CampaignHeapHeadroom*100/live)))
}

// TuneGC sets GOGC to GCPercentFor the live heap now and every period,
// for the rest of the process.
func TuneGC(period time.Duration) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	percent := func() int {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return CampaignGCPercent
		}
		return GCPercentFor(sample[0].Value.Uint64())
	}
	last := percent()
	debug.SetGCPercent(last)
	go func() {
		for range time.Tick(period) {
			if p := percent(); p != last {
				debug.SetGCPercent(p)
				last = p
			}
		}
	}()
}
