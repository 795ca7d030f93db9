// gensource_test.go: the campaign's graph source and the replay command it
// prints agree: running the command gives the graph the campaign checked,
// the larger graphs of gen.CampaignBlocks included.
package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestReplayPrintsTheCampaignGraph(t *testing.T) {
	const run = 3
	var src genSource
	for _, k := range gen.Kinds() {
		for _, w := range []string{"w0", "w16+heavy", "w0to64"} {
			s := fuzz.Stream{Kind: string(k), Weights: w}
			large := 0
			for j := range 120 {
				it, err := src.Item(s, run, j)
				if err != nil {
					t.Fatalf("%v graph %d: %v", s, j, err)
				}
				if it.Graph.Len() >= gen.CampaignLargeMin {
					large++
				}
				cmd := src.Replay(s, it.Seed)
				args, ok := strings.CutPrefix(cmd, "cfgfuzz ")
				if !ok {
					t.Fatalf("replay %q does not start with cfgfuzz", cmd)
				}
				var out bytes.Buffer
				if code := runGen(strings.Fields(args)[1:], nil, &out, io.Discard); code != exitOK {
					t.Fatalf("%s: exit %d", cmd, code)
				}
				got, err := cfg.ParseLines(strings.TrimSuffix(strings.TrimSpace(out.String()), "---"), cfg.DefaultLimits)
				if err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
				if !got.Equal(it.Graph) {
					t.Fatalf("%v graph %d: %s prints\n%s\nthe campaign checked %s", s, j, cmd, out.String(), it.Graph)
				}
			}
			if k != gen.Exhaustive && large == 0 {
				t.Errorf("%v: none of 120 graphs has %d blocks or more (one in %d should)", s, gen.CampaignLargeMin, gen.CampaignLargeEvery)
			}
		}
	}
}
