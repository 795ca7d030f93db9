// campaign.go: the block counts a campaign draws its random graphs at.
// Most graphs keep the field's 5-9 blocks (the shape its campaigns
// used), and one in CampaignLargeEvery, chosen by the graph's own seed,
// has CampaignLargeMin to CampaignLargeMax blocks. A fault that only shows
// once a graph nests a few constructs deep (a structurizer's nested layout
// silently rejected, its fallback correct but not idempotent) cannot show
// on 5-9 blocks, where every layout is small enough to come out the same.
// The exhaustive kind keeps its growing order.

package gen

// Campaign sizes: one graph in CampaignLargeEvery has CampaignLargeMin
// to CampaignLargeMax blocks.
const (
	CampaignLargeEvery = 16
	CampaignLargeMin   = 10
	CampaignLargeMax   = 40
)

// campaignSalt keeps the large draw independent of the generator's own
// draws from the same seed.
const campaignSalt = 0x6c61726765 // "large"

// CampaignBlocks is the block range of the graph a campaign generates
// from seed for kind k: (0, 0), the Config default, or the large range.
// It is a function of (k, seed) alone, so a replay from the printed seed
// gets the same range (`cfgfuzz gen --blocks MIN-MAX`).
func CampaignBlocks(k Kind, seed uint64) (minBlocks, maxBlocks int) {
	if k == Exhaustive || mix64(seed^campaignSalt)%CampaignLargeEvery != 0 {
		return 0, 0
	}
	return CampaignLargeMin, CampaignLargeMax
}
