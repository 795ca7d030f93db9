// normalize_test.go: the signature normalization table against its golden
// file (testdata/normalize: input.txt, one reason a line, and golden.txt,
// its normalized form a line), after syzkaller's pkg/report tests; -update
// rewrites golden.txt from the table.
package oracle

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite testdata/normalize/golden.txt from the normalization table")

func TestNormalizeGolden(t *testing.T) {
	dir := filepath.Join("testdata", "normalize")
	in, err := os.ReadFile(filepath.Join(dir, "input.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(in), "\n"), "\n")
	var got strings.Builder
	for _, l := range lines {
		got.WriteString(NormalizeReason(l) + "\n")
	}
	golden := filepath.Join(dir, "golden.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
	if len(g) != len(w) {
		t.Fatalf("%d normalized lines, golden.txt has %d (run with -update after changing input.txt)", len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("line %d: %q\n normalizes to %q\n golden says   %q", i+1, lines[min(i, len(lines)-1)], g[i], w[i])
		}
	}
}

// TestNormalizeSurvivesShrinking: the reasons one defect gives on a large
// and on a small graph (other ids, addresses, counts, paths) normalize to
// one signature; different defects stay apart.
func TestNormalizeSurvivesShrinking(t *testing.T) {
	same := [][2]string{
		{"exit status 139: Segmentation fault at 0x7ffd5e8a1c40 in /tmp/build-4242/s.cc:118", "exit status 139: Segmentation fault at 0x10 in /tmp/x/s.cc:9"},
		{"merge blocks [3 5 7 9] share header 2", "merge blocks [1, 2] share header 0"},
		{"merge blocks [3, 5] share header 2", "merge blocks [3] share header 2"}, // the list shrunk to one
		{"loop header %42 has back edges from %7, %9 and %13", "loop header %4 has back edges from %2"},
		{"index out of range [7] with length 3\ngoroutine 1 [running]:", "index out of range [12] with length 5"},
	}
	for _, p := range same {
		if a, b := HarnessSignature(HarnessCrash, p[0]), HarnessSignature(HarnessCrash, p[1]); a != b {
			t.Errorf("%q and %q differ", a, b)
		}
	}
	if a, b := HarnessSignature(HarnessPanic, "nil map write"), HarnessSignature(HarnessPanic, "index out of range [1] with length 1"); a == b {
		t.Errorf("two defects share %q", a)
	}
	if s := HarnessSignature(HarnessTimeout, "no answer within 10s"); s != "structurize:timeout" {
		t.Errorf("timeout: %q", s)
	}
	if s := HarnessSignature(HarnessCrash, "   "); s != "structurize:crash" {
		t.Errorf("empty reason: %q", s)
	}
}

// TestNormalizeRulesDocumented: SIGNATURES.md lists the table's rules, in
// order, with their placeholders.
func TestNormalizeRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("SIGNATURES.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(doc), "\n") {
		if f := strings.Split(l, " | "); len(f) == 4 && strings.HasPrefix(l, "| ") && f[0] != "| order" && !strings.HasPrefix(f[0], "|--") {
			rows = append(rows, strings.TrimPrefix(f[0], "| ")+" "+strings.Trim(f[1], "`")+" "+strings.Trim(f[2], "`"))
		}
	}
	var want []string
	for i, r := range NormalizeRules {
		want = append(want, strings.Join([]string{strconv.Itoa(i + 1), r.Name, strings.ReplaceAll(r.Replace, "${1}", "")}, " "))
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("SIGNATURES.md's normalization rows\n%s\ndiffer from oracle.NormalizeRules\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// TestNormalizeKeepsNames: words whose digits name a thing stay whole, so
// two rules, two encodings or two digests give two signatures, also when
// a path swallowed a kept word before them.
func TestNormalizeKeepsNames(t *testing.T) {
	for _, pair := range [][2]string{
		{"selfcheck: R6: block 3", "selfcheck: R12: block 3"},
		{"bad utf8 in b4", "bad utf16 in b4"},
		{"sha256 mismatch", "sha512 mismatch"},
	} {
		if a, b := HarnessSignature(HarnessPanic, pair[0]), HarnessSignature(HarnessPanic, pair[1]); a == b {
			t.Errorf("%q and %q share the signature %q", pair[0], pair[1], a)
		}
	}
	if got, want := NormalizeReason("/opt/x86_64/u32.so: R6 broken in b7 (arm64)"), "<path>: R6 broken in bN (arm64)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := NormalizeReason("R6 \x00qq\x00 in b2"), "R6 qq in bN"; got != want {
		t.Errorf("an input's own NUL: got %q, want %q", got, want)
	}
}

// TestSignaturesReadBackAsMade: a reason whose cut would split a character,
// or that holds a broken UTF-8 sequence, gives a signature of valid UTF-8
// that a JSON round trip (report.json, the state) leaves unchanged, so a
// known signature stays known.
func TestSignaturesReadBackAsMade(t *testing.T) {
	long := strings.Repeat("é", 60)           // 120 bytes: byte 80 is the start of a character, 79 is not
	odd := strings.Repeat("a", 79) + "é tail" // byte 80 inside "é"
	for _, sig := range []string{
		HarnessSignature(HarnessError, long),
		HarnessSignature(HarnessError, odd),
		HarnessSignature(HarnessError, "bad \xff\xfe bytes"),
		FallbackSignature([]string{"fallback: selfcheck: " + odd}),
	} {
		if !utf8.ValidString(sig) {
			t.Errorf("%q is not valid UTF-8", sig)
		}
		b, err := json.Marshal(sig)
		if err != nil {
			t.Fatal(err)
		}
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != sig {
			t.Errorf("%q reads back from JSON as %q (%v)", sig, back, err)
		}
	}
}
