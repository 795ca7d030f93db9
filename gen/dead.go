// dead.go: dead blocks, blocks no path from the entry reaches, laid over a
// generated graph. Recompilers meet them in most functions they lift: code
// after a return or a call that never returns, the targets of a jump table
// no index selects, blocks a decompiler could not prove dead and kept. A
// structurizer may leave them out of its module (fuzz/PROTOCOL.md), but it
// is given them, and one that crashes on them, or mis-handles the live
// blocks they branch into, has a bug no all-reachable graph shows.
//
// addDead inserts n dead blocks among the graph's blocks at positions
// drawn from the seed (the entry stays block 0, the live blocks keep their
// order); for a program's graph they go last, since the program text names
// its blocks by number. Each dead block has 1 to 4 successors: the first
// is a live block (dead code branches back into live code, the entry
// included), each other one a live block or, one time in three, a dead
// block, itself included, so dead cycles, dead conditionals and dead
// switches all occur. Nothing live branches to a dead block: the graph's
// reachable part, and with it every figure gen's other files document, is
// the graph the generator drew. A dead block is weighed like any other
// (applyWeights runs after addDead).
//
// A campaign gives one graph in CampaignDeadEvery, chosen by the graph's
// own seed, 1 to CampaignDeadMax dead blocks (CampaignDead); the
// exhaustive kind keeps its enumeration of all-reachable graphs.

package gen

import (
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// MaxDead is the most dead blocks Config.Dead may ask for.
const MaxDead = 64

// Campaign dead blocks: one graph in CampaignDeadEvery has 1 to
// CampaignDeadMax of them.
const (
	CampaignDeadEvery = 16
	CampaignDeadMax   = 3
)

const streamDead = 0x64656164626c6b31 // "deadblk1"

// deadSalt keeps the campaign's dead draw independent of its large draw
// (campaign.go) and of the generators' own draws from the same seed.
const deadSalt = 0x646561640a // "dead\n"

// CampaignDead is the number of dead blocks of the graph a campaign
// generates from seed for kind k (Config.Dead): 0 for most graphs; for
// one in CampaignDeadEvery, 1 to CampaignDeadMax. It is a function of
// (k, seed) alone, so a replay from the printed seed gets the same count
// (`cfgfuzz gen --dead N`). The exhaustive kind gets none.
func CampaignDead(k Kind, seed uint64) int {
	if k == Exhaustive {
		return 0
	}
	r := mix64(seed ^ deadSalt)
	if r%CampaignDeadEvery != 0 {
		return 0
	}
	return 1 + int((r/CampaignDeadEvery)%CampaignDeadMax)
}

// addDead returns g with n dead blocks added (see the file comment), drawn
// from seed; g itself when n is 0. last puts them after g's blocks.
func addDead(g *cfg.Graph, n int, seed uint64, last bool) *cfg.Graph {
	if n <= 0 || g.Len() == 0 {
		return g
	}
	r := newRNG(seed, streamDead)
	live := g.Len()
	total := live + n
	// at[i] is the new number of old block i (live: i < live; dead:
	// live+d): the dead blocks take n of the places 1..total-1.
	at := make([]int, total)
	dead := make([]bool, total)
	if last {
		for d := range n {
			dead[live+d] = true
		}
	} else {
		for _, p := range r.perm(total - 1)[:n] {
			dead[1+p] = true
		}
	}
	next, nextDead := 0, live
	for b := range total {
		if dead[b] {
			at[nextDead] = b
			nextDead++
		} else {
			at[next] = b
			next++
		}
	}
	h := cfg.New(total)
	for b, s := range g.Succs {
		h.Succs[at[b]] = make([]int, len(s))
		for i, t := range s {
			h.Succs[at[b]][i] = at[t]
		}
	}
	for d := range n {
		succs := make([]int, deadArity(r))
		succs[0] = at[r.intn(live)]
		for i := 1; i < len(succs); i++ {
			if r.intn(3) == 0 {
				succs[i] = at[live+r.intn(n)]
			} else {
				succs[i] = at[r.intn(live)]
			}
		}
		h.Succs[at[live+d]] = succs
	}
	return h
}

// deadArity draws a dead block's successor count: a branch half the time,
// a conditional 30%, a switch of 3 or 4 successors 20%.
func deadArity(r *rng) int {
	switch x := r.intn(10); {
	case x < 5:
		return 1
	case x < 8:
		return 2
	}
	return r.between(3, 4)
}
