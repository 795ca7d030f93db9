// Package fuzz is cfgfuzz's campaign engine: it generates graphs from a
// seed, has a structurizer (the current tree, another revision, any
// program speaking protocol v1 or v2) structure each one, judges every module with
// the oracle, optionally does the same with a baseline revision and
// classifies each graph, and writes reports that a person reads in a minute
// and a machine parses.
//
// # Coordinator and workers
//
// As in Go's internal/fuzz, one coordinator (Run, engine.go) hands out
// work and keeps the books, and workers (worker.go) do the work; failures of
// the harness are kept apart from findings. The coordinator generates the
// graph of every index in order: index i belongs to stream i mod
// len(Streams) (a stream is one generator at one weight setting) and is
// graph number Settings.Place(i) of that stream's generator, whose streams
// take turns over one sequence of graphs (each graph at one weight
// setting), its seed derived from the campaign seed, so every graph is a
// pure function of (seed, settings, index). A graph isomorphic to an
// earlier index's is skipped with a record saying so (distinct.go); the
// others go to the workers. Each worker owns its sides and its oracle and
// turns a generated graph into a Record. The coordinator appends records to the
// results log as they come, in completion order; a report is the one the log
// sorted by index gives: its counts add up in any order, and the examples it
// shows are the lowest indices of their kind, which the coordinator keeps in
// memory as records come (recordset.go), with the reasons the structurizer
// gave for the graphs it declined, each with its lowest index (declined.go).
// That is why the number of workers,
// the order of completion, sharding and restarts do not change a report
// (only its Throughput and Provenance sections).
//
// # Containing the structurizer
//
// A side (side.go) answers within the per-graph limit (10 s by default) or
// is cut off; a panic, a hang or a dead process is an answer (OutPanic,
// OutTimeout, OutCrash), a finding, and the campaign goes on:
//
//   - InProcess calls the tree's structurizer in a goroutine under
//     recover and a watchdog. This is the fast path for the current tree:
//     no encoding, no process switch. A hung call cannot be stopped in Go:
//     its goroutine is abandoned (counted in InProcess.Leaked) and keeps a
//     CPU busy until the campaign ends; the worker then switches to
//     Config.Escalate (the CLI: this binary as a protocol server), so one
//     hang leaks one goroutine per worker at most. --isolate runs the
//     current tree as child processes from the start.
//   - Process runs a child speaking protocol v1 or v2 (package proto,
//     PROTOCOL.md): a baseline commit's cmd/structurize, the cfgfuzz binary
//     itself (--isolate), or any external structurizer (--structurizer).
//     The child is killed with its process group and its descendants
//     (detached ones too, on Linux) when an answer is late, too long or
//     breaks the protocol, and restarted for the next graph when it died; a
//     panic report in its standard error (Go, Rust, an uncaught C++
//     exception: crashreport.go) makes the finding a panic, anything else a
//     crash. An answer that leaves processes running which the server did
//     not have once it had answered the hello breaks the protocol too
//     (leak.go): a leak is the structurizer's answer to one graph, so it
//     is a finding judged per graph, minimized and replayed like any
//     other, not a harness warning that a nightly's log would bury.
//     StopServers (KillAllServers, with no server started after it) is
//     the exit path's backstop.
//
// # Baselines
//
// BuildProject checks a revision (a commit, or a working tree's snapshot)
// out in a detached git worktree, builds it once with its project's build
// command and caches the result by project and revision under
// os.UserCacheDir()/cfgfuzz/builds; cfgfuzz's own revisions are
// OwnProject's (BuildRevision). Each worker runs one served process. Each
// side is judged by its own structurizer: only the checks that depend on
// the graph and the module alone are shared between byte-identical
// modules (oracle.CheckShared). Every graph
// gets a divergence class (Classify): same, output-changed,
// newly-structured, newly-refused, newly-unsupported, newly-supported,
// newly-invalid, invalid-fixed, crash, timeout. A finding is new only when the current side fails and the
// baseline does not (a baseline refusal counts as not failing); without a
// baseline every finding is new.
//
// # Checkpoints and shards
//
// The results log (journal.go) is the checkpoint: append-only JSON lines,
// fsynced every second (or 4096 records). Resume drops a torn last line, replays
// the log, each record held against its index's graph generated again
// (logcheck.go), and runs only the missing indices. A Shard i/n runs the indices
// with index mod n == i; Merge unions the shards' logs and builds the same
// report as the whole run. A time budget (Duration) makes which indices get
// done depend on speed; a graph budget (Graphs) makes runs comparable.
//
// # Reports
//
// report.json (REPORT.md documents the schema), report.md (the outcome and
// divergence tables per generator and weight setting, in the prose of the
// field's write-ups) and report.html (every finding's first graph drawn
// before and after structurization by package draw, pictures.go, in-process,
// with no graphviz).
// Config.Minimize is the corpus package's hook: it shrinks the first graph
// of every new signature before the report is written.
package fuzz
