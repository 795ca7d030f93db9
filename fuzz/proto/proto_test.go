// proto_test.go: ServeDeclared answers a v2 hello with its declaration and
// serves v1 and v2 requests; Serve (v1 only) answers the hello with the
// version error; another version is a request error.
package proto

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func serveLines(t *testing.T, declare Declare, lines ...string) []Response {
	t.Helper()
	var out bytes.Buffer
	if err := ServeDeclared(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, Local(false), declare); err != nil {
		t.Fatal(err)
	}
	var rs []Response
	dec := json.NewDecoder(&out)
	for dec.More() {
		var r Response
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

func TestServeDeclared(t *testing.T) {
	hello := `{"v":2,"id":1,"graph":"","options":{"strategy":"dispatch"},"hello":{"options":{"strategy":"dispatch"}}}`
	v2 := `{"v":2,"id":2,"graph":"{{1},{}}","options":{}}`
	v1 := `{"v":1,"id":3,"graph":"{{1},{}}","options":{}}`
	v3 := `{"v":3,"id":4,"graph":"{{1},{}}","options":{}}`
	rs := serveLines(t, LocalDeclare, hello, v2, v1, v3)
	if len(rs) != 4 {
		t.Fatalf("%d responses", len(rs))
	}
	if h := rs[0].Hello; rs[0].ID != 1 || h == nil || h.V != Version2 || h.Promises.Idempotent || !h.Promises.Deterministic {
		t.Errorf("hello answer %+v (%+v)", rs[0], h)
	}
	if rs[1].Outcome != OK || rs[2].Outcome != OK || rs[1].ID != 2 || rs[2].ID != 3 {
		t.Errorf("v2 and v1 requests: %+v %+v", rs[1], rs[2])
	}
	if rs[3].Outcome != Error || !strings.HasPrefix(rs[3].Reason, RequestError) {
		t.Errorf("version 3: %+v", rs[3])
	}
	v1only := serveLines(t, nil, hello, v1)
	if v1only[0].Outcome != Error || !strings.HasPrefix(v1only[0].Reason, RequestError) || v1only[0].Hello != nil || v1only[1].Outcome != OK {
		t.Errorf("v1-only server: %+v", v1only)
	}
}

// TestWithFaults: the planted faults join the request's own, and a server
// with a fault answers a diamond differently from one without.
func TestWithFaults(t *testing.T) {
	var got []string
	h := WithFaults(func(req Request) Response { got = req.Options.Inject; return Response{Outcome: OK} }, []string{"swap-arms"})
	h(Request{Options: Options{Inject: []string{"drop-merge"}}})
	if strings.Join(got, ",") != "drop-merge,swap-arms" {
		t.Errorf("faults seen by the handler: %v, want [drop-merge swap-arms]", got)
	}
	req := Request{V: Version, ID: 1, Graph: "{{1, 2}, {3}, {3}, {}}"}
	clean, planted := Local(false)(req), WithFaults(Local(false), []string{"swap-arms"})(req)
	if clean.Outcome != OK || planted.Outcome != OK {
		t.Fatalf("outcomes %s, %s: %s %s", clean.Outcome, planted.Outcome, clean.Reason, planted.Reason)
	}
	a, _ := json.Marshal(clean.Func)
	b, _ := json.Marshal(planted.Func)
	if bytes.Equal(a, b) {
		t.Error("swap-arms planted by WithFaults left the diamond's function unchanged")
	}
}

// TestLocalAnswersAnUnencodableFunctionInFuncForm: a function the
// convention cannot encode (an OpSwitch past emit.MaxSwitchCases, its
// cases going elsewhere than its default) goes
// back in func form from the module-form handler, so that cfgfuzz's
// emitter says unsupported of it as of the in-process structurizer's; a
// weight out of range is a request error.
func TestLocalAnswersAnUnencodableFunctionInFuncForm(t *testing.T) {
	targets := make([]string, emit.MaxSwitchCases+2)
	for i := range targets {
		targets[i] = strconv.Itoa(2 + i%2) // none goes where the default, 1, goes
	}
	targets[0] = "1"
	graph := "{{" + strings.Join(targets, ", ") + "}, {}, {}, {}}"
	resp := Local(true)(Request{V: 1, Graph: graph})
	if resp.Outcome != OK || resp.Func == nil || resp.Module != nil {
		t.Fatalf("a %d-way switch: outcome %q (%s), func %v, module %d bytes; want ok with the func alone", len(targets), resp.Outcome, resp.Reason, resp.Func != nil, len(resp.Module))
	}
	if _, err := emit.Bytes(resp.Func, emit.Options{}); !errors.As(err, new(*emit.UnsupportedError)) {
		t.Errorf("the func answered: emit says %v, want unsupported", err)
	}
	for _, w := range []int{-5, cfg.DefaultLimits.MaxWeight + 1} {
		resp := Local(true)(Request{V: 1, Graph: "{{1}, {}}", Weights: []int{w, 0}})
		if resp.Outcome != Error || !strings.HasPrefix(resp.Reason, RequestError) {
			t.Errorf("weight %d: outcome %q, reason %q; want an error starting %q", w, resp.Outcome, resp.Reason, RequestError)
		}
	}
}

// TestServeSetsTheRequestsID: whatever id a handler writes into its
// response, Serve answers with the request's.
func TestServeSetsTheRequestsID(t *testing.T) {
	var out bytes.Buffer
	wrong := func(req Request) Response { return Response{ID: req.ID + 1, Outcome: Refused, Reason: "x"} }
	if err := Serve(strings.NewReader(`{"v":1,"id":7,"graph":"{{}}","options":{}}`+"\n"), &out, wrong); err != nil {
		t.Fatal(err)
	}
	var r Response
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.ID != 7 {
		t.Fatalf("response %q (%v), want id 7", out.String(), err)
	}
}
