package corpus

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// A header value with a line break (a spec or a graph's file name) stays
// on its comment line: it cannot add a header field or a block.
func TestHeaderValueCannotStartALine(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	h := Header{Signature: "exec:trace-mismatch", Structurizer: "cmd:./s\n# expect: fail", Expect: "pass",
		Origin: "g\r\nb9: ret", Notes: []string{"note\n# fault: swap-arms"}}
	dir := t.TempDir()
	p, err := WriteRegression(dir, "r", h, g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadRegression(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Expect != "pass" || r.Header.Fault != "" || r.Header.Structurizer != `cmd:./s\n# expect: fail` {
		t.Errorf("header read back as %+v", r.Header)
	}
	if r.Graph.Len() != 2 {
		t.Errorf("graph read back with %d blocks, want 2", r.Graph.Len())
	}
}

// TestHeaderChecksAndLimits: '# checks:', '# timeout:' and
// '# check-timeout:' read back as written; a file without them has none
// (the defaults); a value that is not a --checks value or a positive
// duration is an error naming the line.
func TestHeaderChecksAndLimits(t *testing.T) {
	h := Header{Signature: "exec:trace-mismatch", Checks: "-fallback,+gpu", Timeout: 30 * time.Second, CheckTimeout: 5 * time.Minute}
	text := h.Format()
	if !strings.Contains(text, "# checks: -fallback,+gpu\n# timeout: 30s\n# check-timeout: 5m0s\n") {
		t.Errorf("header written as:\n%s", text)
	}
	r, err := ParseRegression("r.cfg", []byte(text+"{{1}, {}}\n"))
	if err != nil || r.Header.Checks != h.Checks || r.Header.Timeout != h.Timeout || r.Header.CheckTimeout != h.CheckTimeout || !r.Header.ChecksChangeDefaults() {
		t.Errorf("read back as %+v (%v)", r.Header, err)
	}
	if r, err := ParseRegression("old.cfg", []byte("# signature: none\n{{1}, {}}\n")); err != nil || r.Header.Checks != "" || r.Header.Timeout != 0 || r.Header.CheckTimeout != 0 {
		t.Errorf("a file without the lines: %+v (%v)", r.Header, err)
	}
	if (Header{Checks: "exec,-fallback"}).ChecksChangeDefaults() {
		t.Errorf("a list of checks read as changes of the defaults")
	}
	for _, bad := range []string{"# checks: exec,,meta", "# checks: ex ec", "# timeout: soon", "# timeout: -1s", "# check-timeout: 0s"} {
		if _, err := ParseRegression("bad.cfg", []byte("# signature: none\n"+bad+"\n{{1}, {}}\n")); err == nil || !strings.Contains(err.Error(), "bad.cfg:2: '"+bad+"'") {
			t.Errorf("%q: %v, want an error naming the line", bad, err)
		}
	}
	for line, want := range map[string]string{
		"# checks: +":          "bad.cfg:2: '# checks: +': the name after + is missing (+NAME adds a check to the defaults, as in +gpu)",
		"# checks: exec, -":    "bad.cfg:2: '# checks: exec, -': the name after - is missing (-NAME removes one, as in -fallback)",
		"# checks: +gpu,+ ,-x": "bad.cfg:2: '# checks: +gpu,+ ,-x': the name after + is missing",
	} {
		if _, err := ParseRegression("bad.cfg", []byte("# signature: none\n"+line+"\n{{1}, {}}\n")); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
	for _, checks := range []string{"+ gpu", " exec", "- fallback, + gpu"} {
		r, err := ParseRegression("r.cfg", []byte("# signature: none\n# checks: "+checks+"\n{{1}, {}}\n"))
		if err != nil {
			t.Errorf("'# checks: %s': %v, want it read as --checks reads it", checks, err)
		} else if r.Header.Checks != strings.TrimSpace(checks) {
			t.Errorf("'# checks: %s' read as %q", checks, r.Header.Checks)
		}
	}
}

// TestHeaderKeysMisspeltOrTwice: a key a letter or two from a header key
// is refused, naming the key meant, and so is a header key given twice;
// a note under a key of its own is still a note.
func TestHeaderKeysMisspeltOrTwice(t *testing.T) {
	const graph = "{{1}, {}}\n"
	for _, c := range []struct{ head, want string }{
		{"# signature: none\n# structuriser: cmd:false\n", "'# structuriser:' is no header key: did you mean '# structurizer:'?"},
		{"# signature: none\n# expected: fail\n", "did you mean '# expect:'?"},
		{"# signatur: none\n", "did you mean '# signature:'?"},
		{"# signature: none\n# signature: exec:trace-mismatch\n", "'# signature:' given twice (first on line 1)"},
		{"# signature: none\n# expect: pass\n# expect: fail\n", "'# expect:' given twice (first on line 2)"},
		{"# signature: none\n# Structurizer: cmd:false\n", "'# Structurizer:' is written '# structurizer:'"},
		{"# signature: none\n# expect : fail\n", "'# expect :' is written '# expect:'"},
		{"# signature: none\n# target_env: vulkan1.3\n", "'# target_env:' is written '# target-env:'"},
		{"# signature: none\n# Fault: swap-arms\n", "'# Fault:' is written '# fault:'"},
	} {
		_, err := ParseRegression("r.cfg", []byte(c.head+graph))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.head, err, c.want)
		}
	}
	for _, note := range []string{"found-by: the nightly job", "data: 3 runs", "checked: by hand", "Note: upstream bug 12", "TODO: shrink"} {
		r, err := ParseRegression("r.cfg", []byte("# signature: none\n# "+note+"\n"+graph))
		if err != nil || !slices.Contains(r.Header.Notes, note) {
			t.Errorf("the note %q: %v, %+v", note, err, r)
		}
	}
}

// TestHeaderCompactIsTheGraph: the '# compact:' comment a regression file
// carries must be the file's graph: another graph, or no graph, is an
// error naming the file and the line; the file WriteRegression writes
// (its graph in line notation, with weights) reads.
func TestHeaderCompactIsTheGraph(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g.Weights[1] = 16
	if _, err := ParseRegression("ok.cfg", []byte(regressionText(Header{Signature: "none"}, g))); err != nil {
		t.Errorf("a file as WriteRegression writes it: %v", err)
	}
	if _, err := ParseRegression("ok.cfg", []byte("# signature: none\n# compact: {{1},{}}\n{{1}, {}}\n")); err != nil {
		t.Errorf("the graph in compact notation spaced otherwise: %v", err)
	}
	for _, c := range []struct{ line, want string }{
		{"# compact: {{1}, {1}}", "bad.cfg:2: '# compact: {{1}, {1}}' is not the file's graph, {{1}, {}}"},
		{"# compact: {{}}", "bad.cfg:2: '# compact: {{}}' is not the file's graph, {{1}, {}}"},
		{"# Compact: {{1}, {1}}", "bad.cfg:2: '# compact: {{1}, {1}}' is not the file's graph"},
		{"# compact: {{1}", "bad.cfg:2: '# compact: {{1}' is no graph in compact notation"},
		{"# compact:", "bad.cfg:2: '# compact: ' is no graph in compact notation"},
	} {
		_, err := ParseRegression("bad.cfg", []byte("# signature: none\n"+c.line+"\n{{1}, {}}\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.line, err, c.want)
		}
	}
}

// TestHeaderSignatureOfAPassingGraph: a hand-written file that says
// '# expect: pass' and names no fault needs no '# signature:' (it reads as
// "none", and is written back so); a file that does need one is refused
// with an error that says what to write.
func TestHeaderSignatureOfAPassingGraph(t *testing.T) {
	r, err := ParseRegression("pass.cfg", []byte("# expect: pass\n# origin: quoted from a bug report\n{{1, 2}, {3}, {3}, {}}\n"))
	if err != nil {
		t.Fatalf("'# expect: pass' without a signature: %v", err)
	}
	if r.Header.Signature != SignatureNone || r.Header.Expect != ExpectPass {
		t.Errorf("signature %q, expect %q; want %q, %q", r.Header.Signature, r.Header.Expect, SignatureNone, ExpectPass)
	}
	if again, err := ParseRegression("pass.cfg", []byte(regressionText(r.Header, r.Graph))); err != nil || again.Header.Signature != SignatureNone {
		t.Errorf("written back: %v, %+v", err, again)
	}
	for text, want := range map[string]string{
		"{{1}, {}}\n":                 "no '# signature:' header: write '# signature: SIGNATURE' (the failure it guards against, as check prints it after FAIL), or '# expect: pass' (or '# signature: none') for a graph that must pass",
		"# expect: fail\n{{1}, {}}\n": "or '# expect: pass' (or '# signature: none') for a graph that must pass",
		"# expect: pass\n# fault: swap-arms\n{{1}, {}}\n": "no '# signature:' header: a file with '# fault:' names the failure the fault gives",
	} {
		if _, err := ParseRegression("bad.cfg", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", text, err, want)
		}
	}
}

// TestHeaderBuildAndServe: a repo: structurizer's '# build:' and
// '# serve:' are written after '# structurizer:' and read back as
// written, each once; a file without them has none.
func TestHeaderBuildAndServe(t *testing.T) {
	h := Header{Signature: "structurize:error", Structurizer: "repo:{repo}@abc", Build: "make && cp server {out}/", Serve: "{out}/server --fast"}
	text := h.Format()
	if !strings.Contains(text, "# structurizer: repo:{repo}@abc\n# build: make && cp server {out}/\n# serve: {out}/server --fast\n") {
		t.Errorf("header written as:\n%s", text)
	}
	r, err := ParseRegression("r.cfg", []byte(text+"{{1}, {}}\n"))
	if err != nil || r.Header.Build != h.Build || r.Header.Serve != h.Serve || len(r.Header.Notes) > 0 {
		t.Errorf("read back as %+v (%v)", r.Header, err)
	}
	if r, err := ParseRegression("old.cfg", []byte("# signature: none\n{{1}, {}}\n")); err != nil || r.Header.Build != "" || r.Header.Serve != "" {
		t.Errorf("a file without the lines: %+v (%v)", r.Header, err)
	}
	if _, err := ParseRegression("bad.cfg", []byte("# signature: none\n# serve: a\n# serve: b\n{{1}, {}}\n")); err == nil || !strings.Contains(err.Error(), "'# serve:' given twice") {
		t.Errorf("'# serve:' twice: %v", err)
	}
}

// TestPinChecks: a header records the checks that judged a graph by name,
// never as changes of the defaults, so that no later cfgfuzz, whatever its
// defaults, reads them as other checks; the defaults are recorded as none.
func TestPinChecks(t *testing.T) {
	noFallback := strings.Join(slices.DeleteFunc(slices.Clone(oracle.DefaultChecks), func(c string) bool { return c == "fallback" }), ",")
	for _, tc := range []struct{ given, want string }{
		{"", ""},
		{" ", ""},
		{"-fallback", noFallback},
		{" - fallback ", noFallback},
		{"+gpu", strings.Join(oracle.DefaultChecks, ",") + ",gpu"},
		{"-growth,+gpu,-fallback", strings.ReplaceAll(noFallback, ",growth", "") + ",gpu"},
		{"exec,pdom", "exec,pdom"}, // a list of names is kept, in its order
		{strings.Join(oracle.DefaultChecks, ","), ""},
		{"+fallback", ""},
	} {
		got := PinChecks(tc.given)
		if got != tc.want {
			t.Errorf("PinChecks(%q) = %q, want %q", tc.given, got, tc.want)
		}
		if got != "" && (Header{Checks: got}).ChecksChangeDefaults() || slices.ContainsFunc(strings.Split(got, ","), func(c string) bool { return strings.HasPrefix(c, "-") || strings.HasPrefix(c, "+") }) {
			t.Errorf("PinChecks(%q) = %q holds a change of the defaults", tc.given, got)
		}
	}
}
