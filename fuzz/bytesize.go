// bytesize.go defines ByteSize, a count of bytes written with a binary unit
// ("32MiB"), the form of --max-answer.

package fuzz

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/internal/bounded"
)

// ByteSize is a number of bytes. As a flag it reads N, NB, NKiB, NMiB or
// NGiB (N a positive integer) and writes the largest unit that divides it.
type ByteSize int

// ParseByteSize reads a ByteSize.
func ParseByteSize(s string) (ByteSize, error) {
	num, mult := s, 1
	for _, u := range bounded.Units {
		if strings.HasSuffix(s, u.Suffix) {
			num, mult = strings.TrimSuffix(s, u.Suffix), int(u.N)
			break
		}
	}
	v, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil || v <= 0 || v > (1<<62)/mult {
		return 0, fmt.Errorf("bad size %q: want a positive integer with an optional unit B, KiB, MiB or GiB", s)
	}
	return ByteSize(v * mult), nil
}

func (b ByteSize) String() string { return bounded.Size(int64(b)) }

// Set reads the flag's value.
func (b *ByteSize) Set(s string) error {
	v, err := ParseByteSize(s)
	if err == nil {
		*b = v
	}
	return err
}
