// bisect.go finds the first commit whose verdict on one graph differs from
// a good commit's: git's bisection over the first-parent chain from the
// good commit to the bad one (`git rev-list --first-parent
// --ancestry-path`), each tested commit built and served as its spec says
// (a rev or repo spec: baseline.go), a commit whose build fails skipped as
// `git bisect skip` does. A verdict is the outcome and the signature
// (VerdictKey): a commit that changes either is a difference. Before each
// commit is built and judged, the log says which step it is of about how
// many (the ends, then log2 of the commits left to search, rounded up),
// with the commit's subject line.

package fuzz

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// BisectOptions configures Bisect. Good, Bad, SpecOf and Judge are
// required.
type BisectOptions struct {
	Good, Bad string // revisions; Good must be an ancestor of Bad
	// Repo is a directory inside the repository; "" the current one.
	Repo string
	// SpecOf is the spec of a commit (rev:C, repo:DIR@C).
	SpecOf func(commit string) Spec
	// Resolve builds and serves a spec.
	Resolve ResolveOptions
	// Judge judges the graph on one side.
	Judge func(SideFactory) (SideResult, error)
	Log   io.Writer // progress; nil discards
}

// BisectStep is one commit tested.
type BisectStep struct {
	Commit  string
	Verdict string // VerdictKey; "" when skipped
	// Skipped says in one line why the commit could not be tested ("" when
	// it was) and Output is the tail of its failed build's output
	// (BuildError.OutputTail: BisectOutputLines lines at most).
	Skipped string
	Output  []string
}

// BisectOutputLines is how many lines of a failed build's output a
// skipped commit keeps.
const BisectOutputLines = 8

// BisectResult is what Bisect found.
type BisectResult struct {
	Good, Bad    string // full hashes
	GoodVerdict  string
	First        string // the first commit whose verdict differs from the good one's
	FirstVerdict string
	// FirstSubject is First's subject line; "" when git cannot say.
	FirstSubject string
	// Candidates, when the skipped commits hide the answer, are the
	// untested commits before First, any of which may be the first
	// (First too); nil when First is exact.
	Candidates []string
	// LastGood is the last commit tested with Good's verdict: the commit
	// just before the first candidate (or First), Good itself when no
	// commit after it gave its verdict. LastGood and First are the
	// narrowest pair of ends the bisection established.
	LastGood string
	Commits  int // commits after Good up to Bad
	Steps    []BisectStep
}

// VerdictKey is a side's result as bisection compares it.
func VerdictKey(r SideResult) string {
	if r.Signature == "" {
		return r.Outcome
	}
	return r.Outcome + ": " + r.Signature
}

// JudgeGraph judges g on c.Current as a campaign's worker does: the same
// checks, meta's re-runs through that side.
func JudgeGraph(c Config, g *cfg.Graph) (SideResult, error) {
	c.Baseline = SideFactory{}
	w, err := newWorker(&c)
	if err != nil {
		return SideResult{}, err
	}
	defer w.close()
	r, _ := w.judge(w.cur, g, w.curOpt, nil)
	r.Func, r.Module = nil, nil
	return r, nil
}

// notAncestorError says that good is not an ancestor of bad, and that
// the two look swapped where bad is an ancestor of good.
func notAncestorError(repo, good, bad string) error {
	msg := fmt.Sprintf("the good commit %s is not an ancestor of the bad one %s", good[:12], bad[:12])
	if _, err := git(repo, "merge-base", "--is-ancestor", bad, good); err == nil {
		msg += "; the bad one is an ancestor of the good one: are --good and --bad swapped?"
	}
	return errors.New(msg)
}

