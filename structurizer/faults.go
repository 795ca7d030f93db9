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
