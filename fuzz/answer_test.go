// answer_test.go: how an answer line is read and judged against the
// protocol (answer.go): a violation's signature names the rule broken and
// nothing the answer held, so one defect keeps one signature over every
// graph; its reason keeps the details.
package fuzz

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
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
			[]string{`[1, 2]`, `{"id":"one"}`, funcAnswer(`{"kind":"square","orig":0,"merge":{"kind":"none"},"term":{"kind":"return"}}`),
				funcAnswer(`{"kind":"original","orig":"1","merge":{"kind":"none"},"term":{"kind":"return"}}`), funcAnswer(`{"kind":"original","orig":1.5,"merge":{"kind":"none"},"term":{"kind":"return"}}`)},
			[]string{`"[1, 2]"`, `"{\"id\":\"one\"}" (string in field id)`, `square`, `(string in field func.blocks.orig)`, `(number in field func.blocks.orig)`}},
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
		{"structurize:crash:protocol: answer with a key written twice",
			[]string{`{"id":1,"outcome":"ok","outcome":"refused","reason":"no"}`, `{"id":1,"outcome":"refused","reason":"a","REASON":"b"}`,
				funcAnswer(returns("synthetic", -1), `{"kind":"original","orig":2,"merge":{"kind":"none"},"term":{"kind":"return"},"kind":"clone"}`),
				`{"id":1,"outcome":"ok","module":"","stats":{"clones":1,"clon\u0065s":2}}`},
			[]string{`"outcome" in the top-level object`, `"reason" and "REASON" (one field whatever the case) in the top-level object`,
				`"kind" in func.blocks[1]`, `"clones" in stats`}},
		{"structurize:crash:protocol: refused or error answer without a reason",
			[]string{`{"id":1,"outcome":"refused"}`, `{"id":1,"outcome":"refused","reason":""}`, `{"id":1,"outcome":"error","reason":null}`, `{"id":1,"outcome":"refused","reason":" \t"}`},
			[]string{`outcome "refused", reason absent or empty`, `outcome "refused", reason absent or empty`, `outcome "error", reason absent or empty`, `outcome "refused", reason " \t": white space alone`}},
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
	for _, rule := range []string{ruleNotJSON, ruleNotResponse, ruleID, ruleOutcome, ruleBoth, ruleNeither, ruleFields, ruleOrig, ruleFuncBlocks, ruleLeak, ruleDupKey, ruleNoReason} {
		if sig := "`structurize:crash:protocol: " + rule + "`"; !strings.Contains(string(doc), sig) {
			t.Errorf("PROTOCOL.md does not list %s", sig)
		}
	}
}

// TestFuncBlockRequiredFields: an ok answer whose func has a block that
// leaves out kind, orig (unless the block is synthetic), merge's kind or
// term's kind is a protocol violation naming the first such block and
// what it lacks, not a block read with zero values (an original block 0
// that returns).
func TestFuncBlockRequiredFields(t *testing.T) {
	const sig = "structurize:crash:protocol: func block without a required field"
	for _, c := range []struct {
		line, detail string // detail "": no violation
	}{
		{funcAnswer(`{}`), "block 0 lacks kind, orig, merge.kind, term.kind"},
		{funcAnswer(`null`), "block 0 lacks kind, orig, merge.kind, term.kind"},
		{funcAnswer(returns("synthetic", -1), `{"kind":"original","orig":2,"term":{"kind":"return"}}`), "block 1 lacks merge.kind"},
		{funcAnswer(returns("synthetic", -1), `{"kind":"original","orig":2,"merge":{},"term":{"kind":"return"}}`), "block 1 lacks merge.kind"},
		{funcAnswer(`{"kind":"clone","merge":{"kind":"none"},"term":{"to":[0]}}`, `{}`), "block 0 lacks orig, term.kind"},
		{funcAnswer(`{"orig":1,"merge":{"kind":"none"},"term":{"kind":"return"}}`), "block 0 lacks kind"},
		{funcAnswer(`{"kind":"original","orig":null,"merge":{"kind":"none"},"term":{"kind":"return"}}`), "block 0 lacks orig"},
		{funcAnswer(`{"kind":"synthetic","merge":{"kind":"none"},"term":{"kind":"return"}}`), ""}, // a synthetic block's orig may be left out
		{funcAnswer(`{"kind":"original","orig":0,"merge":{"kind":"none"},"term":{"kind":"return"}}`), ""},
		{`{"id":1,"outcome":"refused","reason":"no","func":{"blocks":[{}]}}`, ""}, // not ok: the func is ignored
	} {
		a := (&Process{}).answer([]byte(c.line), 1, 4)
		out, s, detail := classifyAnswer(a)
		switch {
		case c.detail == "" && out == OutCrash:
			t.Errorf("%s: %s %q (%s), want no violation", c.line, out, s, detail)
		case c.detail != "" && (out != OutCrash || s != sig || detail != "protocol: func block without a required field: "+c.detail):
			t.Errorf("%s: %s %q (%s), want crash %q naming %q", c.line, out, s, detail, sig, c.detail)
		}
	}
	a := (&Process{}).answer([]byte(funcAnswer(`{"kind":"synthetic","merge":{"kind":"none"},"term":{"kind":"return"}}`)), 1, 4)
	if a.Func == nil || a.Func.Blocks[0].Orig != -1 {
		t.Errorf("a synthetic block without orig reads as %+v, want orig -1", a.Func)
	}
	for _, outcome := range []string{"refused", "error"} {
		line := `{"id":1,"outcome":"` + outcome + `","reason":"no","func":{"blocks":[` + returns("synthetic", -1) + `]}}`
		if a := (&Process{}).answer([]byte(line), 1, 4); a.Func != nil {
			t.Errorf("%s: the func of a %s answer is kept (for the report's pictures): %+v", line, outcome, a.Func)
		}
	}
}

