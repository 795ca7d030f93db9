// protocol_example_test.go: the exchange PROTOCOL.md opens with is true: a
// server that answers the documented request with the documented response
// (its id echoed, the v2 hello answered as a version it does not speak)
// passes every check on the documented graph.
package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// protocolExample is the request and response lines of PROTOCOL.md's
// "A whole exchange".
func protocolExample(t *testing.T) (request, response string) {
	t.Helper()
	doc, err := os.ReadFile("../../fuzz/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## A whole exchange\n")
	if !ok {
		t.Fatal(`PROTOCOL.md has no section "A whole exchange"`)
	}
	_, block, _ := strings.Cut(section, "```json\n")
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) != 2 {
		t.Fatalf("the exchange has %d lines, want a request and a response:\n%s", len(lines), block)
	}
	return lines[0], lines[1]
}

func TestProtocolExampleExchange(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the example's server is not run")
	}
	request, response := protocolExample(t)
	var req proto.Request
	if err := json.Unmarshal([]byte(request), &req); err != nil || req.V != 1 || req.Graph == "" {
		t.Fatalf("request %s: %v, want a v1 request with a graph", request, err)
	}
	dir := t.TempDir()
	server := filepath.Join(dir, "server.py")
	writeFile(t, server, `import json, sys
answer = json.loads(sys.argv[1])
for line in sys.stdin:
    r = json.loads(line)
    if r.get("v") != 1:
        print(json.dumps({"id": r.get("id", 0), "outcome": "error", "reason": "request: version %s" % r.get("v")}), flush=True)
        continue
    answer["id"] = r["id"]
    print(json.dumps(answer), flush=True)
`)
	g := filepath.Join(dir, "g.cfg")
	writeFile(t, g, req.Graph+"\n")
	spec := shellQuote(py) + " " + shellQuote(server) + " " + shellQuote(response)
	code, stdout, stderr := runCmd([]string{"check", "--structurizer", spec, g}, "")
	if code != exitOK || !strings.Contains(stdout, "ok "+g) {
		t.Errorf("check of the documented answer: exit %d, want 0 and the graph ok\n%s%s", code, stdout, stderr)
	}
}
