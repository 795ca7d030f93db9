package main

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// placeholder is a value flag's name in flag.PrintDefaults' output: one
// word (DURATION, N, MIN-MAX, N,...), which Go's flag package takes from
// the first `quoted` word of the usage, so a usage that quotes a command
// there prints that command in its place.
var placeholder = regexp.MustCompile(`^[A-Za-z0-9.,/_-]+$`)

// TestFlagPlaceholdersAreOneWord runs every command's -h and checks that
// each value flag shows a one-word placeholder (-minimize-steps N, not
// -minimize-steps cfgfuzz minimize --max-steps).
func TestFlagPlaceholdersAreOneWord(t *testing.T) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if n == "completion" {
			continue
		}
		var out, errw strings.Builder
		commands[n].run([]string{"-h"}, strings.NewReader(""), &out, &errw, nil)
		for _, l := range strings.Split(out.String()+errw.String(), "\n") {
			m := flagLine.FindStringSubmatch(l)
			if m == nil || m[2] != " " {
				continue
			}
			value, _, _ := strings.Cut(m[3], "\t")
			if !placeholder.MatchString(value) {
				t.Errorf("cfgfuzz %s -h: flag -%s shows the placeholder %q, not one word: %q", n, m[1], value, l)
			}
		}
	}
}
