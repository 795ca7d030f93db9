// dispatch.go defines a campaign's dispatch share. The dispatch strategy
// is the structured strategy's fallback and the reference its layout is
// checked against (ARCHITECTURE.md, guarantee 1), so a campaign on cfgfuzz's own structurizer
// runs it too: on about one graph index in Settings.DispatchEvery, drawn
// by a hash of the campaign seed and the index, every side runs the
// dispatch strategy instead of Settings.Strategy. The draw depends on
// nothing else, so shards, resumed runs and any number of workers pick the
// same graphs, and a record says which strategy it ran (Record.Strategy);
// findings are kept per strategy and replayed and minimized with it.

package fuzz

// DispatchStrategy is the strategy of the dispatch share.
const DispatchStrategy = "dispatch"

// DefaultDispatchEvery is the share cmd/cfgfuzz gives a campaign on its
// own structurizer's default strategy: one graph in 8.
const DefaultDispatchEvery = 8

// GraphStrategy is the strategy graph index i runs: DispatchStrategy when
// the dispatch share draws it, else s.Strategy ("" the structurizer's
// default).
func (s *Settings) GraphStrategy(i int) string {
	if s.dispatchDrawn(i) {
		return DispatchStrategy
	}
	return s.Strategy
}

// dispatchDrawn reports whether the dispatch share draws graph index i.
func (s *Settings) dispatchDrawn(i int) bool {
	if s.DispatchEvery <= 0 || s.Strategy == DispatchStrategy {
		return false
	}
	return shareHash(s.Seed, i)%uint64(s.DispatchEvery) == 0
}

// shareHash mixes the campaign seed and a graph index (SplitMix64's
// finalizer over seed + golden-ratio multiples of i+1).
func shareHash(seed uint64, i int) uint64 {
	x := seed + uint64(i+1)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
