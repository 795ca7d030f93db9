// faults.go: named fault injections. Each plants one realistic structurizer
// bug, off by default, so the fuzzer and the minimizer can be measured by how
// fast they catch it. Strategies consult Options.Inject through Options.Has.

package structurizer

import (
	"fmt"
	"sort"
	"strings"
)

// Faults maps each fault's name to what it plants.
var Faults = map[string]string{
	"swap-arms": "a conditional branches to its arms swapped (its true arm taken on zero)",
	// The structured strategy's faults (the self-check is skipped when any
	// fault is planted, so the fault reaches the output).
	"merge-at-continue":   "structured: a selection inside a loop declares the loop's continue target as its merge (R2, and the rule never to reuse a loop's continue target)",
	"route-not-cleared":   "structured: loop headers do not clear the route variable, so a value left by an earlier iteration or visit routes a later exit or skip wrongly",
	"drop-merge":          "structured: the first selection header on an original conditional or switch loses its OpSelectionMerge (R12)",
	"exit-to-outer-merge": "structured: a break out of a nested loop branches to the enclosing loop's merge instead of its own (R6, and a wrong trace)",
	"clone-wrong-id":      "structured: a cloned block reports the id of the next original block instead of its own (wrong trace)",
}

// FaultNames lists the fault names, sorted.
func FaultNames() []string {
	var n []string
	for k := range Faults {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

func checkFaults(names []string) error {
	for _, n := range names {
		if _, ok := Faults[n]; !ok {
			return fmt.Errorf("unknown fault %q (have %s)", n, strings.Join(FaultNames(), ", "))
		}
	}
	return nil
}

// Has reports whether the fault is planted.
func (o Options) Has(fault string) bool {
	for _, n := range o.Inject {
		if n == fault {
			return true
		}
	}
	return false
}

// dropFirstMerge plants the drop-merge fault: the first original block (in
// layout order) heading a selection loses its merge instruction.
func dropFirstMerge(f *Func) {
	for i := range f.Blocks {
		b := &f.Blocks[i]
		if b.Kind != Synthetic && b.Merge.Kind == SelectionMerge {
			b.Merge = Merge{}
			return
		}
	}
}
