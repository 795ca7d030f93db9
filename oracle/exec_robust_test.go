// exec_robust_test.go: the execution check never panics, whatever the
// bytes: modules of both strategies with words overwritten or cut short
// (damageWords) get a verdict (a pass, a failure, unloadable) and nothing
// else. A damaged module reaches the check whenever a structurizer under
// test emits one, and every check runs whatever spirv-val said. Seeded;
// the seed is logged.
package oracle

import (
	"fmt"
	"testing"
)

func TestExecNeverPanics(t *testing.T) {
	r := seededRand(t, 10)
	signatures := map[string]int{}
	for i := range 3000 {
		g, m := emittedModule(t, r, i, 12)
		if m == nil {
			continue
		}
		mod := damageWords(r, m.Bytes())
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("case %d, graph %v: panic %v", i, g, p)
				}
			}()
			v := execVerdict(g, mod)
			signatures[v.Signature+fmt.Sprint(v.Harness != nil)]++
		}()
	}
	t.Logf("verdicts (signature, harness error): %v", signatures)
}
