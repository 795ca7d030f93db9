// handshake.go is the client side of protocol v2's handshake (PROTOCOL.md,
// "Version 2"): before the first request with given options, a Process
// sends a hello and keeps what the server declares for them. A server that
// answers the hello with an error (a v1 server: another version is an
// error) or fails it (dies, answers garbage or an object that writes a key
// twice) is served v1 from then on, its restarts included, and declares
// nothing; but a server that has answered a hello in version 2 and answers
// the hello of other options with an error keeps version 2 (refused):
// those options are its to refuse, and their requests' answers show how,
// while the promises of the options it answered stay declared. A new server still silent when its start-up allowance has
// passed is sent a v1 request on top of the hello (v1Probe), within the
// same wait: one that answers it, a v1 server that skips the hello
// unanswered, is served v1 with no hello. A new server that answers
// neither within the graph's limit and its start-up allowance has not
// started: the graph is a harness error (Answer.NotStarted), after that one
// wait, and the next graph's new server is asked again. A restarted server
// is sent the hello again (probeStart), so that its start-up, not a graph,
// takes the allowance. The preflight's hello (preflight.go), sent with no
// options to the server it hands on, is the handshake for no options.

package fuzz

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// handshakeState is what a Process knows of its server's protocol. The
// zero value knows nothing yet.
type handshakeState struct {
	v1      bool                          // the server does not speak v2
	asked   map[string]*proto.HelloAnswer // v2 answers by options (kept across restarts)
	refused map[string]bool               // options whose hello a v2 server answered with an error: they declare nothing
	noProbe bool                          // a hello ended a server or put it out of step: restarts are not probed
}

// refuse keeps a v2 server in version 2 when it answers the hello of the
// options of key with an error, having answered another in version 2: the
// options declare nothing, and are not asked again.
func (h *handshakeState) refuse(key string) {
	if h.refused == nil {
		h.refused = map[string]bool{}
	}
	h.refused[key] = true
	h.v1 = false
}

func optionsKey(opt proto.Options) string {
	return opt.Strategy + "|" + strings.Join(opt.Inject, ",")
}

// version is the protocol version of the requests.
func (p *Process) version() int {
	if p.hello.v1 {
		return proto.Version
	}
	return proto.Version2
}

// declared is what the server promised for opt, or nil (v1).
func (p *Process) declared(opt proto.Options) *proto.Promises {
	if h := p.hello.asked[optionsKey(opt)]; h != nil && !p.hello.v1 {
		pr := h.Promises
		return &pr
	}
	return nil
}

// Declared is the server's v2 handshake answer for opt: its name and
// promises, or nil when it speaks v1 or has not been asked yet.
func (p *Process) Declared(opt proto.Options) *proto.HelloAnswer {
	if p.hello.v1 {
		return nil
	}
	return p.hello.asked[optionsKey(opt)]
}