// Bisect finds the first commit after opt.Good, on the first-parent chain
// to opt.Bad, whose verdict differs from opt.Good's.
func Bisect(opt BisectOptions) (*BisectResult, error) {
	bo := opt.Resolve.Build
	if bo.Repo == "" {
		bo.Repo = opt.Repo
	}
	res := &BisectResult{}
	var err error
	if res.Good, err = ResolveRevision(opt.Good, bo); err != nil {
		return nil, fmt.Errorf("--good: %w", err)
	}
	if res.Bad, err = ResolveRevision(opt.Bad, bo); err != nil {
		return nil, fmt.Errorf("--bad: %w", err)
	}
	if _, err := git(bo.Repo, "merge-base", "--is-ancestor", res.Good, res.Bad); err != nil {
		return nil, notAncestorError(bo.Repo, res.Good, res.Bad)
	}
	commits, err := firstParentPath(bo.Repo, res.Good, res.Bad)
	if err != nil {
		return nil, err
	}
	res.Commits = len(commits)
	b := &bisection{opt: opt, res: res, repo: bo.Repo}
	ends := 2 + ceilLog2(len(commits))
	if res.GoodVerdict, err = b.mustTest(res.Good, "good", ends); err != nil {
		return nil, err
	}
	badVerdict, err := b.mustTest(res.Bad, "bad", ends)
	if err != nil {
		return nil, err
	}
	if badVerdict == res.GoodVerdict {
		return nil, sameVerdicts(res, badVerdict)
	}
	lo, hi := -1, len(commits)-1 // commits[lo] (Good at -1) has the good verdict, commits[hi] not
	verdicts := map[int]string{hi: badVerdict}
	skipped := map[int]bool{}
	for {
		mid, ok := nextProbe(lo, hi, skipped)
		if !ok {
			break
		}
		b.announce(commits[mid], b.steps+ceilLog2(hi-lo), fmt.Sprintf("%s left", plural(searchLeft(lo, hi, skipped), "commit")))
		v, why, err := b.test(commits[mid])
		switch {
		case err != nil:
			return nil, fmt.Errorf("commit %s: %w", commits[mid][:12], err)
		case why != "":
			skipped[mid] = true
			continue
		}
		verdicts[mid] = v
		if v == res.GoodVerdict {
			lo = mid
		} else {
			hi = mid
		}
	}
	res.First, res.FirstVerdict, res.FirstSubject = commits[hi], verdicts[hi], commitSubject(bo.Repo, commits[hi])
	res.LastGood = res.Good
	if lo >= 0 {
		res.LastGood = commits[lo]
	}
	for i := lo + 1; i < hi; i++ {
		res.Candidates = append(res.Candidates, commits[i])
	}
	return res, nil
}

// sameVerdicts is the error of ends that give one verdict: a good commit
// that fails the graph as the bad one does is named as such, the failure
// being older than it.
func sameVerdicts(res *BisectResult, verdict string) error {
	if res.GoodVerdict != OutOK && res.GoodVerdict != OutUnsupported {
		return fmt.Errorf("the good commit %s fails the graph already, as the bad one %s does (%s): the failure is older than the good commit, nothing to bisect", res.Good[:12], res.Bad[:12], verdict)
	}
	return fmt.Errorf("the bad commit %s gives the good one's verdict (%s): nothing to bisect", res.Bad[:12], verdict)
}

// firstParentPath lists the commits after good up to bad, oldest first,
// on bad's first-parent chain.
func firstParentPath(repo, good, bad string) ([]string, error) {
	out, err := gitEnv(repo, nil, "rev-list", "--reverse", "--first-parent", "--ancestry-path", good+".."+bad)
	if err != nil {
		return nil, err
	}
	commits := strings.Fields(out)
	if len(commits) == 0 || commits[len(commits)-1] != bad {
		return nil, fmt.Errorf("no first-parent path from %s to %s", good[:12], bad[:12])
	}
	return commits, nil
}

// nextProbe is the untested, unskipped index strictly between lo and hi
// nearest their middle (the lower of two as near); ok is false when there
// is none.
func nextProbe(lo, hi int, skipped map[int]bool) (int, bool) {
	mid := lo + (hi-lo)/2
	for d := 0; mid-d > lo || mid+d < hi; d++ {
		for _, i := range []int{mid - d, mid + d} {
			if i > lo && i < hi && !skipped[i] {
				return i, true
			}
		}
	}
	return 0, false
}

