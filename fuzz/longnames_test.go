// longnames_test.go: a structurizer's module whose every OpName is 100 KB
// (which a check's detail quotes, a picture labels a block with and a
// disassembly prints) gives a report.html of a bounded size and shows no
// name whole in report.html or report.md: each shows as its first bytes
// and its size, while report.json keeps the detail whole.
package fuzz

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/internal/shown"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// longName is the OpName of every id of longNamesSide's modules.
var longName = strings.Repeat("L", 100<<10)

// longLinesName is an OpName of 60 KB of short lines: a disassembly
// prints an OpName's string with its newlines as they are, so each line
// is short while the name is not.
var longLinesName = strings.Repeat("x\n", 30000)

// longNamesSide answers every graph with the module of this tree's
// structurizer, its OpNames replaced by longName.
func longNamesSide(longName string) SideFactory {
	return SideFactory{Describe: "long names", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			a := structureLocal(g, opt)
			if a.Func == nil {
				return a
			}
			m, err := emit.Module(a.Func, emit.Options{})
			if err != nil {
				return Answer{Outcome: proto.Error, Reason: err.Error()}
			}
			for i := range m.Insts {
				if in := &m.Insts[i]; in.Op == spirv.OpName {
					in.Operands = append(in.Operands[:1:1], spirv.String(longName)...)
				}
			}
			a.Module, a.Func = m.Bytes(), nil
			return a
		}}, nil
	}}
}

// longNamesCampaign runs 8 graphs on longNamesSide(name) against the
// clean in-process structurizer, drop-merge planted so that there are
// findings and divergences to show.
func longNamesCampaign(t *testing.T, name string) (Config, *Outcome) {
	t.Helper()
	c := testConfig(t, 8)
	c.Inject, c.Strategy = []string{"drop-merge"}, "structured"
	c.Current = longNamesSide(name)
	c.Baseline = SideFactory{Describe: "in-process (clean)", New: InProcessFactory().New}
	o := mustRun(t, c)
	if len(o.Report.Findings) == 0 || o.Report.Divergences == nil || len(o.Report.Divergences.Examples) == 0 {
		t.Fatalf("the campaign found nothing to show: %d findings, %d divergences", len(o.Report.Findings), len(o.Report.Divergences.Examples))
	}
	return c, o
}

func TestLongNamesBoundedInReports(t *testing.T) {
	c, o := longNamesCampaign(t, longName)
	if d := o.Report.Findings[0].First.Detail; !strings.Contains(d, longName) {
		t.Errorf("report.json's detail does not keep the name whole: %.200q", d)
	}
	whole := strings.Repeat("L", shown.Max+1)
	for _, name := range []string{"report.html", "report.md"} {
		b, err := os.ReadFile(filepath.Join(c.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), whole) {
			t.Errorf("%s shows more than %d bytes of a name", name, shown.Max)
		}
		if name == "report.html" && len(b) > maxLongNamesHTML {
			t.Errorf("report.html is %d bytes, over %d", len(b), maxLongNamesHTML)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(c.Dir, "report.html")); !strings.Contains(string(b), "L… (102400 bytes)") {
		t.Errorf("report.html does not show a name's size:\n%.2000s", b)
	}
}

// TestLongLinesNamesBoundedInReports: an OpName of many short lines is
// bounded as one name, not line by line: report.html stays within the
// bound of TestLongNamesBoundedInReports and shows the name as its first
// bytes and its size, while report.json keeps the module whole.
func TestLongLinesNamesBoundedInReports(t *testing.T) {
	c, o := longNamesCampaign(t, longLinesName)
	if m, err := spirv.Decode(o.Report.Divergences.Examples[0].CurrentModule); err != nil || !slices.Contains(slices.Collect(maps.Values(m.Names())), longLinesName) {
		t.Errorf("report.json's module does not keep the name whole (%v)", err)
	}
	for _, name := range []string{"report.html", "report.md"} {
		b, err := os.ReadFile(filepath.Join(c.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "x\n"); n > 10*shown.Max {
			t.Errorf("%s shows %d lines of a name", name, n)
		}
		if name == "report.html" && len(b) > maxLongNamesHTML {
			t.Errorf("report.html is %d bytes, over %d", len(b), maxLongNamesHTML)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(c.Dir, "report.html")); !strings.Contains(string(b), `x\nx\nx…&#34; (60000 bytes)`) {
		t.Errorf("report.html does not show the name's size:\n%.2000s", b)
	}
}

// maxLongNamesHTML bounds TestLongNamesBoundedInReports's report.html: its
// 8 graphs' findings and divergences with their pictures and disassembly
// diffs take about 280 KB when each name shows as its first bytes, and
// about 21 MB when every copy of a name is printed whole.
const maxLongNamesHTML = 512 << 10
