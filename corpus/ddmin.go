// ddmin.go: chunked delta debugging (Zeller and Hildebrandt, "Simplifying
// and Isolating Failure-Inducing Input", IEEE TSE 28(2), 2002). The input is
// a list of elements (block ids, edges) of one starting graph; the search
// removes chunks of it while the candidate built from the rest still fails.
// This is the complement-only variant syzkaller and C-Reduce use: chunks
// shrink from half the list down to single elements, a removal that keeps
// the failure is kept at once and the sweep goes on with the next chunk,
// and the single-element sweep repeats until it removes nothing, so the
// result is 1-minimal with respect to the list.

package corpus

// ddmin returns the subset of elems that the search kept. fails(keep)
// builds the candidate from keep and reports whether it still fails; it is
// never called with elems itself. stop is polled between calls and ends
// the search early (the limits of the caller).
func ddmin[E any](elems []E, fails func(keep []E) bool, stop func() bool) []E {
	n := 2
	for len(elems) > 0 && !stop() {
		size := (len(elems) + n - 1) / n
		removed := false
		for start := 0; start < len(elems) && !stop(); {
			end := min(start+size, len(elems))
			cand := make([]E, 0, len(elems)-(end-start))
			cand = append(append(cand, elems[:start]...), elems[end:]...)
			if fails(cand) {
				elems, removed = cand, true
				continue // the next chunk now starts at start
			}
			start = end
		}
		switch {
		case size > 1 && !removed:
			n = min(2*n, len(elems))
		case size == 1 && !removed:
			return elems
		}
	}
	return elems
}
