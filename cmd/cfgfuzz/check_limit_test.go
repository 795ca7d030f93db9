// check_limit_test.go: `cfgfuzz check` under its time limits: a slow
// structurizer is the finding structurize:timeout within --timeout, slow
// checks an incomplete (error) outcome within --check-timeout, limits that
// are not positive a usage error, and a switch wider than one instruction
// the outcome unsupported (its cases to the default's label not counted).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/oracletest"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// switchGraph is block 0 switching to n returning blocks, compact.
func switchGraph(n int) string {
	var b strings.Builder
	b.WriteString("{{")
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, i)
	}
	b.WriteString("}}\n")
	return b.String()
}

func checkJSON(t *testing.T, input string, args ...string) (checkRecord, int, time.Duration) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(append([]string{"check", "--json"}, args...), strings.NewReader(input), &stdout, &stderr)
	took := time.Since(start)
	var rec checkRecord
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &rec); err != nil {
			t.Fatalf("%v: %s %s", err, stdout.String(), stderr.String())
		}
	}
	return rec, code, took
}

// TestCheckStructurizerTimeout: the structured strategy takes tens of
// milliseconds on a 16,000-way switch (a 2,048-way one takes about 1 ms,
// which races a 1 ms limit); under --timeout 1ms that is a timeout
// finding, and the check does not wait for the structurizer to finish.
func TestCheckStructurizerTimeout(t *testing.T) {
	rec, code, took := checkJSON(t, switchGraph(16000), "--timeout", "1ms", "--checks", "growth")
	if code != exitFail || rec.Outcome != outcomeFail || rec.Reason != "structurize:timeout" {
		t.Fatalf("exit %d, outcome %q reason %q", code, rec.Outcome, rec.Reason)
	}
	if took > 3*time.Second {
		t.Errorf("check took %v under a 1ms limit", took)
	}
}

// TestCheckChecksTimeout: checks past --check-timeout leave the graph
// without a verdict: outcome error, exit 2.
func TestCheckChecksTimeout(t *testing.T) {
	rec, code, _ := checkJSON(t, "{{1}, {2, 3}, {1}, {4}, {}}\n", "--strategy", "dispatch", "--check-timeout", "1ns", "--checks", "pdom,meta")
	if code != exitUsage || rec.Outcome != outcomeError || !strings.Contains(rec.Reason, "--check-timeout") {
		t.Fatalf("exit %d, %+v", code, rec)
	}
	rec, code, _ = checkJSON(t, "{{1}, {2, 3}, {1}, {4}, {}}\n", "--strategy", "dispatch", "--checks", "pdom")
	if code != exitOK || rec.Outcome != outcomeOK {
		t.Fatalf("default limits: exit %d, %+v", code, rec)
	}
}

func TestCheckLimitsMustBePositive(t *testing.T) {
	for _, args := range [][]string{{"--timeout", "0s"}, {"--timeout", "-1s"}, {"--check-timeout", "0s"}} {
		var stderr bytes.Buffer
		code := run(append([]string{"check"}, args...), strings.NewReader("{{}}"), &bytes.Buffer{}, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), args[0]) {
			t.Errorf("%v: exit %d, %s", args, code, stderr.String())
		}
	}
}

// TestCheckWideSwitchUnsupported: a dispatch module of a 16,384-way switch
// is past SPIR-V's 16,383 (literal, label) pairs: unsupported, not a
// finding of rules or spirv-val.
func TestCheckWideSwitchUnsupported(t *testing.T) {
	rec, code, _ := checkJSON(t, switchGraph(16384), "--strategy", "dispatch", "--checks", "rules,spirv-val")
	if code != exitFail || rec.Outcome != outcomeUnsupported || !strings.Contains(rec.Reason, "unsupported") {
		t.Fatalf("exit %d, %+v", code, rec)
	}
}