// localAnswers are the lines this tree's structurizer answers in the func
// form for a few graphs: a chain, a diamond, a loop, a switch, and an
// irreducible graph of many blocks.
func localAnswers(t testing.TB) [][]byte { return localAnswersIn(t, false) }

// localAnswersIn are localAnswers' lines, in the module form when module
// is set.
func localAnswersIn(t testing.TB, module bool) [][]byte {
	var lines [][]byte
	h := proto.Local(module)
	for _, g := range []string{"{{1}, {}}", "{{1, 2}, {3}, {3}, {}}", "{{1}, {2, 3}, {1}, {}}", "{{1, 2, 3}, {4}, {4}, {4}, {}}", irreducibleChain(300)} {
		resp := h(proto.Request{V: proto.Version, ID: 1, Graph: g})
		if resp.Outcome != proto.OK || resp.Func == nil && resp.Module == nil {
			t.Fatalf("%.40s: %s %s", g, resp.Outcome, resp.Reason)
		}
		resp.ID = 1
		b, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b)
	}
	return lines
}

// irreducibleChain is a graph of n blocks: a chain whose every other block
// also jumps two ahead and back one, for a structured function of many
// blocks of every kind.
func irreducibleChain(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n - 1 {
		switch {
		case i+2 < n && i%2 == 0:
			fmt.Fprintf(&b, "{%d, %d}, ", i+1, i+2)
		case i > 0 && i%3 == 0:
			fmt.Fprintf(&b, "{%d, %d}, ", i+1, i-1)
		default:
			fmt.Fprintf(&b, "{%d}, ", i+1)
		}
	}
	b.WriteString("{}}")
	return b.String()
}

// TestDecodeResponseAsWritten: an answer whose blocks write every field
// reads exactly as encoding/json reads it into proto.Response.
func TestDecodeResponseAsWritten(t *testing.T) {
	for _, line := range localAnswers(t) {
		var want proto.Response
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatal(err)
		}
		got, v := decodeResponse(line)
		if v.broken() || !reflect.DeepEqual(got, want) {
			t.Errorf("%.80s: read as %+v (%s), want %+v", line, got, v, want)
		}
	}
}

