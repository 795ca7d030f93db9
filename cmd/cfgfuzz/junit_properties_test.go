// junit_properties_test.go: regress --junit gives every case, passing or
// not, <properties> naming the signature its file guards, its graph (its
// path past junitGraphCap) and the walks and seed it was judged under, in
// XML that parses, with only the elements and attributes junit.go says
// the CI readers take.
package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestJUnitCaseProperties(t *testing.T) {
	dir := t.TempDir()
	small, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var chain strings.Builder // a graph whose compact notation is past the cap
	chain.WriteString("{")
	for i := 1; i < 500; i++ {
		fmt.Fprintf(&chain, "{%d}, ", i)
	}
	chain.WriteString("{}}")
	large, err := cfg.ParseCompact(chain.String(), cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.FormatCompact(large)) <= junitGraphCap {
		t.Fatalf("the large graph's compact notation is %d bytes, not past the cap %d", len(cfg.FormatCompact(large)), junitGraphCap)
	}
	if _, err := corpus.WriteRegression(dir, "diamond", corpus.Header{Signature: "exec:trace-mismatch", Expect: corpus.ExpectPass, Walks: &corpus.Walks{Random: 8, Seed: 3}}, small); err != nil {
		t.Fatal(err)
	}
	largePath, err := corpus.WriteRegression(dir, "chain", corpus.Header{Signature: corpus.SignatureNone, Expect: corpus.ExpectPass}, large)
	if err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(t.TempDir(), "r.xml")
	if code, out, errs := runCmd([]string{"regress", dir, "--structurizer", "self", "--junit", junit}, ""); code != exitOK {
		t.Fatalf("regress: exit %d, want 0\n%s%s", code, out, errs)
	}
	r := readJUnit(t, junit)
	want := map[string]map[string]string{
		"diamond clean": {"signature": "exec:trace-mismatch", "graph": cfg.FormatCompact(small), "walks": "8", "seed": "3"},
		"chain clean":   {"signature": "none", "graph_file": largePath, "walks": "16", "seed": "1"},
	}
	seen := 0
	for _, c := range r.Suites[0].Cases {
		w, ok := want[c.Name]
		if !ok {
			continue
		}
		seen++
		got := map[string]string{}
		if c.Properties != nil {
			for _, p := range c.Properties.Property {
				got[p.Name] = p.Value
			}
		}
		if !maps.Equal(got, w) || c.Failure != nil || c.Error != nil {
			t.Errorf("case %s (passing): properties %v, want %v", c.Name, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("the JUnit file holds %d of the cases %v: %+v", seen, slices.Sorted(maps.Keys(want)), r)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	checkJUnitVocabulary(t, b)
}

// junitVocabulary is every element the JUnit file may hold with the
// attributes it may carry: the Ant/Jenkins JUnit elements, plus the
// testcase's file and properties that junit.go explains.
var junitVocabulary = map[string][]string{
	"testsuites": {"errors", "failures", "name", "skipped", "tests", "time"},
	"testsuite":  {"errors", "failures", "name", "skipped", "tests", "time"},
	"testcase":   {"classname", "file", "name", "time"},
	"properties": nil,
	"property":   {"name", "value"},
	"failure":    {"message", "type"},
	"error":      {"message", "type"},
	"skipped":    {"message"},
}

// checkJUnitVocabulary: b is well-formed XML whose elements and
// attributes are all in junitVocabulary, properties the first child of a
// testcase.
func checkJUnitVocabulary(t *testing.T, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var stack []string
	children := map[int]int{} // depth: children seen
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the JUnit file is not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			allowed, ok := junitVocabulary[e.Name.Local]
			if !ok {
				t.Errorf("element <%s> is not one the CI readers take", e.Name.Local)
			}
			for _, a := range e.Attr {
				if !slices.Contains(allowed, a.Name.Local) {
					t.Errorf("<%s %s=...>: not an attribute junit.go names", e.Name.Local, a.Name.Local)
				}
			}
			if e.Name.Local == "properties" && (len(stack) == 0 || stack[len(stack)-1] != "testcase" || children[len(stack)] != 0) {
				t.Errorf("<properties> is not the first child of a testcase (under %v)", stack)
			}
			children[len(stack)]++
			stack = append(stack, e.Name.Local)
			children[len(stack)] = 0
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}
