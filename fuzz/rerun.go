// rerun.go re-runs the graphs the state keeps for each signature
// (StoredSignature.Graphs) and each signature's minimized graph at the
// start of a night, on the current side with the signature's strategy:
// what tells a fixed signature (its graphs re-run, none shows it) from one
// merely not met tonight, and a known signature from another defect that
// shows the same signature (its minimized graph passes while tonight's
// graphs fail: classify.go). The plan lists every kept graph in the
// store's order, then every minimized graph; re-run j belongs to shard j
// mod N, so the shards of a night re-run each graph once and their re-runs
// union into the whole night's. The re-runs are written to
// OUT/rerun.jsonl.

package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// RerunFile holds a campaign's re-runs, one JSON object a line.
const RerunFile = "rerun.jsonl"

// Rerun is one kept graph, or the minimized graph, of a stored signature,
// re-run tonight.
type Rerun struct {
	J         int    `json:"j"` // position in the plan (rerunPlan)
	Signature string `json:"signature"`
	Strategy  string `json:"strategy,omitempty"`
	// Minimized says Graph is the signature's minimized graph
	// (StoredSignature.Minimized), not one of its kept graphs.
	Minimized bool       `json:"minimized,omitempty"`
	Graph     KeptGraph  `json:"graph"`
	Result    SideResult `json:"result"`
}

// rerunPlan lists the kept graphs in the store's order, then the
// minimized graphs in the store's order.
func rerunPlan(st *State) []Rerun {
	var out []Rerun
	for _, e := range st.Store {
		for _, g := range e.Graphs {
			out = append(out, Rerun{J: len(out), Signature: e.Signature, Strategy: e.Strategy, Graph: g})
		}
	}
	for _, e := range st.Store {
		if e.Minimized != "" {
			out = append(out, Rerun{J: len(out), Signature: e.Signature, Strategy: e.Strategy, Minimized: true,
				Graph: KeptGraph{Graph: e.Minimized, Weights: e.MinimizedWeights}})
		}
	}
	return out
}

// runReruns re-runs this shard's kept graphs on one worker.
func (c *Config) runReruns(st *State) ([]Rerun, error) {
	plan := rerunPlan(st)
	var mine []Rerun
	for _, r := range plan {
		if c.Shard.has(r.J) {
			mine = append(mine, r)
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	w, err := newWorker(c)
	if err != nil {
		return nil, fmt.Errorf("re-run of kept graphs: %w", err)
	}
	defer w.close()
	for i := range mine {
		mine[i].Result = w.rerun(&mine[i])
	}
	return mine, nil
}

// rerun judges one kept or minimized graph on the current side.
func (w *worker) rerun(r *Rerun) SideResult {
	g, err := graphOfKept(r.Graph)
	if err != nil {
		return SideResult{Outcome: OutError, Detail: fmt.Sprintf("kept graph %s: %v", r.Graph.Graph, err)}
	}
	opt := w.curOpt
	if r.Strategy != "" {
		opt = proto.Options{Strategy: r.Strategy, Inject: w.curOpt.Inject}
	}
	res, _ := w.judge(w.cur, g, opt, nil)
	w.escalateIfLeaked()
	res.Func, res.Module = nil, nil
	return res
}

// WriteReruns writes OUT/rerun.jsonl.
func WriteReruns(dir string, rs []Rerun) error {
	var b bytes.Buffer
	for _, r := range rs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(append(line, '\n'))
	}
	return writeFile(filepath.Join(dir, RerunFile), b.Bytes())
}

// ReadReruns reads the re-runs of the directories, the union by position
// (a kept graph re-run by two directories counts once), sorted. Every line
// must be a re-run of st's plan (rerunPlan): its position, signature,
// strategy and graph those of the kept graph at that position, its outcome
// a known one; anything else is an error naming the file and line.
func ReadReruns(st *State, dirs ...string) ([]Rerun, error) {
	plan := rerunPlan(st)
	byJ := map[int]Rerun{}
	for _, dir := range dirs {
		path := filepath.Join(dir, RerunFile)
		f, err := openRegular(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		err = readRerunFile(path, f, plan, byJ)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	out := make([]Rerun, 0, len(byJ))
	for _, r := range byJ {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Rerun) int { return a.J - b.J })
	return out, nil
}

// maxRerunLine bounds a line of rerun.jsonl: a re-run holds one kept
// graph and its side's result, without function or module.
const maxRerunLine = 1 << 24

// readRerunFile reads one rerun.jsonl (path names it in the errors) into
// byJ, checking every line against plan.
func readRerunFile(path string, r io.Reader, plan []Rerun, byJ map[int]Rerun) error {
	lr := newLineReader(path, r, maxRerunLine, "a rerun.jsonl line (one kept graph's re-run)")
	for {
		line, err := lr.next()
		if err != nil && err != io.EOF {
			return err
		}
		if line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")); len(line) > 0 || err == nil {
			if lerr := readRerunLine(line, plan, byJ); lerr != nil {
				return fmt.Errorf("%s:%d: %v", path, lr.n, lerr)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// readRerunLine reads one line of rerun.jsonl into byJ, checked against
// plan.
func readRerunLine(line []byte, plan []Rerun, byJ map[int]Rerun) error {
	var r Rerun
	if err := json.Unmarshal(line, &r); err != nil {
		return jsonError(line, err)
	}
	if err := checkRerun(&r, plan); err != nil {
		return err
	}
	if _, ok := byJ[r.J]; !ok {
		byJ[r.J] = r
	}
	return nil
}

// checkRerun says how r is not a re-run of plan's kept graph r.J.
func checkRerun(r *Rerun, plan []Rerun) error {
	if r.J < 0 || r.J >= len(plan) {
		return fmt.Errorf("re-run %d, but the state's re-runs are %d (%s; was the shard run on another state?)", r.J, len(plan), rerunPlanSize(plan))
	}
	p := &plan[r.J]
	switch {
	case r.Minimized != p.Minimized:
		return fmt.Errorf("re-run %d is of %s, not of %s", r.J, rerunWhat(p), rerunWhat(r))
	case r.Signature != p.Signature || r.Strategy != p.Strategy:
		return fmt.Errorf("kept graph %d is of signature %s (strategy %q), not of %s (strategy %q)", r.J, TriageSignature(p.Signature), p.Strategy, TriageSignature(r.Signature), r.Strategy)
	case r.Graph.Graph != p.Graph.Graph || !slices.Equal(r.Graph.Weights, p.Graph.Weights):
		return fmt.Errorf("kept graph %d is %s, not %s", r.J, p.Graph.Graph, r.Graph.Graph)
	case !slices.Contains(Outcomes, r.Result.Outcome):
		return fmt.Errorf("kept graph %d: unknown outcome %q", r.J, r.Result.Outcome)
	}
	return nil
}

// rerunWhat names what a re-run re-runs: a kept or the minimized graph.
func rerunWhat(r *Rerun) string {
	if r.Minimized {
		return "a minimized graph"
	}
	return "a kept graph"
}

// rerunPlanSize says what a plan re-runs: its kept and minimized graphs.
func rerunPlanSize(plan []Rerun) string {
	m := 0
	for _, r := range plan {
		if r.Minimized {
			m++
		}
	}
	return Plural(len(plan)-m, "kept graph") + " and " + Plural(m, "minimized graph")
}