// handshake asks the running server for its promises for opt unless
// known, within limit (and the start-up allowance on a new server, which,
// silent that long, is sent a v1 request too: v1Probe). A new server
// silent past both has not started: the error says so, and nothing is
// concluded of its protocol. However else the hello fails, the graph is
// not charged with it: the server is served v1 from then on, restarted if
// the hello ended it; the error is a restart's.
func (p *Process) handshake(opt proto.Options, limit time.Duration) error {
	key := optionsKey(opt)
	if p.hello.v1 || p.hello.asked[key] != nil || p.hello.refused[key] {
		return nil
	}
	req := proto.Request{V: proto.Version2, Options: opt, Hello: &proto.Hello{Options: opt}}
	if p.pending != 0 && p.pendingHello && key == optionsKey(proto.Options{}) {
		req.ID = p.pending // the preflight sent this hello: its answer is the handshake's
	} else {
		p.nextID++
		req.ID = p.nextID
	}
	allowance := p.allowance()
	var probe *v1Probe
	if allowance > 0 {
		probe = p.probeV1After(opt, allowance)
	}
	line, fail := p.exchange(req, limit, allowance)
	probed := probe.stop()
	if probed != 0 {
		p.nextID = probed
	}
	switch {
	case fail != nil && fail.Stopped: // nothing is concluded of its protocol
		return errStopped
	case fail != nil && fail.Outcome == OutTimeout && allowance > 0:
		return p.didNotStart(limit)
	case fail == nil && probed != 0 && answerID(line) == probed:
		p.hello.v1, p.hello.noProbe = true, true // it skips the hello: its restarts would too
		return nil
	}
	p.hello.v1 = true // unless the answer below says v2
	if fail == nil {
		resp, ok := readHello(line)
		inStep := ok && resp.ID == req.ID
		if inStep && resp.Outcome == proto.OK && resp.Hello != nil && resp.Hello.V == proto.Version2 {
			if p.hello.asked == nil {
				p.hello.asked = map[string]*proto.HelloAnswer{}
			}
			resp.Hello.Name = clipText(resp.Hello.Name, maxLabel, "name")
			p.hello.asked[key] = resp.Hello
			p.hello.v1 = false
		}
		if inStep && resp.Outcome == proto.Error && len(p.hello.asked) > 0 {
			p.hello.refuse(key)
		}
		if inStep && (resp.Outcome == proto.Error || !p.hello.v1) {
			return p.settleProbe(probed, opt, limit)
		}
		p.hello.noProbe = true
		p.end(true, 0) // out of step: start afresh
	}
	if p.srv == nil {
		p.hello.noProbe = true
		return p.start()
	}
	return nil
}

// settleProbe reads the answer to the v1 request (id; 0 none was sent)
// that a server which answered its hello late was sent on top of it
// (v1Probe), before any graph's request goes out. The request was
// cfgfuzz's, not a graph's: a server that ends on it, or does not answer
// it within limit, is ended and a new one started, and no graph is
// charged with it.
func (p *Process) settleProbe(id int64, opt proto.Options, limit time.Duration) error {
	if id == 0 {
		return nil
	}
	p.pending, p.pendingHello = id, false // sent already: the exchange only reads its answer
	if _, fail := p.exchange(proto.Request{V: proto.Version, ID: id, Graph: "{{}}", Options: opt}, limit, 0); fail == nil {
		return nil
	}
	p.end(true, 0)
	return p.start()
}

// v1Probe is a v1 request of a one-block graph that a new server still
// silent on its hello when its start-up allowance has passed is sent on
// top of the hello (probeV1After), its answer bounded by what is left of
// the hello's wait, the graph's limit. A v1 server that skips the hello,
// a request of a version it does not know (PROTOCOL.md has a v1 server
// answer it with an error), answers it; a server that answers the hello
// after all answers it next, and that answer is read before any graph's
// request (settleProbe: a server the request ends is started again, no
// graph charged); one that answers neither has not started, within the one wait.
type v1Probe struct {
	id    int64
	timer *time.Timer
	mu    sync.Mutex
	done  bool // stopped, or sent
	sent  bool
}

// probeV1After sends the running server, wait from now unless stopped
// first, a v1 request of the graph {{}} with opt, of the next request's
// id: taken (Process.nextID) by the caller once stop says it was sent,
// so that the ids of a server's requests go on without a gap otherwise.
func (p *Process) probeV1After(opt proto.Options, wait time.Duration) *v1Probe {
	v := &v1Probe{id: p.nextID + 1}
	line, _ := json.Marshal(proto.Request{V: proto.Version, ID: v.id, Graph: "{{}}", Options: opt})
	stdin := p.srv.stdin
	v.timer = time.AfterFunc(wait, func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		if !v.done {
			_, err := stdin.Write(append(line, '\n'))
			v.done, v.sent = true, err == nil
		}
	})
	return v
}

