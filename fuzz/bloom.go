// bloom.go defines Bloom, the state directory's bounded set of graphs
// already checked (STATE.md): a Bloom filter (Bloom 1970) of BloomBits
// bits and BloomHashes probes, the probes derived from a key's SHA-256 by
// double hashing (Kirsch and Mitzenmacher 2006). A key that was added is
// always found; a key that was not is found with probability about
// (1 - e^(-k n / m))^k after n additions: 0.05% at a million graphs, 1.9%
// at two million, 23% at four (BloomFalsePositive). Filters of the same
// size merge by OR, in any order.

package fuzz

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"

	"github.com/cfgfuzz/cfgfuzz/internal/bounded"
)

// Size of every state filter: 2^24 bits (2 MiB) and 7 probes.
const (
	BloomBits   = 1 << 24
	BloomHashes = 7
)

// BloomRestartAt is the false-positive rate past which a state's filter
// is started afresh (LoadState), about 1.75 million graphs: a fuller one
// would skip a growing share of every night's graphs never checked.
const BloomRestartAt = 0.01

// Bloom is a filter of BloomBits bits. The zero value is not usable; see
// NewBloom.
type Bloom struct {
	bits []uint64
}

// NewBloom returns an empty filter.
func NewBloom() *Bloom { return &Bloom{bits: make([]uint64, BloomBits/64)} }

// probes are the key's bit positions.
func probes(key []byte) [BloomHashes]uint64 {
	sum := sha256.Sum256(key)
	h1, h2 := binary.LittleEndian.Uint64(sum[0:]), binary.LittleEndian.Uint64(sum[8:])|1
	var p [BloomHashes]uint64
	for i := range p {
		p[i] = (h1 + uint64(i)*h2) % BloomBits
	}
	return p
}

// Has reports whether key may have been added (never false for one that was).
func (b *Bloom) Has(key []byte) bool {
	for _, p := range probes(key) {
		if b.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

// Add adds key.
func (b *Bloom) Add(key []byte) {
	if b.Has(key) {
		return
	}
	for _, p := range probes(key) {
		b.bits[p/64] |= 1 << (p % 64)
	}
}

// Or adds every key of o.
func (b *Bloom) Or(o *Bloom) {
	for i, w := range o.bits {
		b.bits[i] |= w
	}
}

// Count estimates the number of keys added from the bits set, X of m:
// n = -(m/k) ln(1 - X/m) (Swamidass and Baldi 2007). It depends on the
// bits alone, so filters merged in any order count alike.
func (b *Bloom) Count() uint64 {
	x := 0
	for _, w := range b.bits {
		x += bits.OnesCount64(w)
	}
	if x == BloomBits {
		return math.MaxUint64
	}
	return uint64(math.Round(-float64(BloomBits) / BloomHashes * math.Log(1-float64(x)/BloomBits)))
}

// BloomFalsePositive is the chance that a key never added is found after n
// additions.
func BloomFalsePositive(n uint64) float64 {
	return math.Pow(1-math.Exp(-float64(BloomHashes)*float64(n)/BloomBits), BloomHashes)
}

// bloomMagic heads a filter file: the format and its size.
var bloomMagic = []byte(bloomMagicLine)

const bloomMagicLine = "cfgfuzz-bloom/v1 24 7\n"

// WriteBloom writes the filter: the magic line, then the bits (64 to a
// little-endian word).
func WriteBloom(path string, b *Bloom) error {
	return writeFile(path, b.bytes())
}

// bytes is the filter's file as WriteBloom writes it.
func (b *Bloom) bytes() []byte {
	buf := make([]byte, 0, len(bloomMagic)+BloomBits/8)
	buf = append(buf, bloomMagic...)
	for _, w := range b.bits {
		buf = binary.LittleEndian.AppendUint64(buf, w)
	}
	return buf
}

// ReadBloom reads a filter written by WriteBloom; a missing file is an
// empty filter.
func ReadBloom(path string) (*Bloom, error) {
	data, err := readBloomFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return parseBloom(path, data)
}

// errNotBloom is the error of a file that is not a filter (cut short, or
// another file): a state's names the remedy (seenRemedy).
var errNotBloom = errors.New("not a cfgfuzz-bloom/v1 filter of 2^24 bits")

// readBloomFile reads a filter's file, an error wrapping os.ErrNotExist
// when there is none; a file that is not regular or not of a filter's
// one size is an error naming it, and is not read.
func readBloomFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, bounded.NotRegular(path, fi.Mode())
	}
	if fi.Size() != int64(len(bloomMagic)+BloomBits/8) {
		return nil, fmt.Errorf("%s: %w (%d bytes)", path, errNotBloom, fi.Size())
	}
	return readFileWithin(path, MaxSeenFile, "a seen.bloom")
}

// parseBloom is the filter of a file's data (path names it in the
// errors); nil data, no file, is an empty filter.
func parseBloom(path string, data []byte) (*Bloom, error) {
	if data == nil {
		return NewBloom(), nil
	}
	n := len(bloomMagic)
	if len(data) != n+BloomBits/8 || string(data[:n]) != string(bloomMagic) {
		return nil, fmt.Errorf("%s: %w (%d bytes)", path, errNotBloom, len(data))
	}
	b := NewBloom()
	for i := range b.bits {
		b.bits[i] = binary.LittleEndian.Uint64(data[n+8*i:])
	}
	return b, nil
}
