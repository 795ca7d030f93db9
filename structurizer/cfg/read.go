// read.go: reading a graph file or stream whole before Parse, within a
// bound: Parse takes bytes, and a stream without end (/dev/urandom, `yes`)
// or a file of gigabytes would otherwise be read until memory runs out.

package cfg

import (
	"fmt"
	"io"
)

// MaxInputBytes bounds what ReadInput reads: 256 MiB, far past any graph
// DefaultLimits accepts written sensibly (a million blocks in compact
// notation is a few dozen MiB).
const MaxInputBytes = 256 << 20

// ReadInput reads r whole, failing once it has read more than
// MaxInputBytes; name names the input in that error.
func ReadInput(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxInputBytes {
		return nil, fmt.Errorf("%s: more than %d MiB: no graph file is that large (a stream without end?)", name, MaxInputBytes>>20)
	}
	return data, nil
}
