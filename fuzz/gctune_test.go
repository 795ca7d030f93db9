package fuzz

import "testing"

// TestGCPercentBoundsTheGarbage: the garbage the target allows above the
// live heap stays within CampaignHeapHeadroom once CampaignGCPercent would
// allow more, and the target never drops below Go's default.
func TestGCPercentBoundsTheGarbage(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, CampaignGCPercent},
		{8 * mib, CampaignGCPercent},
		{64 * mib, CampaignGCPercent},
		{128 * mib, 200},
		{256 * mib, 100},
		{4096 * mib, 100},
	} {
		if got := GCPercentFor(c.live); got != c.want {
			t.Errorf("GCPercentFor(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
		if garbage := c.live * uint64(GCPercentFor(c.live)) / 100; c.live > 64*mib && c.live <= 256*mib && garbage > CampaignHeapHeadroom {
			t.Errorf("at %d MiB live the target allows %d MiB of garbage", c.live/mib, garbage/mib)
		}
	}
}
