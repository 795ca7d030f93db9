// spirvval_growth_test.go: how spirv-val's time grows with the module:
// reducible graphs of 250, 1,000 and 4,000 blocks (gen, seed 1), both
// layouts, in-process validator. What the per-graph check budget of
// `cfgfuzz check` (cmd/cfgfuzz/check_limit.go) is set from.
package oracle

import (
	"fmt"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func BenchmarkSpirvValGrowth(b *testing.B) {
	v, err := LookupValidator("vulkan1.1")
	if err != nil {
		b.Skip(err)
	}
	for _, strategy := range []string{"dispatch", "structured"} {
		for _, n := range []int{250, 1000, 4000} {
			item, err := gen.Generate(gen.Config{Kind: gen.Reducible, MinBlocks: n, MaxBlocks: n}, 1)
			if err != nil {
				b.Fatal(err)
			}
			res, err := structurizer.Structurize(item.Graph, structurizer.Options{Strategy: strategy})
			if err != nil {
				b.Fatal(err)
			}
			mod, err := emit.Bytes(res.Func, emit.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%d", strategy, n), func(b *testing.B) {
				for range b.N {
					if ok, msg, err := v.Validate(mod); !ok || err != nil {
						b.Fatal(msg, err)
					}
				}
				b.ReportMetric(float64(len(mod)/4), "words")
				b.ReportMetric(float64(len(res.Func.Blocks)), "blocks-out")
			})
		}
	}
}
