// bytesize_test.go: ByteSize reads the forms --max-answer documents and
// rejects the rest.
package fuzz

import "testing"

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int{"1": 1, "512B": 512, "4KiB": 4096, "32MiB": 32 << 20, "2GiB": 2 << 30} {
		got, err := ParseByteSize(in)
		if err != nil || int(got) != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
		if back, _ := ParseByteSize(got.String()); back != got {
			t.Errorf("%q: String %q does not read back", in, got.String())
		}
	}
	for _, in := range []string{"", "0", "-1MiB", "1.5MiB", "12XB", "MiB"} {
		if _, err := ParseByteSize(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
