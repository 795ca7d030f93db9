// escalate.go defines Escalating, a Side that serves from an in-process
// side until that side abandons a hung call (InProcess.Leaked), then from a
// side of another factory (this tree's structurizer as a child process, the
// isolated spec), so a hang costs one graph and one abandoned goroutine,
// not one per graph: the rule the campaign's workers follow with
// Config.Escalate, for `check`, `minimize` and `regress` on the self spec.

package fuzz

import (
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Escalating serves from Cur and, once Cur is an *InProcess that leaked a
// call, from a side of Then (when Then.New is set and starts).
type Escalating struct {
	Cur  Side
	Then SideFactory
	// graph is the graph named to it (noteGraph), named to a side it
	// escalates to as well.
	graph string
	// stop is the stop named to it (hearStop), named to a side it
	// escalates to as well.
	stop stopEar
}

// Structurize answers from the current side, escalating after a leak.
func (e *Escalating) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	a := e.Cur.Structurize(g, opt, limit)
	if p, ok := e.Cur.(*InProcess); ok && p.Leaked > 0 && e.Then.New != nil {
		if s, err := e.Then.New(); err == nil {
			e.Cur.Close()
			e.Cur = s
			noteGraph(s, e.graph)
			hearStop(s, e.stop)
		}
	}
	return a
}

// noteGraph names the graph to the current side (graphNoter).
func (e *Escalating) noteGraph(graph string) {
	e.graph = graph
	noteGraph(e.Cur, graph)
}

// hearStop makes the current side hear stop (stopHearer), and a side
// it escalates to as well.
func (e *Escalating) hearStop(ear stopEar) {
	e.stop = ear
	hearStop(e.Cur, ear)
}

// graphNoter is a side that names the graph it is judged on beside what
// it notes outside its answers: a Process, the strays its server's
// descendants leave (stray_linux.go).
type graphNoter interface{ noteGraph(graph string) }

// noteGraph names graph to side when it notes any.
func noteGraph(side Side, graph string) {
	if n, ok := side.(graphNoter); ok {
		n.noteGraph(graph)
	}
}

// Close closes the current side.
func (e *Escalating) Close() error { return e.Cur.Close() }
