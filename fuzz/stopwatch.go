// stopwatch.go lets a Process hear a campaign's stop while its server is
// starting. A server that has not written a line yet (its start-up, its
// hello) may take the graph's limit and the whole start-up allowance
// before it answers or fails; a stop heard in that time ends the server
// at once, and the request's answer says the graph was stopped
// (Answer.Stopped): no verdict, no harness error, the graph left for
// --resume as a graph never handed out. A server that has spoken is cut
// by the stop only when the campaign cuts its requests in flight
// (Config.CutOnStop, stopEar.spoken): else the graph it answers is judged
// to its end.

package fuzz

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/internal/procgroup"
)

// stopEar is what a side's requests hear of a campaign's stop: the
// stop (its close; nil: never), and whether it cuts a server that has
// spoken too (Config.CutOnStop), not only one still starting.
type stopEar struct {
	stop   <-chan struct{}
	spoken bool
}

// stopHearer is a side that can hear a campaign's stop while it waits for
// its server: a Process, or an Escalating serving from one.
type stopHearer interface{ hearStop(ear stopEar) }

// hearStop makes side hear ear on its next requests, when it can; the
// zero stopEar hears nothing.
func hearStop(side Side, ear stopEar) {
	if h, ok := side.(stopHearer); ok {
		h.hearStop(ear)
	}
}

// hearStop makes the requests of p's servers end at the stop's close:
// those of a server that has not spoken yet, and with ear.spoken every
// one (stopHearer).
func (p *Process) hearStop(ear stopEar) { p.stop = ear }

// stopWatch ends a server's wait for its first line when a stop comes.
type stopWatch struct {
	done  chan struct{} // closed by end
	over  chan struct{} // closed when the watch's goroutine has returned
	heard atomic.Bool   // the stop came before end
	once  sync.Once
}

// watchStop watches ear's stop for an exchange with s: when it closes
// first, s is killed (its process group) and its pipes made to fail at
// once, so the exchange's wait ends. A nil stop, or a server that has
// spoken where ear does not cut such a one, gives a nil watch, which
// hears nothing.
func (s *server) watchStop(ear stopEar) *stopWatch {
	stop := ear.stop
	if stop == nil || s.spoke && !ear.spoken {
		return nil
	}
	w := &stopWatch{done: make(chan struct{}), over: make(chan struct{})}
	go func() {
		defer close(w.over)
		select {
		case <-stop:
			w.heard.Store(true)
			s.cutNow()
		case <-w.done:
		}
	}()
	return w
}

// end ends the watch and says whether the stop came first; once it has,
// the server is being killed and the exchange must not go on with it.
func (w *stopWatch) end() bool {
	if w == nil {
		return false
	}
	w.once.Do(func() { close(w.done) })
	<-w.over
	return w.heard.Load()
}

// cutNow kills the server's process group and makes a wait on its pipes
// end now: their deadlines where they take them, else their close.
func (s *server) cutNow() {
	procgroup.Kill(s.pid)
	if !s.deadlines {
		s.stdin.Close()
		s.stdout.Close()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.armedUntil = now // cutHeld keeps it
	s.stdin.SetWriteDeadline(now)
	s.stdout.SetReadDeadline(now)
}

// errStopped is the error of a hello the stop ended (handshake,
// probeStart): Structurize answers stoppedAnswer.
var errStopped = errors.New("the campaign was stopped while its structurizer request was waited for")

// stopped ends the server of a request the stop ended while the server
// was starting.
func (p *Process) stopped() Answer {
	p.end(true, 0)
	return stoppedAnswer()
}

// stoppedAnswer is the answer of a graph the stop ended while its server
// was starting, or while it was answering where the stop cuts that:
// no verdict (Answer.Stopped).
func stoppedAnswer() Answer {
	return Answer{Outcome: proto.Error, Reason: errStopped.Error(), Stopped: true}
}