// TestCheckWideSwitchToTheDefault: a switch of 16,483 successors, all
// but three of them its first, is laid out with its three other cases
// (the rest go to the default's label) and passes every default check,
// under either strategy; one of them falls into the default's target.
func TestCheckWideSwitchToTheDefault(t *testing.T) {
	succ := make([]string, 16483)
	for i := range succ {
		succ[i] = "1"
	}
	succ[7], succ[5000], succ[len(succ)-1] = "2", "3", "2"
	graph := "{{" + strings.Join(succ, ", ") + "}, {3}, {1}, {}}\n"
	for _, strategy := range []string{"structured", "dispatch"} {
		rec, code, _ := checkJSON(t, graph, "--strategy", strategy)
		if code != exitOK || rec.Outcome != outcomeOK {
			t.Errorf("%s: exit %d, %+v", strategy, code, rec)
		}
	}
}

// diamondChain is n diamonds in a row, compact: 3n+1 blocks.
func diamondChain(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		h := 3 * i
		fmt.Fprintf(&b, "{%d, %d}, {%d}, {%d}, ", h+1, h+2, h+3, h+3)
	}
	b.WriteString("{}}\n")
	return b.String()
}

// TestCheckGoesOnAfterANoVerdict: a graph whose checks run past
// --check-timeout has no verdict, and the graphs after it are still
// judged, on a new side and oracle; the exit status says incomplete.
func TestCheckGoesOnAfterANoVerdict(t *testing.T) {
	var stdout, stderr bytes.Buffer
	input := diamondChain(7000) + "{{1, 2}, {3}, {3}, {}}\n"
	code := run([]string{"check", "--check-timeout", "1s"}, strings.NewReader(input), &stdout, &stderr)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if code != exitUsage || len(lines) != 2 || !strings.HasPrefix(lines[0], "ERROR ") || !strings.HasPrefix(lines[1], "ok ") {
		t.Fatalf("exit %d, want 2 with the first graph without a verdict and the second ok:\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "the graphs after it go to a new structurizer side and oracle") {
		t.Errorf("stderr does not say the graphs after it were judged afresh:\n%s", stderr.String())
	}
}

// TestCheckLimitNamesTheCheckStillRunning: check's and minimize's detail
// of a graph whose checks ran past --check-timeout names the check left
// running; two graphs left in it read alike once normalized (one
// signature).
func TestCheckLimitNamesTheCheckStillRunning(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	ropt := corpus.RunnerOptions{Checks: []string{"pdom", "exec"}, Oracle: oracle.Options{Executor: oracletest.Held{Release: release}}}
	const limit = 100 * time.Millisecond
	const want = "checks: no verdict within 100ms (--check-timeout): exec still running"
	var sigs []string
	for _, graph := range []string{"{{1}, {}}", "{{1, 2}, {3}, {3}, {}}"} {
		g, err := cfg.ParseCompact(graph, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		side, err := fuzz.InProcessFactory().New()
		if err != nil {
			t.Fatal(err)
		}
		orc, err := oracle.New(oracle.Options{Checks: ropt.Checks, Executor: ropt.Oracle.Executor})
		if err != nil {
			t.Fatal(err)
		}
		rec := checkOne(sourced{Item: cfg.Item{Graph: g}, File: "-"}, fuzz.SideStructurizer(side, proto.Options{}, time.Minute), "", orc, limit)
		if rec.Outcome != outcomeError || rec.Reason != want+": incomplete" {
			t.Errorf("check %s: %s %q, want error %q", graph, rec.Outcome, rec.Reason, want+": incomplete")
		}

		judge, err := newBoundedJudge(limit, "", func() (*corpus.Runner, fuzz.Side, error) {
			side, err := fuzz.InProcessFactory().New()
			if err != nil {
				return nil, nil, err
			}
			ro := ropt
			ro.Structurize = fuzz.SideStructurizer(side, proto.Options{}, time.Minute)
			run, err := corpus.NewRunner(ro)
			return run, side, err
		}, func(r *corpus.Runner, _ string) corpus.Predicate { return r.Predicate() })
		if err != nil {
			t.Fatal(err)
		}
		_, err = judge.predicate()(g)
		if err == nil || err.Error() != want {
			t.Errorf("minimize %s: %v, want %q", graph, err, want)
		} else {
			sigs = append(sigs, oracle.HarnessSignature(oracle.HarnessError, err.Error()))
		}
	}
	if len(sigs) == 2 && (sigs[0] != sigs[1] || !strings.Contains(sigs[0], "exec still running")) {
		t.Errorf("signatures %q, want one, naming exec", sigs)
	}
}
