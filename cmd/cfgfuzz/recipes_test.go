// recipes_test.go runs the CI recipes the repository ships, on this
// machine, so that a recipe that no longer works fails a test instead of a
// user's night:
//
//   - .github/workflows/nightly-fuzz.yml: two nights of its jobs in
//     dependency order (plan, every shard of the matrix, merge; the second
//     night restoring the state the first saved and comparing against its
//     last good revision), each `run:` step in bash
//     as GitHub's runner runs it (bash -e -o pipefail), with the `${{ }}`
//     expressions the workflow uses evaluated (actionsEnv), `if:`
//     conditions honoured and the actions it uses stood in for by what
//     they do on a runner: checkout is a clone of this repository's
//     committed HEAD (full history), cache restore and save copy a
//     directory to and from a local cache, artifacts are copied out and
//     back, setup-go is the Go running the test. The graph budget is
//     small (inputs.graphs); everything else is the workflow's.
//   - fuzz/examples/k8s-indexed-job.yaml and k8s-merge-job.yaml: two
//     nights of each container's shell script with its environment (the
//     second night's NIGHT and CAMPAIGN_SEED as the driver in the header
//     sets them), for every completion index, then the merge job;
//     /results is a temporary directory, the budget small, and one index
//     runs twice a night to take the --resume branch.
//
// A step that installs Debian packages (apt-get install) is not run: the
// test checks with dpkg that each package it names is installed, which
// catches a name that does not exist but not a package the steps need and
// the step leaves out (the machine running the tests has every package the
// README's test command installs).
package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.yaml.in/yaml/v3"
)

