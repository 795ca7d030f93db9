// Package corpus keeps findings that last: a findings store on disk
// deduplicated by signature (store.go), a minimizer that shrinks a failing
// graph while keeping its bug (minimize.go, stages.go, ddmin.go, reduce.go),
// the regression suite that `go test` replays (regress.go), and the one
// function every consumer needs to judge a graph: structurize, emit and
// check it with every panic contained (run.go).
//
// The minimizer follows syzkaller's pkg/repro in shape: minimization is a
// pipeline of named stages, each a bounded search, and every candidate is
// judged by one predicate that demands the original failure's signature,
// so the search cannot drift to another bug; other signatures met on the
// way are handed to a callback (and so to the store), never adopted. Each
// stage searches with chunked delta debugging (ddmin: Zeller and
// Hildebrandt, "Simplifying and Isolating Failure-Inducing Input", IEEE
// TSE 2002), and the pipeline repeats until no stage shrinks the graph.
//
// doc.go holds only this comment.
package corpus