// stop ends v's wait: the id of its request when it was sent, else 0 (v
// nil too).
func (v *v1Probe) stop() int64 {
	if v == nil {
		return 0
	}
	v.timer.Stop()
	v.mu.Lock()
	defer v.mu.Unlock()
	v.done = true
	if !v.sent {
		return 0
	}
	return v.id
}

// readHello reads an answer to a hello; ok is false for a line that is
// not a response, or whose objects write a key twice (dupkey.go: the
// protocol violation of an answer to a graph), which would declare
// whichever of the two encoding/json read last. Such a hello has failed.
func readHello(line []byte) (resp proto.Response, ok bool) {
	if json.Unmarshal(line, &resp) != nil {
		return proto.Response{}, false
	}
	if _, _, _, dup := duplicateKey(line); dup {
		return proto.Response{}, false
	}
	return resp, true
}

// didNotStart is the error of a new server silent past limit and its
// start-up allowance: it names the causes, a v1 server that skips the
// hello (a request of a version it does not know) among them.
func (p *Process) didNotStart(limit time.Duration) error {
	return fmt.Errorf("no answer to the protocol's hello within %v (--timeout) and the start-up allowance of %v (--start-timeout): the server did not start, or does not read its standard input, or it skips a request of a version it does not know (the hello is a request of \"v\":2, which a v1 server must answer with an error: fuzz/PROTOCOL.md, \"Version 2\"); `cfgfuzz selftest --structurizer SPEC` tells which", limit, p.startTimeout())
}

// probeStart sends a restarted server, which has written nothing yet, the
// hello again before its first graph (a v1 server answers it with an
// error), within limit and the start-up allowance. The allowance is then
// spent on that line, and every graph is given its own limit alone: a
// structurizer that hangs on graph after graph, restarted after each, costs
// each graph the limit, not the limit and the allowance. A server silent
// past both has not started (the error says so). One whose hello ended
// it or put it out of step is started afresh and not probed again
// (noProbe): its graphs after a restart take the allowance themselves
// (allowance: as long as its starts were seen to take).
//
// Pre: the handshake for opt is done. Post: the server is running, and it
// has written a line unless probes are off.
func (p *Process) probeStart(opt proto.Options, limit time.Duration) error {
	if p.srv == nil || p.srv.spoke || p.hello.noProbe {
		return nil
	}
	p.nextID++
	req := proto.Request{V: proto.Version2, ID: p.nextID, Options: opt, Hello: &proto.Hello{Options: opt}}
	line, fail := p.exchange(req, limit, p.allowance())
	switch {
	case fail != nil && fail.Stopped:
		return errStopped
	case fail != nil && fail.Outcome == OutTimeout:
		return p.didNotStart(limit)
	}
	if fail == nil {
		if resp, ok := readHello(line); ok && resp.ID == req.ID && (resp.Outcome == proto.Error || resp.Outcome == proto.OK && resp.Hello != nil) {
			return nil
		}
		p.end(true, 0)
	}
	p.hello.noProbe = true
	return p.start()
}

// maxLabel is the most of a label a server writes (a hello's name,
// stats.strategy, a func's block and variable names) that cfgfuzz keeps:
// reports show them, the records of a graph hold them, and a nightly state
// records a hello's name with every signature as the revision it was seen
// on.
const maxLabel = 256

// unsupported says which declared limit g exceeds ("" none; nil promises
// limit nothing): more blocks than max_blocks, a switch without switches,
// an irreducible graph without irreducible.
func unsupported(g *cfg.Graph, pr *proto.Promises) string {
	switch {
	case pr == nil:
		return ""
	case pr.MaxBlocks > 0 && g.Len() > pr.MaxBlocks:
		return fmt.Sprintf("more than %d blocks", pr.MaxBlocks)
	case !pr.Switches && hasSwitch(g):
		return "switches"
	case !pr.Irreducible && !cfg.Reducible(g):
		return "irreducible graphs"
	}
	return ""
}

func hasSwitch(g *cfg.Graph) bool {
	for _, s := range g.Succs {
		if len(s) >= 3 {
			return true
		}
	}
	return false
}