// workflow is the part of a GitHub Actions workflow the recipes use.
type workflow struct {
	Concurrency struct {
		Group            string `yaml:"group"`
		CancelInProgress bool   `yaml:"cancel-in-progress"`
	} `yaml:"concurrency"`
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Needs    any               `yaml:"needs"`
		Outputs  map[string]string `yaml:"outputs"`
		Strategy struct {
			Matrix map[string][]any `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []step `yaml:"steps"`
	} `yaml:"jobs"`
}

type step struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	If   string            `yaml:"if"`
	With map[string]string `yaml:"with"`
}

// actionsEnv is the state of one job's run: the values its expressions
// read and the directories its actions stand in for.
type actionsEnv struct {
	t         *testing.T
	vals      map[string]string // inputs.graphs, matrix.shard, needs.plan.outputs.night, steps.ID.outputs.K, vars.X, github.run_id
	env       []string          // the workflow's env, evaluated
	work      string            // the job's workspace
	origin    string            // the repository a checkout clones
	cache     string            // the Actions cache, one folder per key
	keys      *[]string         // the cache's keys, oldest first
	artifacts string            // uploaded artifacts, one folder each
	log       *strings.Builder  // the output of the run steps
	runner    string            // the runner's own files (step outputs, the summary), outside the workspace
	// builds holds the binary each `go build` step made, by its script
	// and commit: the same step of the same commit in another job takes
	// a copy instead of linking cfgfuzz again (nil: every step builds).
	builds map[string]string
}

func (a *actionsEnv) summary() string { return filepath.Join(a.runner, "step-summary") }

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// eval evaluates an expression of the forms the workflow uses: a name, a
// quoted string or a number, `a || b` (the first non-empty), `a != 'v'`
// and `a == 'v'` ("true" or "false").
func (a *actionsEnv) eval(expr string) string {
	expr = strings.TrimSpace(expr)
	for _, op := range []string{"!=", "=="} {
		if l, r, ok := strings.Cut(expr, op); ok {
			eq := a.eval(l) == a.eval(r)
			return strconv.FormatBool(eq == (op == "=="))
		}
	}
	if strings.Contains(expr, "||") {
		for _, alt := range strings.Split(expr, "||") {
			if v := a.eval(alt); v != "" {
				return v
			}
		}
		return ""
	}
	if len(expr) >= 2 && expr[0] == '\'' && expr[len(expr)-1] == '\'' {
		return expr[1 : len(expr)-1]
	}
	if _, err := strconv.Atoi(expr); err == nil {
		return expr
	}
	v, ok := a.vals[expr]
	if !ok && !strings.HasPrefix(expr, "vars.") && !strings.HasPrefix(expr, "inputs.") && !strings.HasPrefix(expr, "steps.") {
		a.t.Fatalf("workflow expression %q: this test does not know it", expr)
	}
	return v
}

func (a *actionsEnv) expand(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string { return a.eval(exprRE.FindStringSubmatch(m)[1]) })
}

// runJob runs a job's steps in order and returns the exit status of the
// job (0 when every step that ran succeeded) and its step outputs.
func (a *actionsEnv) runJob(name string, steps []step) int {
	for i, s := range steps {
		if s.If != "" && a.eval(s.If) != "true" {
			a.t.Logf("%s step %d (%s%s): skipped, if: %s", name, i, s.Uses, s.Name, s.If)
			continue
		}
		if code := a.runStep(name, i, s); code != 0 {
			return code
		}
	}
	return 0
}

var aptRE = regexp.MustCompile(`apt-get install -y ([a-z0-9.+\- ]+)`)

func (a *actionsEnv) runStep(job string, i int, s step) int {
	t := a.t
	with := map[string]string{}
	for k, v := range s.With {
		with[k] = a.expand(v)
	}
	action, _, _ := strings.Cut(s.Uses, "@")
	switch action {
	case "":
	case "actions/checkout":
		if out, err := exec.Command("git", "clone", "--quiet", a.origin, a.work).CombinedOutput(); err != nil {
			t.Fatalf("%s: checkout: %v\n%s", job, err, out)
		}
		return 0
	case "actions/setup-go":
		return 0
	case "actions/cache/restore":
		key := a.cacheLookup(with["key"], with["restore-keys"])
		if key == "" {
			t.Logf("%s step %d: cache not found for %q, %q", job, i, with["key"], with["restore-keys"])
			if with["fail-on-cache-miss"] == "true" {
				return 1
			}
			return 0
		}
		if s.ID != "" {
			a.vals["steps."+s.ID+".outputs.cache-matched-key"] = key
			a.vals["steps."+s.ID+".outputs.cache-hit"] = strconv.FormatBool(key == with["key"])
		}
		if with["lookup-only"] != "true" {
			copyTree(t, filepath.Join(a.cache, key, with["path"]), filepath.Join(a.work, with["path"]))
		}
		t.Logf("%s step %d: cache %s restored (lookup only: %q)", job, i, key, with["lookup-only"])
		return 0
	case "actions/cache/save":
		if slices.Contains(*a.keys, with["key"]) { // a cache entry is never replaced
			t.Errorf("%s step %d: cache key %s is taken: GitHub keeps the first entry and drops this save", job, i, with["key"])
			return 0
		}
		copyTree(t, filepath.Join(a.work, with["path"]), filepath.Join(a.cache, with["key"], with["path"]))
		*a.keys = append(*a.keys, with["key"])
		return 0
	case "actions/upload-artifact":
		copyTree(t, filepath.Join(a.work, with["path"]), filepath.Join(a.artifacts, with["name"]))
		return 0
	case "actions/download-artifact":
		ents, _ := os.ReadDir(a.artifacts)
		for _, e := range ents {
			if ok, _ := filepath.Match(with["pattern"], e.Name()); ok {
				copyTree(t, filepath.Join(a.artifacts, e.Name()), filepath.Join(a.work, e.Name()))
			}
		}
		return 0
	default:
		t.Fatalf("%s step %d: action %s: this test has no stand-in for it", job, i, s.Uses)
	}
	script := a.expand(s.Run)
	if m := aptRE.FindStringSubmatch(script); m != nil {
		for _, pkg := range strings.Fields(m[1]) {
			if out, err := exec.Command("dpkg", "-s", pkg).CombinedOutput(); err != nil || !strings.Contains(string(out), "Status: install ok installed") {
				t.Errorf("%s step %d installs %s, which this machine does not have installed: %v", job, i, pkg, err)
			}
		}
		return 0
	}
	if a.builtBefore(job, i, script) {
		return 0
	}
	output := filepath.Join(a.runner, fmt.Sprintf("output-%s-%d", job, i))
	cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script)
	cmd.Dir = a.work
	cmd.Env = append(append(os.Environ(), a.env...), "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+a.summary())
	out, err := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	if a.log != nil {
		a.log.Write(out)
	}
	t.Logf("%s step %d (%s): exit %d\n%s", job, i, firstLine(strings.TrimSpace(script)), code, lastBytes(string(out), 1500))
	if err != nil && code < 0 {
		t.Fatalf("%s step %d: %v", job, i, err)
	}
	if code == 0 {
		a.keepBuild(script)
	}
	if b, err := os.ReadFile(output); err == nil && s.ID != "" {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				a.vals["steps."+s.ID+".outputs."+k] = v
			}
		}
	}
	return code
}

// buildOut is the file a `go build -o FILE` step writes, "" for any
// other step.
func buildOut(script string) string {
	f := strings.Fields(script)
	if len(f) < 2 || f[0] != "go" || f[1] != "build" {
		return ""
	}
	if i := slices.Index(f, "-o"); i >= 0 && i+1 < len(f) {
		return f[i+1]
	}
	return ""
}

// buildKey is a build step's key in builds: its script and the commit the
// job checked out; "" when it is no build step or has no commit.
func (a *actionsEnv) buildKey(script string) string {
	if a.builds == nil || buildOut(script) == "" {
		return ""
	}
	head, err := exec.Command("git", "-C", a.work, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return script + "@" + strings.TrimSpace(string(head))
}

// builtBefore copies the binary an earlier job's identical build step made
// of the same commit into this job's workspace, reporting whether it did.
func (a *actionsEnv) builtBefore(job string, i int, script string) bool {
	kept, ok := a.builds[a.buildKey(script)]
	if !ok {
		return false
	}
	b, err := os.ReadFile(kept)
	if err == nil {
		err = os.WriteFile(filepath.Join(a.work, buildOut(script)), b, 0o755)
	}
	if err != nil {
		a.t.Fatalf("%s step %d: copying the earlier build %s: %v", job, i, kept, err)
	}
	a.t.Logf("%s step %d: the same build of the same commit as an earlier job's: copied", job, i)
	return true
}

// keepBuild keeps the binary a build step made for later jobs.
func (a *actionsEnv) keepBuild(script string) {
	key := a.buildKey(script)
	if key == "" {
		return
	}
	kept := filepath.Join(a.runner, "kept-build")
	b, err := os.ReadFile(filepath.Join(a.work, buildOut(script)))
	if err == nil {
		err = os.WriteFile(kept, b, 0o755)
	}
	if err == nil {
		a.builds[key] = kept
	}
}

// cacheLookup is the key actions/cache restores for key and restoreKeys
// (one prefix a line): key itself when saved, else the newest key with the
// first prefix that has one; "" none.
func (a *actionsEnv) cacheLookup(key, restoreKeys string) string {
	if slices.Contains(*a.keys, key) {
		return key
	}
	for _, prefix := range strings.Fields(restoreKeys) {
		for i := len(*a.keys) - 1; i >= 0; i-- {
			if strings.HasPrefix((*a.keys)[i], prefix) {
				return (*a.keys)[i]
			}
		}
	}
	return ""
}

func lastBytes(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// copyTree copies the tree src to dst (nothing when src does not exist).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if _, err := os.Stat(src); err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp %s %s: %v\n%s", src, dst, err, out)
	}
}

// recipeOrigin is a clone of this repository's committed HEAD for the
// recipes to check out, and whether its HEAD has a parent.
func recipeOrigin(t *testing.T) (dir string, parent bool) {
	root := repoRoot(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Run(); err != nil {
		t.Skip("not in a git checkout")
	}
	dir = filepath.Join(t.TempDir(), "origin")
	if out, err := exec.Command("git", "clone", "--quiet", root, dir).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	parent = exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", "HEAD~1").Run() == nil
	return dir, parent
}

func TestNightlyWorkflowRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two revisions and runs eight shards and a merge")
	}
	t.Parallel() // its builds and campaigns keep the cores busy while the tests that mostly wait wait (parallelTests)
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, ".github/workflows/nightly-fuzz.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("nightly-fuzz.yml: %v", err)
	}
	origin, parent := recipeOrigin(t)
	tmp := t.TempDir()
	vals := map[string]string{"inputs.graphs": "160", "github.run_id": "1", "github.run_attempt": "1"}
	if !parent {
		// A clone without history has no HEAD~1: take the BASELINE
		// variable's path instead, as a repository would set it.
		vals["vars.CFGFUZZ_BASELINE"] = "HEAD"
		t.Log("HEAD has no parent here: CFGFUZZ_BASELINE=HEAD")
	}
	if wf.Concurrency.Group == "" || wf.Concurrency.CancelInProgress {
		t.Errorf("concurrency %+v: want one group that never cancels the run in progress: two nights at once each save a state, and the older update is lost", wf.Concurrency)
	}
	base := &actionsEnv{t: t, vals: vals, origin: origin, cache: filepath.Join(tmp, "cache"), keys: &[]string{}, artifacts: filepath.Join(tmp, "artifacts"), builds: map[string]string{}}
	for k, v := range wf.Env {
		base.env = append(base.env, k+"="+base.expand(v))
	}
	shards, err := strconv.Atoi(wf.Env["SHARDS"])
	if err != nil {
		t.Fatalf("env SHARDS %q: %v", wf.Env["SHARDS"], err)
	}
	if m := wf.Jobs["shard"].Strategy.Matrix["shard"]; len(m) != shards {
		t.Fatalf("the shard matrix has %d entries, SHARDS says %d", len(m), shards)
	}
	job := func(night int, name string, matrix map[string]string) (*actionsEnv, int) {
		a := *base
		a.vals = maps.Clone(base.vals)
		maps.Copy(a.vals, matrix)
		a.log = &strings.Builder{}
		a.work = filepath.Join(tmp, fmt.Sprintf("night%d-%s%s", night, name, matrix["matrix.shard"])) // checkout clones into it
		a.runner = a.work + "-runner"
		for _, d := range []string{a.work, a.runner} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		needs := fmt.Sprint(wf.Jobs[name].Needs)
		for _, s := range wf.Jobs[name].Steps {
			for _, m := range regexp.MustCompile(`needs\.([-\w]+)\.`).FindAllStringSubmatch(s.Run+fmt.Sprint(s.With), -1) {
				if !regexp.MustCompile(`\b` + m[1] + `\b`).MatchString(needs) {
					t.Errorf("job %s reads needs.%s but needs only %s: GitHub gives it nothing", name, m[1], needs)
				}
			}
		}
		code := a.runJob(name, wf.Jobs[name].Steps)
		for k, v := range wf.Jobs[name].Outputs {
			base.vals["needs."+name+".outputs."+k] = a.expand(v)
		}
		return &a, code
	}
	// Two nights: the first has no good night in its state (the baseline
	// is HEAD~1), and records one; the second compares against it. Before
	// the second the repository drops fuzz/triage.txt, and halfway through
	// its shards another run saves a state of its own (a run the
	// concurrency group would have queued): the rest of the night still
	// reads the state its plan picked.
	head, err := exec.Command("git", "-C", origin, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	wantBaseline := []string{"records no good night yet, so the baseline is HEAD~1", strings.TrimSpace(string(head)) + ", the last good night"}
	if !parent {
		wantBaseline = []string{"", ""} // CFGFUZZ_BASELINE names it
	}
	_, triaged := os.Stat(filepath.Join(origin, "fuzz/triage.txt"))
	for night := range 2 {
		base.vals["github.run_id"] = fmt.Sprint(night + 1)
		if night == 1 && triaged == nil {
			drop := exec.Command("sh", "-c", "git rm -q fuzz/triage.txt && git -c user.name=t -c user.email=t@example.com commit -qm 'no triage file'")
			drop.Dir = origin
			if out, err := drop.CombinedOutput(); err != nil {
				t.Fatalf("dropping fuzz/triage.txt: %v\n%s", err, out)
			}
		}
		os.RemoveAll(base.artifacts) // artifacts belong to one workflow run
		if _, code := job(night, "plan", nil); code != 0 {
			t.Fatalf("plan: exit %d", code)
		}
		if base.vals["needs.plan.outputs.night"] == "" {
			t.Fatal("plan gave no night")
		}
		for _, s := range wf.Jobs["shard"].Strategy.Matrix["shard"] {
			a, code := job(night, "shard", map[string]string{"matrix.shard": fmt.Sprint(s)})
			if code != 0 {
				t.Fatalf("night %d shard %v: exit %d", night, s, code)
			}
			if !strings.Contains(a.log.String(), wantBaseline[night]) {
				t.Errorf("night %d shard %v: the log does not say %q", night, s, wantBaseline[night])
			}
			if night == 1 && fmt.Sprint(s) == "3" {
				other := filepath.Join(tmp, "other-run", "cfgfuzz-state")
				os.MkdirAll(other, 0o755)
				os.WriteFile(filepath.Join(other, "triage.txt"), []byte("# another run's state\n"), 0o644)
				copyTree(t, other, filepath.Join(base.cache, "cfgfuzz-state-99", "cfgfuzz-state"))
				*base.keys = append(*base.keys, "cfgfuzz-state-99")
			}
		}
		merge, code := job(night, "merge", nil)
		if code != 0 {
			t.Errorf("night %d merge: exit %d (merge status %q)", night, code, merge.vals["steps.merge.outputs.status"])
		}
		for _, f := range []string{filepath.Join(merge.work, "report/report.json"), filepath.Join(merge.work, "report/report.md"), merge.summary()} {
			if st, err := os.Stat(f); err != nil || st.Size() == 0 {
				t.Errorf("night %d merge job: %s missing or empty (%v)", night, f, err)
			}
		}
		saved := filepath.Join(base.cache, savedKey(t, base, wf.Jobs["merge"].Steps), "cfgfuzz-state")
		state, err := os.ReadFile(filepath.Join(saved, "findings.json"))
		if err != nil {
			t.Fatalf("night %d: the state was not saved to the cache: %v", night, err)
		}
		if _, err := os.Stat(filepath.Join(saved, "triage.txt")); (err == nil) != (night == 0 && triaged == nil) {
			t.Errorf("night %d: the saved state's triage.txt (%v) is not the repository's fuzz/triage.txt (present on night 0 only)", night, err)
		}
		if parent && !strings.Contains(string(state), `"last_good"`) {
			t.Errorf("night %d: the saved state records no good night:\n%s", night, lastBytes(string(state), 500))
		}
	}
	checkMergeRerun(t, base, &wf, job)
}

// checkMergeRerun runs the last night's merge job again, as "Re-run
// failed jobs" does after a night with new signatures: the same run id,
// the next attempt. Its save must not find its key taken (GitHub would
// drop it), and the next night's plan must find what it saved.
func checkMergeRerun(t *testing.T, base *actionsEnv, wf *workflow, job func(night int, name string, matrix map[string]string) (*actionsEnv, int)) {
	t.Helper()
	base.vals["github.run_attempt"] = "2"
	if _, code := job(2, "merge", nil); code != 0 {
		t.Errorf("the merge job run again: exit %d", code)
	}
	key := savedKey(t, base, wf.Jobs["merge"].Steps)
	if _, err := os.Stat(filepath.Join(base.cache, key, "cfgfuzz-state", "findings.json")); err != nil {
		t.Errorf("the merge job run again saved no state under %s: %v", key, err)
	}
	if got := base.cacheLookup("", "cfgfuzz-state-"); got != key {
		t.Errorf("after the re-run the newest state is %q, want the re-run's %q", got, key)
	}
}

// savedKey is the cache key the job's actions/cache/save step saves
// under, evaluated in a.
func savedKey(t *testing.T, a *actionsEnv, steps []step) string {
	t.Helper()
	for _, s := range steps {
		if strings.HasPrefix(s.Uses, "actions/cache/save@") {
			return a.expand(s.With["key"])
		}
	}
	t.Fatal("the job has no actions/cache/save step")
	return ""
}

// k8sJob is the part of a Kubernetes Job the examples use.
type k8sJob struct {
	Spec struct {
		Completions int `yaml:"completions"`
		Template    struct {
			Spec struct {
				Containers []struct {
					Command []string `yaml:"command"`
					Args    []string `yaml:"args"`
					Env     []struct {
						Name  string `yaml:"name"`
						Value string `yaml:"value"`
					} `yaml:"env"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// runK8sJob runs the container script of the Job in file for completion
// index i, /results being results and the graph budget graphs, with
// cfgfuzz (bin's folder) on the PATH and env (NAME=VALUE) over the Job's
// own; it returns the exit status and the output.
func runK8sJob(t *testing.T, file, results, bin string, i, graphs int, env ...string) (int, string) {
	t.Helper()
	cmd := k8sCommand(t, file, results, bin, i, graphs, env...)
	out, _ := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	t.Logf("%s index %d: exit %d\n%s", filepath.Base(file), i, code, lastBytes(string(out), 800))
	return code, string(out)
}

// k8sCommand is the container script of the Job in file as a command, as
// runK8sJob runs it.
func k8sCommand(t *testing.T, file, results, bin string, i, graphs int, env ...string) *exec.Cmd {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var j k8sJob
	if err := yaml.Unmarshal(b, &j); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	cs := j.Spec.Template.Spec.Containers
	if len(cs) != 1 || len(cs[0].Command) == 0 || len(cs[0].Args) != 1 {
		t.Fatalf("%s: want one container running one shell script, got %+v", file, cs)
	}
	script := strings.ReplaceAll(cs[0].Args[0], "/results", results)
	script = regexp.MustCompile(`--graphs [0-9]+`).ReplaceAllString(script, "--graphs "+strconv.Itoa(graphs))
	cmd := exec.Command(cs[0].Command[0], append(cs[0].Command[1:], script)...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
	for _, e := range cs[0].Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	cmd.Env = append(cmd.Env, env...) // the last of a name wins
	return cmd
}

// TestKubernetesShardStopsGracefully: the shard Job's shell, the pod's
// PID 1 (which ignores SIGTERM), hands a SIGTERM to cfgfuzz: the campaign
// stops through its teardown (the report says where to resume) and the
// script exits with its status, 143.
func TestKubernetesShardStopsGracefully(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a campaign")
	}
	bin := cfgfuzzBinary(t)
	results := t.TempDir()
	cmd := k8sCommand(t, filepath.Join(repoRoot(t), "fuzz/examples/k8s-indexed-job.yaml"), results, bin, 3, 1000000, "NIGHT=2026-11-29")
	dir := filepath.Join(results, "2026-11-29", "shard-3")
	code, out := signalled(t, cmd, dir, syscall.SIGTERM)
	t.Logf("exit %d\n%s", code, lastBytes(out, 800))
	if code != 143 {
		t.Errorf("exit %d, want 143 (cfgfuzz's status after SIGTERM)", code)
	}
	if in := readReportJSON(t, dir).Incomplete; in == nil || in.Reason != "interrupted (SIGTERM)" {
		t.Errorf("report.json incomplete = %+v, want interrupted (SIGTERM)", in)
	}
	if left := processesRunning(bin); len(left) > 0 {
		t.Errorf("processes of %s left: %v", bin, left)
	}
}

func TestKubernetesExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a sharded campaign")
	}
	root := repoRoot(t)
	bin := cfgfuzzBinary(t)
	results := t.TempDir()
	shards := filepath.Join(root, "fuzz/examples/k8s-indexed-job.yaml")
	b, _ := os.ReadFile(shards)
	var j k8sJob
	if err := yaml.Unmarshal(b, &j); err != nil || j.Spec.Completions < 1 {
		t.Fatalf("%s: completions %d, %v", shards, j.Spec.Completions, err)
	}
	n := j.Spec.Completions
	merge := filepath.Join(root, "fuzz/examples/k8s-merge-job.yaml")
	// Two nights, as the driver in k8s-indexed-job.yaml's header sets
	// them: the second runs on the volume the first left.
	var states []string // the state's findings.json after each night
	for _, night := range []string{"2026-11-29", "2026-11-30"} {
		env := []string{"NIGHT=" + night, "CAMPAIGN_SEED=" + strings.ReplaceAll(night, "-", "")}
		for i := range n {
			if code, _ := runK8sJob(t, shards, results, bin, i, 20*n, env...); code != 0 {
				t.Fatalf("night %s shard %d: exit %d", night, i, code)
			}
		}
		// A pod restarted after it finished takes the --resume branch.
		if code, out := runK8sJob(t, shards, results, bin, 0, 20*n, env...); code != 0 || !strings.Contains(out, "this run 0 ") {
			t.Fatalf("night %s shard 0 again: exit %d, want 0 and nothing run again (--resume of a finished shard)", night, code)
		}
		if code, _ := runK8sJob(t, merge, results, bin, 0, 0, env...); code != 0 {
			t.Fatalf("night %s merge: exit %d", night, code)
		}
		rep, err := os.ReadFile(filepath.Join(results, night, "merged", "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Graphs, Skipped int
			Config          struct{ Night string }
		}
		if err := json.Unmarshal(rep, &r); err != nil || r.Graphs+r.Skipped != 20*n || r.Config.Night != night {
			t.Errorf("night %s merged report: %d graphs and %d skipped of night %q, want %d indices (%v)", night, r.Graphs, r.Skipped, r.Config.Night, 20*n, err)
		}
		state, err := os.ReadFile(filepath.Join(results, "state", "findings.json"))
		if err != nil {
			t.Fatalf("night %s: the merge committed no state: %v", night, err)
		}
		states = append(states, string(state))
	}
	if len(states) != 2 || states[0] == states[1] {
		t.Errorf("the second night's merge did not commit its state: %q", states)
	}
}

// TestKubernetesMergeCarriesVerdict: the merge Job's script exits with
// merge's status, so that the Job fails on new signatures (1) and on
// errors (2) and completes only when nothing is new.
func TestKubernetesMergeCarriesVerdict(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "cfgfuzz")
	for _, code := range []int{0, 1, 2} {
		if err := os.WriteFile(bin, []byte(fmt.Sprintf("#!/bin/sh\nexit %d\n", code)), 0o755); err != nil {
			t.Fatal(err)
		}
		if got, _ := runK8sJob(t, filepath.Join(repoRoot(t), "fuzz/examples/k8s-merge-job.yaml"), t.TempDir(), bin, 0, 0); got != code {
			t.Errorf("cfgfuzz merge exits %d: the merge Job's script exits %d", code, got)
		}
	}
}
