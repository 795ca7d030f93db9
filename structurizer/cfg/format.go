// format.go: writing graphs in the compact notation ({{1}, {2, 3}, {}}) and
// the line notation (one block a line, names and weights). parse.go reads
// both back; the round trip is exact.

package cfg

import (
	"slices"
	"strconv"
	"strings"
)

// FormatCompact writes g in compact notation, as bug reports quote graphs:
// {{1}, {2, 3}, {}}. Weights and names are not part of it.
func FormatCompact(g *Graph) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for b, s := range g.Succs {
		if b > 0 {
			sb.WriteString(", ")
		}
		sb.WriteByte('{')
		for i, t := range s {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(strconv.Itoa(t))
		}
		sb.WriteByte('}')
	}
	sb.WriteByte('}')
	return sb.String()
}

// String is FormatCompact.
func (g *Graph) String() string { return FormatCompact(g) }

// FormatLines writes g in line notation, one block a line:
//
//	name [w=W]: ret | br T | if T F | switch D C1 C2 ...
//
// Blocks appear in id order, so the first line is the entry. An unnamed
// block is written bN, its default name, which ParseLines reads back as no
// name. Every block gets a distinct label that parses back (see lineLabels),
// so ParseLines(FormatLines(g)) has g's edges and weights for every valid g,
// and g's names too unless two blocks share a name, a name is not a valid
// name (ASCII letters, digits, '_', '.', '-'), or a name is the default name
// of another, unnamed block. A block named with its own default name "b<id>"
// reads back unnamed.
func FormatLines(g *Graph) string {
	labels := lineLabels(g)
	var sb strings.Builder
	writeName := func(b int) {
		if labels != nil {
			sb.WriteString(labels[b])
			return
		}
		sb.WriteByte('b')
		sb.WriteString(strconv.Itoa(b))
	}
	for b, s := range g.Succs {
		writeName(b)
		if w := g.Weight(b); w != 0 {
			sb.WriteString(" [w=")
			sb.WriteString(strconv.Itoa(w))
			sb.WriteByte(']')
		}
		sb.WriteString(": ")
		switch len(s) {
		case 0:
			sb.WriteString("ret")
		case 1:
			sb.WriteString("br")
		case 2:
			sb.WriteString("if")
		default:
			sb.WriteString("switch")
		}
		for _, t := range s {
			sb.WriteByte(' ')
			writeName(t)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// lineLabels picks the distinct label FormatLines writes for each block, or
// returns nil when every block is unnamed (all labels are bN). Claims go in
// this order, so the common cases read back exactly:
//
//  1. blocks without a name, or named with their own default "b<id>", take
//     "b<id>";
//  2. blocks with a valid name take it, lower ids first, if still free;
//  3. blocks with an invalid name take it with every other byte replaced by
//     '_', if still free;
//  4. the rest take the first free "label_k", k = 1, 2, ... (never a default
//     name, as it holds a '_').
func lineLabels(g *Graph) []string {
	if !slices.ContainsFunc(g.Names, func(name string) bool { return name != "" }) {
		return nil
	}
	n := g.Len()
	labels := make([]string, n)
	owner := make(map[string]bool, n)
	claim := func(b int, label string) bool {
		if owner[label] {
			return false
		}
		labels[b], owner[label] = label, true
		return true
	}
	for b := range n {
		if name := g.Name(b); name == "" || isDefaultName(name, b) {
			claim(b, "b"+strconv.Itoa(b))
		}
	}
	var losers []int
	for _, valid := range []bool{true, false} {
		for b := range n {
			if name := g.Name(b); labels[b] == "" && isName(name) == valid && !claim(b, sanitizeName(name)) {
				losers = append(losers, b)
			}
		}
	}
	next := map[string]int{}
	for _, b := range losers {
		base := sanitizeName(g.Name(b))
		for k := next[base] + 1; ; k++ {
			if claim(b, base+"_"+strconv.Itoa(k)) {
				next[base] = k
				break
			}
		}
	}
	return labels
}

// sanitizeName replaces every byte that may not appear in a name by '_'.
func sanitizeName(name string) string {
	if isName(name) {
		return name
	}
	buf := []byte(name)
	for i, c := range buf {
		if !isNameByte(int(c)) {
			buf[i] = '_'
		}
	}
	return string(buf)
}
