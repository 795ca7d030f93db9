// namesline.go: the names: line check prints after the FAIL line of a
// graph in line notation, mapping the block numbers of the failure's
// detail to the names the file gave.

package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// namesAllUpTo is the most blocks a graph may have for namesLine to name
// them all; a larger graph's line names the blocks its failure's detail
// names.
const namesAllUpTo = 32

// blockRef is a block as a failure's detail names it: b and its number in
// the graph's block order.
var blockRef = regexp.MustCompile(`\bb([0-9]+)\b`)

// namesLine is the line check prints after the FAIL line of a graph g in
// line notation, mapping the block numbers of its detail (bN, the Nth block
// line from 0, and the numbers of its traces) to the names the file gave:
// "names: b0 entry, b2 body" for every named block of a graph of at most
// namesAllUpTo blocks, else for those the detail names as bN. "" for a
// record that is no check's failure, or a graph without names.
func namesLine(rec checkRecord, g *cfg.Graph) string {
	if rec.Outcome != outcomeFail || g == nil || g.Names == nil {
		return ""
	}
	var blocks []int
	if len(g.Names) <= namesAllUpTo {
		for b := range g.Names {
			blocks = append(blocks, b)
		}
	} else {
		v := oracle.Failed(rec.Checks)
		if v == nil {
			return ""
		}
		seen := map[int]bool{}
		for _, m := range blockRef.FindAllStringSubmatch(clip(firstLine(v.Detail), lineClip), -1) {
			if b, err := strconv.Atoi(m[1]); err == nil && b < len(g.Names) && !seen[b] {
				seen[b] = true
				blocks = append(blocks, b)
			}
		}
		slices.Sort(blocks)
	}
	var parts []string
	for _, b := range blocks {
		if g.Names[b] != "" {
			parts = append(parts, fmt.Sprintf("b%d %s", b, g.Names[b]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "names: " + strings.Join(parts, ", ")
}
