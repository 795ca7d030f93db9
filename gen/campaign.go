// campaign.go: the block counts a campaign draws its random graphs at.
// Most graphs keep the field's 5-9 blocks (the shape its campaigns
// used); one in CampaignLargeEvery, chosen by the graph's own seed, has
// CampaignLargeMin to CampaignLargeMax blocks, and one in
// CampaignHugeEvery (taken from those) CampaignHugeMin to CampaignHugeMax.
// A fault that only shows once a graph nests a few constructs deep (a
// structurizer's nested layout silently rejected, its fallback correct but
// not idempotent) cannot show on 5-9 blocks, where every layout is small
// enough to come out the same; one that shows only past a size (a 64-bit
// block set, a search budget, a recursion depth, a value routed through
// a join several constructs away) cannot show on 40. Recompilers meet
// functions of well over a thousand blocks; the huge tier stops at a few
// hundred so that one such graph costs a campaign about as much as a few
// dozen small ones. The exhaustive kind keeps its growing order.

package gen

// Campaign sizes: one graph in CampaignLargeEvery has CampaignLargeMin
// to CampaignLargeMax blocks, except one in CampaignHugeEvery, which has
// CampaignHugeMin to CampaignHugeMax.
const (
	CampaignLargeEvery = 16
	CampaignLargeMin   = 10
	CampaignLargeMax   = 40
	CampaignHugeEvery  = 128
	CampaignHugeMin    = 41
	CampaignHugeMax    = 400
)

// campaignSalt keeps the large draw independent of the generator's own
// draws from the same seed.
const campaignSalt = 0x6c61726765 // "large"

// CampaignBlocks is the block range of the graph a campaign generates
// from seed for kind k: (0, 0), the Config default, the large range or
// the huge one. It is a function of (k, seed) alone, so a replay from the
// printed seed gets the same range (`cfgfuzz gen --blocks MIN-MAX`).
func CampaignBlocks(k Kind, seed uint64) (minBlocks, maxBlocks int) {
	if k == Exhaustive {
		return 0, 0
	}
	switch r := mix64(seed ^ campaignSalt); {
	case r%CampaignHugeEvery == 0:
		return CampaignHugeMin, CampaignHugeMax
	case r%CampaignLargeEvery == 0:
		return CampaignLargeMin, CampaignLargeMax
	}
	return 0, 0
}
