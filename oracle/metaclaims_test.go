// metaclaims_test.go: meta checks only the properties a structurizer
// claims (ResultInfo.NotDeterministic, NotRenumberingInvariant; a protocol
// v2 declaration): the same planted fault fails when claimed and passes,
// saying so, when not.
package oracle

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestMetaChecksOnlyClaims(t *testing.T) {
	real := dispatchSeam("dispatch")
	for _, c := range []struct {
		name    string
		seam    func(calls *int) StructurizeFunc
		unclaim func(*ResultInfo)
		sig     string
	}{
		{"determinism", func(calls *int) StructurizeFunc {
			return func(g *cfg.Graph) ([]byte, ResultInfo, error) {
				*calls++
				if *calls == 2 { // the rerun gives another module
					g2 := g.Clone()
					g2.Weights[0] += 4
					return real(g2)
				}
				return real(g)
			}
		}, func(i *ResultInfo) { i.NotDeterministic = true }, "meta:" + SigNondeterministic},
		{"renumbering invariance", func(calls *int) StructurizeFunc {
			return func(g *cfg.Graph) ([]byte, ResultInfo, error) {
				*calls++
				if *calls > 2 { // the renumbered run drops an edge
					g2 := g.Clone()
					for b := range g2.Succs {
						if len(g2.Succs[b]) == 2 {
							g2.Succs[b] = g2.Succs[b][:1]
							break
						}
					}
					return real(g2)
				}
				return real(g)
			}
		}, func(i *ResultInfo) { i.NotRenumberingInvariant = true }, "meta:" + SigRenumbering},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			s := subjectOf(t, loopGraph, c.seam(&calls))
			if v := (&Oracle{}).checkMeta(s); v.Status != Fail || v.Signature != c.sig {
				t.Fatalf("claimed: want %s, got %+v", c.sig, v)
			}
			calls = 0
			s = subjectOf(t, loopGraph, c.seam(&calls))
			c.unclaim(&s.Info)
			v := (&Oracle{}).checkMeta(s)
			if v.Status != Pass || !strings.Contains(v.Detail, "not claimed") {
				t.Fatalf("not claimed: want a pass saying so, got %+v", v)
			}
		})
	}
}
