// read_test.go: ReadInput reads a graph whole and stops a stream without
// end at MaxInputBytes with an error naming it.
package cfg

import (
	"strings"
	"testing"
)

// endless reads '#' forever: a comment without end.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '#'
	}
	return len(p), nil
}

func TestReadInputBounded(t *testing.T) {
	data, err := ReadInput("g", strings.NewReader("{{1}, {}}\n"))
	if err != nil || string(data) != "{{1}, {}}\n" {
		t.Fatalf("ReadInput of a graph: %q, %v", data, err)
	}
	if _, err := ReadInput("<stdin>", endless{}); err == nil || !strings.Contains(err.Error(), "<stdin>: more than 256 MiB") {
		t.Errorf("ReadInput of a stream without end: %v", err)
	}
}
