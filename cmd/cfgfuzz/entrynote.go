// entrynote.go: the note check, minimize and bisect print when a graph in
// line notation has a block named "entry" that is not its first block: the
// first block line is the entry whatever the names say, so such a file
// likely reads the entry as the user did not mean it.

package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// entryName is the name whose block, if not the first, gets the note.
const entryName = "entry"

// noteEntryNames writes, on stderr after prefix, a note for each graph of
// items (in line notation: only it has names) whose block named "entry" is
// not its first block, naming both blocks' positions. datas holds each
// input's bytes by its index (readInputs'). The note changes no verdict.
func noteEntryNames(stderr io.Writer, prefix string, items []sourced, datas [][]byte) {
	for _, it := range items {
		names := it.Graph.Names
		for b := 1; b < len(names); b++ {
			if names[b] != entryName {
				continue
			}
			line, col := cfg.BlockPos(datas[it.Input], it.Item, b)
			first := names[0]
			if first == "" {
				first = "b0"
			}
			fmt.Fprintf(stderr, "%snote: %s:%d:%d: block %s is not the first block: the first, %s (%d:%d), is the entry\n",
				prefix, it.File, line, col, strconv.Quote(entryName), strconv.Quote(first), it.Line, it.Col)
			break
		}
	}
}