// bisection tests commits and records the steps.
type bisection struct {
	opt      BisectOptions
	res      *BisectResult
	repo     string
	steps    int   // the commits announced: tested, skipped, or being tested
	buildErr error // the last failed build, with its output
}

// ceilLog2 is the number of halvings that narrow n commits to one: the
// tests a bisection of n candidates takes at most, skips aside.
func ceilLog2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}

// searchLeft counts the commits strictly between lo and hi not skipped:
// those the bisection may still test.
func searchLeft(lo, hi int, skipped map[int]bool) int {
	n := 0
	for i := lo + 1; i < hi; i++ {
		if !skipped[i] {
			n++
		}
	}
	return n
}

// plural is n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// announce says on the log that commit is the next step, of about
// steps in all, what, and the commit's subject line.
func (b *bisection) announce(commit string, steps int, what string) {
	b.steps++
	if b.opt.Log == nil {
		return
	}
	fmt.Fprintf(b.opt.Log, "cfgfuzz bisect: step %d of about %d (%s): %s %s\n", b.steps, max(steps, b.steps), what, commit[:12], commitSubject(b.repo, commit))
}

// commitSubject is commit's subject line in repo; "" when git cannot say.
func commitSubject(repo, commit string) string {
	subject, _ := git(repo, "log", "-1", "--format=%s", commit)
	return strings.TrimSpace(subject)
}

// test builds, serves and judges commit; why says why it was skipped (its
// build failed); err is a failure that ends the bisection, which the
// caller prefixes with the commit.
func (b *bisection) test(commit string) (verdict, why string, err error) {
	side, _, err := Resolve(b.opt.SpecOf(commit), b.opt.Resolve)
	if err != nil {
		var be *BuildError
		if errors.As(err, &be) {
			b.buildErr = err
			why = be.Reason()
			b.step(BisectStep{Commit: commit, Skipped: why, Output: be.OutputTail(BisectOutputLines)})
			return "", why, nil
		}
		return "", "", err
	}
	r, err := b.opt.Judge(side)
	if err != nil {
		return "", "", err
	}
	if r.Outcome == OutError {
		return "", "", fmt.Errorf("harness error: %s", r.Detail)
	}
	verdict = VerdictKey(r)
	b.step(BisectStep{Commit: commit, Verdict: verdict})
	return verdict, "", nil
}

// mustTest is test of an end of the range (which: good or bad), which
// must build; steps is the estimate of the steps in all.
func (b *bisection) mustTest(commit, which string, steps int) (string, error) {
	b.announce(commit, steps, "the "+which+" commit")
	v, why, err := b.test(commit)
	if err == nil && why != "" {
		err = b.buildErr
	}
	if err != nil {
		return "", fmt.Errorf("the %s commit %s: %w", which, commit[:12], err)
	}
	return v, nil
}

func (b *bisection) step(s BisectStep) {
	b.res.Steps = append(b.res.Steps, s)
	if b.opt.Log != nil {
		what := s.Verdict
		if s.Skipped != "" {
			what = "skipped (" + s.Skipped + ")"
		}
		fmt.Fprintf(b.opt.Log, "cfgfuzz bisect: %s: %s\n", s.Commit[:12], what)
		for _, l := range s.Output {
			fmt.Fprintf(b.opt.Log, "    %s\n", l)
		}
	}
}

// Tested is the number of commits after Good that were tested (a verdict,
// not skipped); Good's own test is not one of them.
func (r *BisectResult) Tested() int {
	var out []string
	for _, s := range r.Steps {
		if s.Verdict != "" && s.Commit != r.Good && !slices.Contains(out, s.Commit) {
			out = append(out, s.Commit)
		}
	}
	return len(out)
}

// Skipped lists the commits skipped.
func (r *BisectResult) Skipped() []string {
	var out []string
	for _, s := range r.Steps {
		if s.Skipped != "" && !slices.Contains(out, s.Commit) {
			out = append(out, s.Commit)
		}
	}
	return out
}
