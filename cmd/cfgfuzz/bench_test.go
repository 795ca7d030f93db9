// bench_test.go: the driver bench's sets and table without a driver: one
// set per size and register-file size, bad register counts refused, medians
// of the modules and ratios of the medians.
package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBenchSetsPerRegisterCount(t *testing.T) {
	bf := &benchFlags{sizes: "5,7", registers: "0,64,1024", graphs: 2, seed: 1}
	sets, err := benchSets(bf)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sets {
		names = append(names, s.name)
		if len(s.graphs) != 2 {
			t.Errorf("%s: %d graphs", s.name, len(s.graphs))
		}
	}
	want := "reducible 5|reducible 5 r=64|reducible 5 r=1024|reducible 7|reducible 7 r=64|reducible 7 r=1024"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("sets %s, want %s", got, want)
	}
	if sets[1].registers != 64 || sets[2].registers != 1024 || sets[0].registers != 0 {
		t.Errorf("registers %d %d %d", sets[0].registers, sets[1].registers, sets[2].registers)
	}
	for _, bad := range []string{"-1", "x", "100000"} {
		if _, err := benchSets(&benchFlags{sizes: "5", registers: bad, graphs: 1}); err == nil {
			t.Errorf("--registers %s accepted", bad)
		}
	}
}

func TestBenchTableMedians(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	if m := benchMedian(ms(9, 1, 5)); m != 5*time.Millisecond {
		t.Errorf("median %v", m)
	}
	if m := benchMedian(ms(4, 1, 2, 100)); m != 3*time.Millisecond {
		t.Errorf("median of four %v", m)
	}
	s := benchTotals{modules: 3, blocks: 30, compiles: ms(10, 30, 20), runs: ms(1, 1, 1), compileCPUs: ms(10, 30, 20), runCPUs: ms(1, 1, 1)}
	d := benchTotals{modules: 3, blocks: 30, compiles: ms(40, 900, 50), runs: ms(4, 2, 3), compileCPUs: ms(40, 900, 50), runCPUs: ms(4, 2, 3)}
	var out bytes.Buffer
	printBenchTable(&out, []benchSet{{name: "reducible 10 r=64"}}, []string{"structured", "dispatch"}, [][]benchTotals{{s, d}})
	row := strings.Split(out.String(), "\n")[2]
	for _, want := range []string{"| reducible 10 r=64 | 3 | 10 |", "| 20.0 ms |", "| 50.0 ms |", "| 0.40x | 0.40x | 0.33x | 0.33x |"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
}

// TestBenchTimesAnExternalStructurizer: --structurizer puts a structurizer
// speaking the protocol in a column of its own, ext, timed against the
// dispatch loop on lavapipe; one whose modules the driver runs wrong
// (swap-arms planted) makes the bench exit 1, naming the disagreement.
func TestBenchTimesAnExternalStructurizer(t *testing.T) {
	bench := []string{"bench", "--driver", "--device", "cpu", "--sizes", "12", "--graphs", "2", "--corpus", "", "--warmup", "1", "--repeats", "2"}
	code, out, errs := runCmd(append(bench, "--structurizer", "cmd:"+cfgfuzzBinary(t)+" structurize"), "")
	if code == exitUsage && !strings.Contains(out, "device:") {
		t.Skipf("no lavapipe here: %s", errs)
	}
	if code != exitOK || !strings.Contains(out, "ratio = ext/dispatch") || !strings.Contains(out, "| reducible 12 | 2 |") {
		t.Fatalf("exit %d, want 0 and a row of 2 graphs timed as ext/dispatch:\n%s%s", code, out, errs)
	}
	code, _, errs = runCmd(append(bench, "--structurizer", plantedSpec(t)), "")
	if code != exitFail || !strings.Contains(errs, "ext: driver disagrees with the graph") {
		t.Errorf("a planted bug: exit %d, want %d naming the disagreement:\n%s", code, exitFail, errs)
	}
}
