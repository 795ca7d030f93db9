// gensource_test.go: the campaign's graph source and the replay command it
// prints agree: running the command gives the graph the campaign checked,
// the larger graphs of gen.CampaignBlocks included; gen refuses flags its
// kinds would ignore.
package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestReplayPrintsTheCampaignGraph(t *testing.T) {
	const run = 3
	var src genSource
	for _, k := range gen.Kinds() {
		for _, w := range []string{"w0", "w16+heavy", "w0to64"} {
			s := fuzz.Stream{Kind: string(k), Weights: w}
			large := 0
			for j := range 120 {
				it, err := src.Item(s, run, j)
				if err != nil {
					t.Fatalf("%v graph %d: %v", s, j, err)
				}
				if it.Graph.Len() >= gen.CampaignLargeMin {
					large++
				}
				cmd := src.Replay(s, it.Seed)
				args, ok := strings.CutPrefix(cmd, "cfgfuzz ")
				if !ok {
					t.Fatalf("replay %q does not start with cfgfuzz", cmd)
				}
				var out bytes.Buffer
				if code := runGen(strings.Fields(args)[1:], nil, &out, io.Discard, nil); code != exitOK {
					t.Fatalf("%s: exit %d", cmd, code)
				}
				got, err := cfg.ParseLines(strings.TrimSuffix(strings.TrimSpace(out.String()), "---"), cfg.DefaultLimits)
				if err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
				if !got.Equal(it.Graph) {
					t.Fatalf("%v graph %d: %s prints\n%s\nthe campaign checked %s", s, j, cmd, out.String(), it.Graph)
				}
			}
			if k != gen.Exhaustive && large == 0 {
				t.Errorf("%v: none of 120 graphs has %d blocks or more (one in %d should)", s, gen.CampaignLargeMin, gen.CampaignLargeEvery)
			}
		}
	}
}

// TestGenRefusesFlagsItsKindsIgnore: a flag none of the asked kinds reads
// is a usage error naming it, and weights asked for in compact notation
// get a note; every replay command a campaign prints stays accepted.
func TestGenRefusesFlagsItsKindsIgnore(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--kind", "exhaustive", "--blocks", "7-8"}, "--blocks does not apply to --kind exhaustive"},
		{[]string{"gen", "--program"}, "--program only applies to --kind program"},
		{[]string{"gen", "--kind", "reducible", "--n", "3"}, "--n and --grow only apply to --kind exhaustive"},
	} {
		var stdout, stderr strings.Builder
		if code := run(c.args, strings.NewReader(""), &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, want 2 saying %q\n%s", c.args, code, c.want, stderr.String())
		}
	}
	var mixed, mixedErr strings.Builder
	if code := run([]string{"gen", "--kind", "reducible,exhaustive", "--blocks", "10-12", "--count", "2"}, strings.NewReader(""), &mixed, &mixedErr); code != exitOK {
		t.Errorf("--blocks with one kind that reads it: exit %d, want 0\n%s", code, mixedErr.String())
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"gen", "--words", "16", "--count", "1"}, strings.NewReader(""), &stdout, &stderr); code != exitOK || !strings.Contains(stderr.String(), "--lines prints them") {
		t.Errorf("--words without --lines: exit %d, want 0 and a note\n%s", code, stderr.String())
	}
	for _, k := range gen.Kinds() {
		for seed := range uint64(64) {
			replay := genSource{}.Replay(fuzz.Stream{Kind: string(k), Weights: "w16+heavy"}, seed)
			args := strings.Fields(strings.TrimPrefix(replay, "cfgfuzz "))
			var out, errOut strings.Builder
			if code := run(args, strings.NewReader(""), &out, &errOut); code != exitOK {
				t.Fatalf("%s: exit %d\n%s", replay, code, errOut.String())
			}
		}
	}
}

// TestRunBlocks: run --blocks gives every random generator's stream the
// range, and each of its graphs has that many blocks, replayed by the
// printed command; the exhaustive generator keeps its order; a bad range,
// a range only the exhaustive generator is asked for, and --blocks with
// guided generation are usage errors.
func TestRunBlocks(t *testing.T) {
	streams, err := streamsFor("reducible,exhaustive,program,irreducible", "w16", "40-60")
	if err != nil {
		t.Fatal(err)
	}
	var src genSource
	for _, s := range streams {
		if (s.Blocks == "") != (s.Kind == string(gen.Exhaustive)) {
			t.Fatalf("stream %v: want the range on every random generator's stream only", s)
		}
		if s.Blocks == "" {
			continue
		}
		for j := range 4 {
			it, err := src.Item(s, 5, j)
			if err != nil {
				t.Fatalf("%v graph %d: %v", s, j, err)
			}
			if n := it.Graph.Len(); n < 40 || n > 60 {
				t.Errorf("%v graph %d: %d blocks, want 40-60", s, j, n)
			}
			var out bytes.Buffer
			cmd := src.Replay(s, it.Seed)
			if code := runGen(strings.Fields(strings.TrimPrefix(cmd, "cfgfuzz "))[1:], nil, &out, io.Discard, nil); code != exitOK || !strings.Contains(cmd, " --blocks 40-60") {
				t.Fatalf("%s: exit %d", cmd, code)
			}
			if got, err := cfg.ParseLines(strings.TrimSuffix(strings.TrimSpace(out.String()), "---"), cfg.DefaultLimits); err != nil || !got.Equal(it.Graph) {
				t.Fatalf("%s does not print the campaign's graph (%v)", cmd, err)
			}
		}
	}
	dir := t.TempDir()
	code, out, errs := runCmd([]string{"run", "--blocks", "30-40", "--kinds", "reducible", "--graphs", "6", "--progress", "none", "--out", dir + "/ok"}, "")
	if code != exitOK {
		t.Fatalf("run --blocks 30-40: exit %d\n%s%s", code, out, errs)
	}
	if rep := readCampaignReport(t, dir+"/ok"); len(rep.Settings.Streams) == 0 || rep.Settings.Streams[0].Blocks != "30-40" || rep.Graphs != 6 {
		t.Errorf("report: %d graphs, streams %+v; want 6 graphs of streams with blocks 30-40", rep.Graphs, rep.Settings.Streams)
	}
	for _, args := range [][]string{
		{"--blocks", "0-4"},
		{"--blocks", "9-5"},
		{"--blocks", "70000"},
		{"--kinds", "exhaustive", "--blocks", "50"},
		{"--blocks", "50", "--mutate", "0.5"},
		{"--blocks", "50", "--guided"},
	} {
		code, _, errs := runCmd(append([]string{"run", "--graphs", "2", "--progress", "none", "--out", dir + "/x"}, args...), "")
		if code != exitUsage || !strings.Contains(errs, "--blocks") {
			t.Errorf("run %v: exit %d, want %d naming --blocks:\n%s", args, code, exitUsage, errs)
		}
	}
}
