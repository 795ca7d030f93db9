// hooks.go: Hooks, the test-only seams that corrupt a strategy's output
// where a real bug would, so tests can show that what stands behind it (the
// structured strategy's self-check and fallback, a campaign's checks)
// catches the corruption. Planted faults (faults.go) are the user-facing
// way to plant a bug; they skip the self-check, and hooks do not.

package structurizer

// Hooks are test-only: no command sets them, and nil (Options' zero value)
// calls nothing. A hook may change the Func it is given in place.
type Hooks struct {
	// AfterPass is called after each pass of the structured strategy's
	// pass table (structuredPasses: irreducible, loops, selections,
	// fold, thread, latch, the arms group's lift, armmerge and armbreak
	// once per round, oneblock, layout) with the Func built so far (nil
	// before the selections pass), before the pass checks and the
	// self-check.
	AfterPass func(pass string, f *Func)
	// Dispatch is called with the dispatch loop's Func before the
	// dispatch strategy returns it (also when it is the structured
	// strategy's fallback).
	Dispatch func(f *Func)
}

func (h *Hooks) afterPass(pass string, f *Func) {
	if h != nil && h.AfterPass != nil {
		h.AfterPass(pass, f)
	}
}

func (h *Hooks) dispatch(f *Func) {
	if h != nil && h.Dispatch != nil {
		h.Dispatch(f)
	}
}
