// answer_test.go: how an answer line is read and judged against the
// protocol (answer.go): a violation's signature names the rule broken and
// nothing the answer held, so one defect keeps one signature over every
// graph; its reason keeps the details.
package fuzz

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// funcAnswer is an ok answer line of id 1 whose func has the given blocks
// (JSON objects).
func funcAnswer(blocks ...string) string {
	return `{"id":1,"outcome":"ok","func":{"blocks":[` + strings.Join(blocks, ",") + `]}}`
}

// returns is a fully written block of the given kind and orig that returns.
func returns(kind string, orig int) string {
	return fmt.Sprintf(`{"kind":%q,"orig":%d,"merge":{"kind":"none"},"term":{"kind":"return"}}`, kind, orig)
}

func TestProtocolViolationSignatures(t *testing.T) {
	many := func(n int) string {
		b := make([]string, n)
		for i := range b {
			b[i] = returns("synthetic", -1)
		}
		return funcAnswer(b...)
	}
	for _, c := range []struct {
		sig string
		// lines break the rule in different ways; each one's reason holds
		// its detail.
		lines, details []string
	}{
		{"structurize:crash:protocol: answer is not JSON",
			[]string{"hello, this is not json", "xyz 12", `{"id":1,"outcome":"ok"`, strings.Repeat("w", 100)},
			[]string{`"hello, this is not json"`, `"xyz 12"`, `"{\"id\":1,\"outcome\":\"ok\""`, `"wwwwwwwwww`}},
		{"structurize:crash:protocol: answer is not a response",
			[]string{`[1, 2]`, `{"id":"one"}`, funcAnswer(`{"kind":"square","orig":0,"merge":{"kind":"none"},"term":{"kind":"return"}}`)},
			[]string{`"[1, 2]"`, `"{\"id\":\"one\"}"`, `square`}},
		{"structurize:crash:protocol: answer id other than the request's",
			[]string{`{"id":1001,"outcome":"ok","module":""}`, `{"id":-7,"outcome":"refused"}`, `{"outcome":"ok"}`},
			[]string{"1001 to request 1", "-7 to request 1", "0 to request 1"}},
		{"structurize:crash:protocol: unknown outcome",
			[]string{`{"id":1,"outcome":"splendid"}`, `{"id":1,"outcome":"OK"}`, `{"id":1}`},
			[]string{`"splendid"`, `"OK"`, `""`}},
		{"structurize:crash:protocol: ok answer with both module and func",
			[]string{`{"id":1,"outcome":"ok","module":"","func":{"blocks":[]}}`}, []string{""}},
		{"structurize:crash:protocol: ok answer with neither module nor func",
			[]string{`{"id":1,"outcome":"ok","func":null}`}, []string{""}},
		{"structurize:crash:protocol: func block whose orig is not a block of the graph",
			[]string{funcAnswer(returns("original", 1_000_000_000_000)), funcAnswer(returns("synthetic", -1), returns("clone", -3)), funcAnswer(returns("original", 4))},
			[]string{"block 0: orig 1000000000000 of a 4-block graph", "block 1: orig -3 of a 4-block graph", "block 0: orig 4 of a 4-block graph"}},
		{"structurize:crash:protocol: func of more blocks than an answer may have",
			[]string{many(4353), many(6000)},
			[]string{"4353 blocks for a 4-block graph, at most 4352", "6000 blocks for a 4-block graph, at most 4352"}},
	} {
		for i, line := range c.lines {
			a := (&Process{}).answer([]byte(line), 1, 4)
			out, sig, detail := classifyAnswer(a)
			if out != OutCrash || sig != c.sig {
				t.Errorf("%.60s: %s %q, want crash %q", line, out, sig, c.sig)
			}
			if !strings.HasPrefix(detail, strings.TrimPrefix(c.sig, "structurize:crash:")) || !strings.Contains(detail, c.details[i]) {
				t.Errorf("%.60s: detail %q, want the rule and %q", line, detail, c.details[i])
			}
		}
	}
}

// TestProtocolViolationsDocumented: PROTOCOL.md's table of failures gives
// the signature of every rule an answer can break.
func TestProtocolViolationsDocumented(t *testing.T) {
	doc, err := os.ReadFile("PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{ruleNotJSON, ruleNotResponse, ruleID, ruleOutcome, ruleBoth, ruleNeither, ruleOrig, ruleFuncBlocks} {
		if sig := "`structurize:crash:protocol: " + rule + "`"; !strings.Contains(string(doc), sig) {
			t.Errorf("PROTOCOL.md does not list %s", sig)
		}
	}
}
