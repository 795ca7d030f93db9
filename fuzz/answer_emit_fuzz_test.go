// answer_emit_fuzz_test.go: the native fuzz target FuzzFuncAnswer, an
// adapter's answer line on its way to a module: read (decodeResponse),
// checked against the protocol for the request's graph (checkResponse),
// and a func answer laid out as SPIR-V by the emitter (emit.Bytes, called
// here without the recover that emitSafely puts around it). Whatever the
// line, it is a response or a violation, and a func that passes both is
// emitted or refused with an error, never a panic, into a module that
// decodes and that the rules checker can split into blocks. The seeds are
// the answers of cfgfuzz's own server (localAnswers).
//
//	go test -run '^$' -fuzz '^FuzzFuncAnswer$' -fuzztime 150s -parallel 1 ./fuzz
package fuzz

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

func FuzzFuncAnswer(f *testing.F) {
	for _, l := range localAnswers(f)[:4] {
		f.Add(l, uint16(5))
	}
	for _, l := range []string{
		funcAnswer(returns("original", 0)),
		funcAnswer(`{"kind":"original","orig":0,"merge":{"kind":"loop","merge":1,"continue":0},"term":{"kind":"branch","to":[1]}}`, returns("synthetic", -1)),
		funcAnswer(`{"kind":"original","orig":0,"arity":2,"merge":{"kind":"selection","merge":1},"term":{"kind":"choose","to":[1,1]}}`, returns("original", 1)),
		`{"id":1,"outcome":"ok","module":"AwIjBw=="}`,
	} {
		f.Add([]byte(l), uint16(2))
	}
	f.Fuzz(func(t *testing.T, line []byte, blocks uint16) {
		n := 1 + int(blocks%64)
		r, v := decodeResponse(line)
		if v.broken() {
			return
		}
		if v := checkResponse(&r, n); v.broken() || r.Func == nil {
			return
		}
		if err := r.Func.Validate(); err != nil {
			return
		}
		mod, err := emit.Bytes(r.Func, emit.Options{})
		if err != nil {
			return
		}
		if _, err := oracle.CheckRules(mod); err != nil {
			t.Fatalf("%s: emitted a module the rules checker cannot read: %v", line, err)
		}
	})
}
