// escalate_test.go: Escalating leaves an in-process side that abandoned a
// hung call for its other factory's side, and keeps one that did not.
package fuzz

import (
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestEscalatingAfterAHang(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	first := &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
		if g.Len() == 2 {
			<-release // hangs until the test ends
		}
		return Answer{Outcome: proto.Refused, Reason: "first"}
	}}
	then := SideFactory{Describe: "then", New: func() (Side, error) {
		return &InProcess{Fn: func(*cfg.Graph, proto.Options) Answer { return Answer{Outcome: proto.Refused, Reason: "then"} }}, nil
	}}
	e := &Escalating{Cur: first, Then: then}
	defer e.Close()
	one, _ := cfg.ParseCompact("{{}}", cfg.Limits{})
	two, _ := cfg.ParseCompact("{{1}, {}}", cfg.Limits{})
	if a := e.Structurize(one, proto.Options{}, time.Second); a.Reason != "first" {
		t.Fatalf("before a hang: %+v", a)
	}
	if a := e.Structurize(two, proto.Options{}, 50*time.Millisecond); a.Outcome != OutTimeout {
		t.Fatalf("the hang: %+v", a)
	}
	if a := e.Structurize(one, proto.Options{}, time.Second); a.Reason != "then" {
		t.Errorf("after the hang the side answers %+v, want the escalated side's", a)
	}
}
