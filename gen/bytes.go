// bytes.go: decoding raw fuzzer bytes into a graph, for the go-fuzz and
// `go test -fuzz` harnesses.
//
// The decoding reads bytes through AdaLogics/go-fuzz-headers' consumer,
// one byte per decision, the layout coverage-guided fuzzers mutate best
// (each byte flip changes one edge or one block; libFuzzer's
// FuzzedDataProvider and go-fuzz-headers both recommend it):
//
//	byte 0         blocks n = 1 + byte mod 64
//	per block b:   a control byte k:
//	                 k & 3        0 return, 1 branch, 2 conditional, 3 switch
//	                 (k >> 2) & 3 a switch's successors beyond 3 (3..6)
//	                 k >> 5       weight class: 0-4 -> 0 words, 5-6 -> 16, 7 -> 1000
//	               then one byte per successor: target = byte mod n
//
// It is total: any input of at least one byte decodes, and bytes that run
// out decode as a return (a missing control byte) or as an edge to the
// next block, b+1 mod n (a missing target). Trailing bytes are ignored.
// The only rejection is the empty input. The graph may have unreachable
// blocks, self-loops, duplicate targets, irreducible and endless cycles:
// all legal input that a structurizer must take.

package gen

import (
	"errors"

	fuzz "github.com/AdaLogics/go-fuzz-headers"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// MaxBytesBlocks bounds the graphs FromBytes decodes.
const MaxBytesBlocks = 64

// ErrNoBytes is FromBytes' rejection of the empty input.
var ErrNoBytes = errors.New("gen: no bytes to decode a graph from")

var byteWeights = [8]int{0, 0, 0, 0, 0, 16, 16, HeavyWords}

// FromBytes decodes data into a graph of at most MaxBytesBlocks blocks
// (see the file comment). It never panics; its only error is ErrNoBytes.
func FromBytes(data []byte) (*cfg.Graph, error) {
	if len(data) == 0 {
		return nil, ErrNoBytes
	}
	c := fuzz.NewConsumer(data)
	first, _ := c.GetByte()
	n := 1 + int(first)%MaxBytesBlocks
	g := cfg.New(n)
	for b := range n {
		k, err := c.GetByte()
		if err != nil {
			break // the remaining blocks return
		}
		g.Weights[b] = byteWeights[k>>5]
		g.Succs[b] = make([]int, outDegree(k))
		for i := range g.Succs[b] {
			t, err := c.GetByte()
			if err != nil {
				g.Succs[b][i] = (b + 1) % n
				continue
			}
			g.Succs[b][i] = int(t) % n
		}
	}
	return g, nil
}

func outDegree(k byte) int {
	if d := int(k & 3); d < 3 {
		return d
	}
	return 3 + int(k>>2)&3
}

// ToBytes encodes g (at most MaxBytesBlocks blocks, at most 6 successors
// a block) so that FromBytes returns it with weights rounded to the
// classes 0, 16 and 1000; the fuzz harnesses seed their corpora with it.
// It returns nil for graphs outside those bounds.
func ToBytes(g *cfg.Graph) []byte {
	n := g.Len()
	if n < 1 || n > MaxBytesBlocks {
		return nil
	}
	out := []byte{byte(n - 1)}
	for b, s := range g.Succs {
		k, ok := controlByte(len(s), g.Weight(b))
		if !ok {
			return nil
		}
		out = append(out, k)
		for _, t := range s {
			out = append(out, byte(t))
		}
	}
	return out
}

func controlByte(deg, weight int) (byte, bool) {
	var k byte
	switch {
	case deg < 3:
		k = byte(deg)
	case deg <= 6:
		k = 3 | byte(deg-3)<<2
	default:
		return 0, false
	}
	switch {
	case weight >= HeavyWords:
		k |= 7 << 5
	case weight >= 16:
		k |= 5 << 5
	}
	return k, true
}