// BenchmarkDecodeResponse reads this tree's answers as a campaign's
// process side does (decodeResponse), its scan for keys written twice
// alone (duplicateKey), and as plain encoding/json would; the module
// answers of the same graphs through decodeResponse and the scan.
func BenchmarkDecodeResponse(b *testing.B) {
	lines := localAnswers(b)
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	modules := localAnswersIn(b, true)
	moduleSize := 0
	for _, l := range modules {
		moduleSize += len(l)
	}
	b.Run("module-decodeResponse", func(b *testing.B) {
		b.SetBytes(int64(moduleSize))
		for b.Loop() {
			for _, l := range modules {
				if _, v := decodeResponse(l); v.broken() {
					b.Fatal(v)
				}
			}
		}
	})
	b.Run("module-duplicateKey", func(b *testing.B) {
		b.SetBytes(int64(moduleSize))
		for b.Loop() {
			for _, l := range modules {
				if _, _, _, dup := duplicateKey(l); dup {
					b.Fatal(string(l))
				}
			}
		}
	})
	b.Run("decodeResponse", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, l := range lines {
				if _, v := decodeResponse(l); v.broken() {
					b.Fatal(v)
				}
			}
		}
	})
	b.Run("duplicateKey", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, l := range lines {
				if _, _, _, dup := duplicateKey(l); dup {
					b.Fatal(string(l))
				}
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, l := range lines {
				var r proto.Response
				if err := json.Unmarshal(l, &r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// FuzzDecodeResponse: decodeResponse takes what encoding/json takes into
// a proto.Response, refuses what it refuses, and reads it the same, but
// for the orig a synthetic block leaves out (-1), the violations of
// blocks that leave out required fields, and the func of an answer that
// is not ok (ignored).
func FuzzDecodeResponse(f *testing.F) {
	for _, l := range localAnswers(f) {
		f.Add(l)
	}
	for _, l := range []string{funcAnswer(`{}`), funcAnswer(`null`), funcAnswer(`{"kind":null,"orig":null,"merge":null,"term":null}`),
		funcAnswer(`{"KIND":"clone","Orig":3,"merge":{"kind":"loop","merge":1},"term":{"kind":"branch","to":[1]},"kind":"synthetic"}`),
		funcAnswer(`{"kind":"original","orig":1e2,"merge":{"kind":"none"},"term":{"kind":"return"}}`),
		`{"id":1,"outcome":"error","func":{"blocks":[{"orig":true}]}}`, `{"id":1,"outcome":"ok","func":{}}`, `null`, `[]`,
		`{"id":1,"outcome":"ok","module":"AwIjBwADAQA="}`, `{"id":1,"outcome":"ok","module":"AwIj\/wAD\u0041QA="}`, `{"id":1,"outcome":"ok","module":"AwIj*"}`,
		`{"id":1,"outcome":"ok","OUTCOME":"refused","reason":"a\"b"}`, `{"id":1,"stats":{"clones":1,"clon\u0065s":2},"outcome":"error"}`} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var want proto.Response
		werr := json.Unmarshal(line, &want)
		got, v := decodeResponse(line)
		refused := v.rule == ruleNotJSON || v.rule == ruleNotResponse
		if (werr != nil) != refused {
			t.Fatalf("%q: encoding/json says %v, decodeResponse %v", line, werr, v)
		}
		if refused {
			return
		}
		if dup := keyWrittenTwice(line); dup != (v.rule == ruleDupKey) {
			t.Fatalf("%q: a key written twice %v, decodeResponse %v", line, dup, v)
		}
		if v.rule == ruleDupKey {
			return
		}
		if v.broken() && (v.rule != ruleFields || want.Outcome != proto.OK) {
			t.Fatalf("%q: %v", line, v)
		}
		if want.Outcome != proto.OK {
			want.Func = nil // the func of an answer that is not ok is ignored
		}
		for _, r := range []*proto.Response{&want, &got} {
			if r.Func != nil {
				for i := range r.Func.Blocks {
					if r.Func.Blocks[i].Kind == structurizer.Synthetic {
						r.Func.Blocks[i].Orig = 0
					}
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: read as %+v, encoding/json reads %+v", line, got, want)
		}
	})
}

// keyWrittenTwice says, from encoding/json's tokens, whether an object of
// line, valid JSON, has two keys equal but for case: the reference
// duplicateKey is held to.
func keyWrittenTwice(line []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	type open struct {
		object bool
		keys   []string
		key    bool // the next string is a key
	}
	var stack []*open
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *open
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{', '[':
				stack = append(stack, &open{object: tok == '{', key: tok == '{'})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].key = true
				}
			}
			continue
		case string:
			if top != nil && top.object && top.key {
				for _, k := range top.keys {
					if strings.EqualFold(k, tok) {
						return true
					}
				}
				top.keys = append(top.keys, tok)
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}

// TestDuplicateKey: duplicateKey finds a key written twice in any object
// of an answer, says where, and takes a key repeated in other objects,
// or inside strings, for none.
func TestDuplicateKey(t *testing.T) {
	many := func(n int, last string) string { // an object of n keys k0..k(n-1), then last
		var b strings.Builder
		b.WriteString(`{"id":1,"stats":{`)
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		return b.String() + last + `:0}}`
	}
	for _, c := range []struct {
		line, first, second, where string // first "": none
	}{
		{many(40, `"x"`), "", "", ""},
		{many(40, `"K7"`), "k7", "K7", "stats"},
		{many(40, `"k3"`), "k3", "k3", "stats"},
		{many(40, `"K39"`), "k39", "K39", "stats"},
		{many(manyKeys, `"k0"`), "k0", "k0", "stats"},
		{funcAnswer(returns("original", 0), returns("clone", 0)), "", "", ""},
		{`{"id":1,"outcome":"refused","reason":"\"outcome\": {\"x\"} [,\\","stats":{"reason":"x"}}`, "", "", ""},
		{`{"a":[{},{"a":1}],"b":{"a":{"a":[]}}}`, "", "", ""},
		{`{"a":[{}, "a"], "a":2}`, "a", "a", ""},
		{`{"a\"b":1,"a\"b":2}`, `a"b`, `a"b`, ""},
		{`{"id":1,"ID":2}`, "id", "ID", ""},
		{`{"x":{"y":[[{"k":1,"k":2}]]}}`, "k", "k", "x.y[0][0]"},
		{`{"s":{"stats":1,"\u017ftats":2}}`, "stats", "ſtats", "s"},
		{funcAnswer(returns("original", 0), `{"kind":"original","orig":1,"merge":{"kind":"loop","merge":1,"continue":1,"merge":2},"term":{"kind":"return"}}`), "merge", "merge", "func.blocks[1].merge"},
	} {
		first, second, where, found := duplicateKey([]byte(c.line))
		if found != (c.first != "") || first != c.first || second != c.second || where != c.where {
			t.Errorf("%s: %q, %q in %q (%v), want %q, %q in %q", c.line, first, second, where, found, c.first, c.second, c.where)
		}
		if found != keyWrittenTwice([]byte(c.line)) {
			t.Errorf("%s: found %v, the tokens say otherwise", c.line, found)
		}
	}
}

// TestExcerptCutsBetweenCharacters: a long line's excerpt ends at a
// character's start, never inside a multi-byte one.
func TestExcerptCutsBetweenCharacters(t *testing.T) {
	line := []byte(strings.Repeat("a", 39) + "é and more")
	if got, want := excerpt(line), `"`+strings.Repeat("a", 39)+`"...`; got != want {
		t.Errorf("excerpt = %s, want %s", got, want)
	}
	if got := excerpt([]byte("short\n")); got != `"short"` {
		t.Errorf("excerpt of a short line = %s", got)
	}
}

// TestNotAnObjectNamesNoGoType: an answer line that is JSON but no object
// is described in the protocol's words, not by the Go type read into.
func TestNotAnObjectNamesNoGoType(t *testing.T) {
	for _, line := range []string{"2", `"ok"`, "[1, 2]"} {
		_, v := decodeResponse([]byte(line))
		if v.rule != ruleNotResponse || strings.Contains(v.detail, "Go") || strings.Contains(v.detail, "wire") || !strings.Contains(v.detail, "not an object") {
			t.Errorf("%s: violation %q", line, v)
		}
	}
}

// TestDecodeResponseModule: a module answer reads as encoding/json reads
// it into proto.Response, whether its base64 is written plainly or with
// escapes (which encoding/json unquotes first), and a module that is not
// base64, or not a string, is refused in the protocol's words.
func TestDecodeResponseModule(t *testing.T) {
	mod := make([]byte, 301)
	for i := range mod {
		mod[i] = byte(i * 7)
	}
	plain := base64.StdEncoding.EncodeToString(mod)
	escaped := strings.ReplaceAll(strings.ReplaceAll(plain, "/", `\/`), "A", `\u0041`)
	for _, m := range []string{`"` + plain + `"`, `"` + escaped + `"`, `""`, `null`, `"AAE="`, `"AA\r\nE="`} {
		line := []byte(`{"id":1,"outcome":"ok","module":` + m + `}`)
		var want proto.Response
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		got, v := decodeResponse(line)
		if v.broken() || !reflect.DeepEqual(got, want) {
			t.Errorf("%.80s: read as %+v (%s), want %+v", line, got, v, want)
		}
		if (got.Module == nil) != (m == "null") {
			t.Errorf("%s: module present %v", m, got.Module != nil)
		}
	}
	for m, detail := range map[string]string{`"AA*E="`: "illegal base64 data at input byte 2", `5`: "number in field module", `"AA\u002aE="`: "illegal base64 data at input byte 2"} {
		line := []byte(`{"id":1,"outcome":"ok","module":` + m + `}`)
		var want proto.Response
		if json.Unmarshal(line, &want) == nil {
			t.Fatalf("%s: encoding/json takes it", line)
		}
		if _, v := decodeResponse(line); v.rule != ruleNotResponse || !strings.Contains(v.detail, detail) {
			t.Errorf("%s: violation %q, want %s naming %q", m, v, ruleNotResponse, detail)
		}
	}
}
