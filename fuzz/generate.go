// generate.go: a campaign's call of its graph source, with the source's
// panics contained. A panic in a generator (or in a graph analysis a
// generator calls) is a harness error of that graph, recorded with the
// graph's seed under the signature harness:generator-panic, and the
// campaign goes on, as it does after a structurizer panic.

package fuzz

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// SigGeneratorPanic is the signature of a graph whose generator panicked.
const SigGeneratorPanic = "harness:generator-panic"

// SeedSource is a Source that can name graph j's own seed without
// generating it, so a generator panic is reported with the seed that
// replays it.
type SeedSource interface {
	SeedOf(s Stream, run uint64, j int) uint64
}

// GeneratorPanic is a panic of the source on one graph.
type GeneratorPanic struct {
	Seed      uint64
	SeedKnown bool
	Value     any
	Where     string // the panicking function and its file:line, "" unknown
}

func (p *GeneratorPanic) Error() string {
	s := fmt.Sprintf("generator panicked: %v", p.Value)
	if p.Where != "" {
		s += " at " + p.Where
	}
	if p.SeedKnown {
		s += fmt.Sprintf(" (seed %d)", p.Seed)
	}
	return s
}

// panicSite is the innermost frame of the panicking goroutine outside the
// runtime, as "function file:line"; called from the deferred recover.
func panicSite() string {
	pc := make([]uintptr, 32)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") && f.Function != "" {
			return fmt.Sprintf("%s %s:%d", f.Function, f.File, f.Line)
		}
		if !more {
			return ""
		}
	}
}

// generate is src.Item with a panic turned into a *GeneratorPanic (the
// item then carries the seed where the source can name it).
func generate(src Source, s Stream, run uint64, j int) (it Item, err error) {
	defer func() {
		if v := recover(); v != nil {
			p := &GeneratorPanic{Value: v, Where: panicSite()}
			if ss, ok := src.(SeedSource); ok {
				p.Seed, p.SeedKnown = safeSeed(ss, s, run, j)
			}
			it, err = Item{Seed: p.Seed}, p
		}
	}()
	return src.Item(s, run, j)
}

// safeSeed is SeedOf, which must not take the campaign down either.
func safeSeed(ss SeedSource, s Stream, run uint64, j int) (seed uint64, ok bool) {
	defer func() {
		if recover() != nil {
			seed, ok = 0, false
		}
	}()
	return ss.SeedOf(s, run, j), true
}

// generateFailure is the record side of a graph the source could not give.
func generateFailure(err error) SideResult {
	var p *GeneratorPanic
	if errors.As(err, &p) {
		return SideResult{Outcome: OutError, Signature: SigGeneratorPanic, Detail: firstLine(p.Error())}
	}
	return SideResult{Outcome: OutError, Detail: "generate: " + err.Error()}
}
