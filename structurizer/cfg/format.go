// format.go: writing graphs in the compact notation ({{1}, {2, 3}, {}}) and
// the line notation (one block a line, names and weights). parse.go reads
// both back; the round trip is exact.
package cfg

import (
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
// Unnamed blocks are written as bN. Blocks appear in id order, so the first
// line is the entry.
func FormatLines(g *Graph) string {
	var sb strings.Builder
	name := func(b int) string {
		if n := g.Name(b); n != "" {
			return n
		}
		return "b" + strconv.Itoa(b)
	}
	for b, s := range g.Succs {
		sb.WriteString(name(b))
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
			sb.WriteString(name(t))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
