//go:build gofuzz

// gofuzz.go: the dvyukov/go-fuzz entry point, built only by go-fuzz-build
// (the gofuzz tag). Fuzz decodes the bytes with gen.FromBytes, judges the
// graph with corpus.Runner (default strategy, every oracle check) and
// panics on a finding so go-fuzz records a crasher; it returns 1 for an
// input that decoded (go-fuzz raises its priority), -1 for one that did
// not (never added to the corpus).
//
//	go-fuzz-build -o cfgfuzz-fuzz.zip ./fuzz
//	go-fuzz -bin cfgfuzz-fuzz.zip -workdir fuzz/gofuzz-workdir

package fuzz

import (
	"fmt"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var (
	gofuzzOnce   sync.Once
	gofuzzRunner *corpus.Runner
)

// Fuzz is go-fuzz's entry point.
func Fuzz(data []byte) int {
	gofuzzOnce.Do(func() {
		r, err := corpus.NewRunner(corpus.RunnerOptions{Timeout: 10 * time.Second})
		if err != nil {
			panic("cfgfuzz harness: " + err.Error())
		}
		gofuzzRunner = r
	})
	g, err := gen.FromBytes(data)
	if err != nil {
		return -1
	}
	out := gofuzzRunner.Run(g)
	if out.Err != nil {
		return 0
	}
	if out.Failed() {
		panic(fmt.Sprintf("%s on %s", out.Signature, cfg.FormatCompact(g)))
	}
	return 1
}
