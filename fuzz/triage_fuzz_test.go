// triage_fuzz_test.go: the native fuzz target FuzzParseTriage, the
// triage file users edit (STATE/triage.txt). Whatever the bytes, it reads
// entries or fails with an error naming the file and a line of it, never
// a panic; what it reads writes back (status, TriageSignature, reason: the
// form the notes tell users to write) and reads again as the same
// entries. Inputs the fuzzer found are kept under
// testdata/fuzz/FuzzParseTriage and replay with every go test.
//
//	go test -run '^$' -fuzz '^FuzzParseTriage$' -fuzztime 150s -parallel 1 ./fuzz
package fuzz

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var triageErrorAt = regexp.MustCompile(`^triage\.txt:([0-9]+): .`)

func FuzzParseTriage(f *testing.F) {
	for _, s := range []string{
		"known exec:trace-mismatch tracked upstream\n",
		"# status  signature  reason\nknown     exec:trace-mismatch  tracked upstream, fix due in 1.4\nignored\trules:R12\tnot emitted on purpose\n",
		"known \"structurize:crash:exit status N: fatal: out of memory\"  tracked upstream\r\n",
		"\ufeffknown a b\r\nignored \"x\\ty\" z\n",
		"known \"a\"b c\n", "known \"unterminated c\n", "knwn a b\n", "known a\n", "known\n", "known \"\" r\n",
		"known a r\nknown a s\n", "known \"a\\nb\" r\n", "ignored \"\\x00\\u00a0\\xff\" r\n", "\n\n# only\n", "", "\x00\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseTriage(StateTriageFile, data)
		lines := strings.Count(string(data), "\n") + 1
		if err != nil {
			m := triageErrorAt.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("%q: error %q names no line of the file", data, err)
			}
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > lines {
				t.Fatalf("%q: error %q names line %d of %d", data, err, n, lines)
			}
			return
		}
		var text strings.Builder
		for _, sig := range slices.SortedFunc(maps.Keys(got), func(a, b string) int { return got[a].Line - got[b].Line }) {
			e := got[sig]
			switch {
			case e.Status != TriageKnown && e.Status != TriageIgnored, sig == "", e.Reason == "", e.Line < 1 || e.Line > lines:
				t.Fatalf("%q: read the entry %q %+v", data, sig, e)
			}
			fmt.Fprintf(&text, "%s %s %s\n", e.Status, TriageSignature(sig), e.Reason)
		}
		again, err := ParseTriage(StateTriageFile, []byte(text.String()))
		if err != nil {
			t.Fatalf("%q read as %v, written back as %q: %v", data, got, text.String(), err)
		}
		if len(again) != len(got) {
			t.Fatalf("%q read as %v, written back as %q, read again as %v", data, got, text.String(), again)
		}
		for sig, e := range got {
			if a, ok := again[sig]; !ok || a.Status != e.Status || a.Reason != e.Reason {
				t.Fatalf("%q read as %v, written back as %q, read again as %v", data, got, text.String(), again)
			}
		}
	})
}
