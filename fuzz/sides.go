// sides.go: the two sides of a comparison named for people (Sides): each
// side's revision as the command line gave it, its commit's short hash and
// subject line, the commits between the sides when both are commits of one
// repository, and for each new finding the bisect command between them
// (Finding.Bisect), run on the finding's graph in the findings store:
// from the baseline to the current side when the current side is ahead,
// from their merge base when they diverge, none when the current side is
// older or the same commit (Sides.NoBisect says why).

package fuzz

import (
	"cmp"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SideName is one side of a comparison as report.json's "sides" names it.
// The zero value is a side that is no revision (a command, self).
type SideName struct {
	// Given is the revision as the command line named it (Settings'
	// CurrentRef, BaselineRef: v1.0, main, HEAD+dirty); "" when it named
	// the commit itself, or the side is no revision.
	Given string `json:"given,omitempty"`
	// Commit is the side's commit (for a working tree, the commit its
	// changes are on) and Subject that commit's subject line.
	Commit  string `json:"commit,omitempty"`
	Subject string `json:"subject,omitempty"`
	// Dirty says the side is a working tree: Commit plus uncommitted
	// changes.
	Dirty bool `json:"dirty,omitempty"`
}

// Sides names both sides of a comparison (report.json's "sides").
type Sides struct {
	Current  SideName `json:"current"`
	Baseline SideName `json:"baseline"`
	// Repo is the repository both sides are commits of (with no
	// uncommitted changes), and Ahead and Behind the commits the current
	// side has that the baseline lacks and the other way round (git
	// rev-list --left-right --count); "" and nil otherwise.
	Repo   string `json:"repo,omitempty"`
	Ahead  *int   `json:"commits_ahead,omitempty"`
	Behind *int   `json:"commits_behind,omitempty"`
	// MergeBase is the sides' merge base (git merge-base) when they
	// diverge, both Ahead and Behind above 0: the good end of their
	// findings' bisect commands; "" otherwise.
	MergeBase string `json:"merge_base,omitempty"`
	// Unrelated says the sides diverge and share no commit (git
	// merge-base names none): their findings get no bisect command.
	Unrelated bool `json:"unrelated,omitempty"`
	// ShallowCounts says the sides diverge in a shallow clone where git
	// names no merge base: Ahead and Behind count the commits of the
	// history the clone holds, not the true figures, which can be larger.
	ShallowCounts bool `json:"shallow_counts,omitempty"`
	// ForkPoint is where the current side's first-parent history leaves
	// the baseline's (the first parent of the oldest commit of that
	// history the baseline lacks) when that is neither the merge base nor
	// the baseline: the current side merged commits of the baseline's in
	// since (a branch that merged main), so bisect, which follows the
	// first parents, would find no commit of the current side's own
	// between those and it; its findings' bisect commands start there.
	// "" otherwise.
	ForkPoint string `json:"fork_point,omitempty"`
	// own says the sides are revisions of cfgfuzz's own repository
	// (rev: specs): their bisect takes no --repo.
	own bool
}

// subjectShown is the longest subject line a side's name shows, in
// runes; a longer one ends in "…".
const subjectShown = 48

// String is the side for the summary and the reports:
// `v1.0 (HASH "lower switches…")`; "" for a side that is no revision.
func (n SideName) String() string {
	if n.Commit == "" {
		return ""
	}
	subject := n.Subject
	if utf8.RuneCountInString(subject) > subjectShown {
		subject = string([]rune(subject)[:subjectShown-1]) + "…"
	}
	inner := shortCommit(n.Commit)
	if subject != "" {
		inner += " " + strconv.Quote(subject)
	}
	if n.Dirty {
		inner += " plus uncommitted changes"
	}
	if n.Given == "" {
		return inner
	}
	return n.Given + " (" + inner + ")"
}

// shortCommit is a commit's first 7 hex digits, as git shows it.
func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// Between says how far apart the sides are, "" when they are not both
// commits of one repository: "3 commits from the baseline to the
// current side", or where each has commits the other lacks, "the sides
// diverge: 3 commits on the current side, 1 on the baseline's", or "the
// sides are the same commit".
func (s *Sides) Between() string {
	if s == nil || s.Ahead == nil || s.Behind == nil {
		return ""
	}
	if *s.Behind == 0 && *s.Ahead == 0 {
		return "the sides are the same commit"
	}
	if *s.Behind == 0 {
		return Plural(*s.Ahead, "commit") + " from the baseline to the current side"
	}
	if *s.Ahead == 0 {
		return Plural(*s.Behind, "commit") + " from the current side to the baseline (the current side is older)"
	}
	if s.ShallowCounts {
		return fmt.Sprintf("the sides diverge: %s on the current side, %d on the baseline's of the history this shallow clone holds, which may be fewer than there are (git fetch --unshallow gives the true figures)", Plural(*s.Ahead, "commit"), *s.Behind)
	}
	if s.Unrelated {
		return fmt.Sprintf("the sides share no commit: %s on the current side, %d on the baseline's", Plural(*s.Ahead, "commit"), *s.Behind)
	}
	return fmt.Sprintf("the sides diverge: %s on the current side, %d on the baseline's, since their merge base", Plural(*s.Ahead, "commit"), *s.Behind)
}

// NameSides names the sides of the comparison s, nil without a baseline or
// when neither side is a revision. It asks git for the subjects and the
// commits between the sides; what git cannot say is left out.
func NameSides(s *Settings) *Sides {
	if s.Baseline == "" {
		return nil
	}
	cur, curRepo, curOK := sideName(s.Current, s.CurrentRef)
	base, baseRepo, baseOK := sideName(s.Baseline, s.BaselineRef)
	if !curOK && !baseOK {
		return nil
	}
	sides := &Sides{Current: cur, Baseline: base}
	if curOK && baseOK && curRepo == baseRepo && !cur.Dirty && !base.Dirty {
		out, err := git(curRepo, "rev-list", "--left-right", "--count", base.Commit+"..."+cur.Commit)
		if f := strings.Fields(out); err == nil && len(f) == 2 {
			behind, e1 := strconv.Atoi(f[0])
			ahead, e2 := strconv.Atoi(f[1])
			if e1 == nil && e2 == nil {
				sides.Ahead, sides.Behind = &ahead, &behind
			}
		}
		if sides.Ahead != nil && *sides.Ahead > 0 && *sides.Behind > 0 {
			sides.MergeBase, sides.Unrelated = mergeBase(curRepo, base.Commit, cur.Commit)
			sides.ShallowCounts = sides.MergeBase == "" && !sides.Unrelated && isShallow(curRepo)
		}
		if good := sides.bisectGood(); good != "" {
			sides.ForkPoint = forkPoint(curRepo, base.Commit, cur.Commit, good)
		}
		sp, _ := ParseSpec(s.Current)
		sides.own = sp.Kind == SpecRev
		if !sides.own {
			sides.Repo = curRepo
		}
	}
	return sides
}

// mergeBase is the merge base of commits a and b in repo, or "" with
// unrelated true where git says they share no commit (git merge-base
// exits 1 with nothing on standard output) in a repository that holds
// their whole history; "" and false where git cannot say, a shallow
// clone among them (its history cut, git finds no merge base of sides
// that have one).
func mergeBase(repo, a, b string) (base string, unrelated bool) {
	out, err := git(repo, "merge-base", a, b)
	if err == nil {
		return strings.TrimSpace(out), false
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || strings.TrimSpace(out) != "" {
		return "", false
	}
	shallow, err := git(repo, "rev-parse", "--is-shallow-repository")
	return "", err == nil && strings.TrimSpace(shallow) == "false"
}

// isShallow says whether repo is a shallow clone, as git says.
func isShallow(repo string) bool {
	out, err := git(repo, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(out) == "true"
}

// forkPoint is where the first-parent history of commit cur leaves that
// of base in repo: the first parent of the oldest commit on cur's
// first-parent chain that base lacks; "" when that is want (the merge
// base, or base itself), or git cannot say.
func forkPoint(repo, base, cur, want string) string {
	out, err := git(repo, "rev-list", "--first-parent", cur, "^"+base)
	own := strings.Fields(out)
	if err != nil || len(own) == 0 {
		return ""
	}
	parent, err := git(repo, "rev-parse", "--verify", "-q", own[len(own)-1]+"^1")
	if p := strings.TrimSpace(parent); err == nil && p != want {
		return p
	}
	return ""
}

// sideName names the side of spec desc, which the command line gave as
// given: its repository's top directory, and whether it is a revision.
func sideName(desc, given string) (SideName, string, bool) {
	sp, err := ParseSpec(desc)
	if err != nil || (sp.Kind != SpecRev && sp.Kind != SpecRepo) || sp.WorkTree == WorkTreeAny {
		return SideName{}, "", false
	}
	dir := "."
	if sp.Kind == SpecRepo {
		dir = sp.Repo
	}
	top, err := repoTop(dir)
	if err != nil {
		return SideName{}, "", false
	}
	n := SideName{Commit: sp.Rev, Dirty: sp.WorkTree != ""}
	if out, err := git(top, "log", "-1", "--format=%s", sp.Rev); err == nil {
		n.Subject = strings.TrimSpace(out)
	}
	switch {
	case strings.HasSuffix(given, "+dirty") && n.Dirty:
		n.Given = "working tree"
	case strings.HasSuffix(given, "+dirty"): // a working tree without changes: its commit
		n.Given = strings.TrimSuffix(given, "+dirty")
	case !strings.HasPrefix(sp.Rev, given): // a name, not the commit's hash
		n.Given = given
	}
	return n, top, true
}

// bisectCommand is the bisect of finding f's graph between the sides, run
// on the store entry's file in dir (min.cfg, else graph.cfg), with the
// judging flags of s and the build and serve commands the campaign was
// given (Settings.Project): from the baseline's commit when the current
// side descends from it, from the sides' merge base when they diverge.
// It is "" when the sides are not both commits of one repository, the
// current side is older than the baseline or the same commit (NoBisect),
// the finding has no graph the baseline did not fail (New), no store entry, or the
// campaign planted faults (bisect plants none).
func bisectCommand(dir string, s *Settings, sides *Sides, f *Finding) string {
	good := sides.bisectGood()
	if good == "" || f.New == 0 || f.stored == "" || len(s.Inject) > 0 {
		return ""
	}
	file := "graph.cfg"
	for _, name := range f.storedFiles {
		if name == "min.cfg" {
			file = name
		}
	}
	path, err := filepath.Abs(filepath.Join(dir, filepath.FromSlash(f.stored), file))
	if err != nil {
		return ""
	}
	repo := ""
	if !sides.own {
		repo = " --repo " + ShellQuote(sides.Repo)
		if s.Project != nil {
			repo += s.Project.Flags()
		}
	}
	flags := JudgingFlags(s, cmp.Or(f.Strategy, s.Strategy), f.Signature)
	return fmt.Sprintf("cfgfuzz bisect%s --good %s --bad %s%s %s", repo, good, sides.Current.Commit, flags, ShellQuote(path))
}

// bisectGood is the good end of the sides' bisect commands: the
// baseline's commit when the current side is ahead of it, their merge
// base when they diverge, or in either case ForkPoint where the current
// side merged the baseline's commits in; "" when the sides are not both
// commits of one repository, the current side is older or the same
// commit, or git gave no merge base.
func (s *Sides) bisectGood() string {
	switch {
	case s == nil || s.Ahead == nil || s.Behind == nil || *s.Ahead == 0:
		return ""
	case *s.Behind == 0:
		return cmp.Or(s.ForkPoint, s.Baseline.Commit)
	case s.MergeBase == "":
		return ""
	}
	return cmp.Or(s.ForkPoint, s.MergeBase)
}

// FromMergeBase says, when the sides diverge or the current side merged
// the baseline's commits in, where their bisect commands start: "from the
// sides' merge base HASH, taken as good; bisect judges it first", or from
// ForkPoint (a good end that fails the graph too is named by bisect: the
// failure is then older than the current side's own commits); ""
// otherwise.
func (s *Sides) FromMergeBase() string {
	switch {
	case s.bisectGood() == "":
		return ""
	case s.ForkPoint != "":
		return "from " + shortCommit(s.ForkPoint) + ", where the current side's first-parent history leaves the baseline's (it merged the baseline's commits in since), taken as good; bisect judges it first"
	case *s.Behind == 0:
		return ""
	}
	return "from the sides' merge base " + shortCommit(s.MergeBase) + ", taken as good; bisect judges it first"
}

// bisectWhat is what a finding's bisect command finds, as report.md and
// report.html head it: with where it starts when the sides diverge.
func bisectWhat(s *Sides) string {
	if from := s.FromMergeBase(); from != "" {
		return "the first commit on the current side whose verdict on it changed (" + from + ")"
	}
	return "the first commit between the sides whose verdict on it changed"
}

// NoBisect says in one line why new findings between sides that are
// revisions get no bisect command: a side is a working tree with
// uncommitted changes, the current side is older than the baseline, both
// are the same commit, they share no commit, or git names no merge base
// of sides that diverge (a shallow clone); "" otherwise.
func (s *Sides) NoBisect() string {
	switch {
	case s != nil && s.Current.Dirty:
		return "no bisect command: the current side is a working tree with uncommitted changes, and bisect walks commits: commit them and compare again for one"
	case s != nil && s.Baseline.Dirty:
		return "no bisect command: the baseline is a working tree with uncommitted changes, and bisect walks commits from a committed good one"
	case s == nil || s.Ahead == nil || s.Behind == nil:
		return ""
	case *s.Ahead > 0 && s.Unrelated:
		return "no bisect command: the sides share no commit, so no good commit before the current side's own can start a bisect"
	case *s.Ahead > 0 && *s.Behind > 0 && s.MergeBase == "":
		return "no bisect command: git names no merge base of the sides, which diverge (a shallow clone, say: git fetch --unshallow gives it the history bisect needs)"
	case *s.Ahead > 0:
		return ""
	case *s.Behind == 0:
		return "no bisect command: both sides are the same commit, so no commit between them changed a verdict"
	}
	return "no bisect command: the current side is older than the baseline, so a graph it fails and the baseline passes was fixed between them, and bisect finds where a failure began, not a fix"
}

// NoBisectNote is the sides' NoBisect when the report has a finding the
// baseline did not fail some graphs of (New); "" otherwise.
func NoBisectNote(rep *Report) string {
	for _, f := range rep.Findings {
		if f.New > 0 {
			return rep.Sides.NoBisect()
		}
	}
	return ""
}

// Named is side's name ("current" or "baseline") for the summary and the
// reports, followed by sep; "" when the side is no revision.
func (s *Sides) Named(side, sep string) string {
	if s == nil {
		return ""
	}
	n := s.Current
	if side == "baseline" {
		n = s.Baseline
	}
	if name := n.String(); name != "" {
		return name + sep
	}
	return ""
}
