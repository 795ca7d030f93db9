// reference_rows.go: one row of the brute-force dominance relations
// (reference.go), from the same definitions, in O(n+e) a row: what the
// oracle's pdom check samples on graphs too large for the full relation.

package cfg

// RefDominatesRow returns row a of RefDominates(g): dom[b] = a dominates b.
// reach is the blocks reachable from the entry (RefReachable(g)).
func RefDominatesRow(g *Graph, reach []bool, a int) []bool {
	n := len(g.Succs)
	row := make([]bool, n)
	row[a] = true
	if !reach[a] {
		return row
	}
	without := reachWithout(n, []int{0}, func(b int) []int { return g.Succs[b] }, a)
	for b := range n {
		row[b] = row[b] || reach[b] && !without[b]
	}
	return row
}

// RefPostDominatesRow returns row a of RefPostDominates(g): pdom[b] = a
// post-dominates b. live is RefExitReaching(g, preds), preds g.Preds().
func RefPostDominatesRow(g *Graph, live []bool, preds [][]int, a int) []bool {
	n := len(g.Succs)
	row := make([]bool, n)
	row[a] = true
	if !live[a] {
		return row
	}
	without := reachWithout(n, returning(g), func(b int) []int { return preds[b] }, a)
	for b := range n {
		row[b] = row[b] || live[b] && !without[b]
	}
	return row
}

// RefReachable marks the blocks reachable from the entry.
func RefReachable(g *Graph) []bool {
	return reachWithout(len(g.Succs), []int{0}, func(b int) []int { return g.Succs[b] }, NoBlock)
}

// RefExitReaching marks the blocks from which a returning block is
// reachable, as RefReachesExit does, by one search over preds (g.Preds()).
func RefExitReaching(g *Graph, preds [][]int) []bool {
	return reachWithout(len(g.Succs), returning(g), func(b int) []int { return preds[b] }, NoBlock)
}

// returning lists the blocks without successors.
func returning(g *Graph) []int {
	var roots []int
	for b, s := range g.Succs {
		if len(s) == 0 {
			roots = append(roots, b)
		}
	}
	return roots
}
