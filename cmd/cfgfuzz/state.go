// state.go: the --state DIR and --night DATE flags of run and compare
// (package fuzz's state.go and STATE.md), and the summary line of a
// night's signature classes.

package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// attachState reads --state into the campaign and sets the night: --night,
// else the night a resumed campaign recorded, else today in UTC; and
// marks the state in use by the night (c.Mark, fuzz.Config.MarkState),
// warning of another night on it.
func (f *campaignFlags) attachState(c *fuzz.Config) error {
	if f.state == "" {
		if f.night != "" {
			return fmt.Errorf("--night needs --state")
		}
		if f.stateNewStructurizer {
			return fmt.Errorf("--state-new-structurizer needs --state")
		}
		return nil
	}
	c.StateNewStructurizer = f.stateNewStructurizer
	if err := nightFlag(f.night); err != nil {
		return err
	}
	if c.Resume && c.StateDigest == "" {
		return fmt.Errorf("--state: the campaign in %s ran without --state: resume it without --state", c.Dir)
	}
	if c.Resume && f.night != "" && f.night != c.Night {
		return fmt.Errorf("--night %s: the campaign in %s is the night of %s: resume it without --night", f.night, c.Dir, c.Night)
	}
	st, err := f.loadState()
	if err != nil {
		return err
	}
	if st.Newer != "" && c.Notes != nil {
		fmt.Fprintf(c.Notes, "cfgfuzz: note: %s\n", st.Newer)
	}
	if st.Empty && c.Notes != nil {
		fmt.Fprintf(c.Notes, "cfgfuzz: note: %s\n", fuzz.EmptyNote(f.state, st.Absent))
	}
	c.State = st
	switch {
	case f.night != "":
		c.Night = f.night
	case c.Night == "":
		c.Night = time.Now().UTC().Format(time.DateOnly)
	}
	if !c.Resume { // fuzz.Run checks it too; here it is before a server starts or a revision is built
		if err := st.CheckNight(c.Night, c.Settings.Current, f.stateNewStructurizer); err != nil {
			return err
		}
	}
	// Marked here, before a revision is built, so that a night beside
	// another on this state is warned at once, not after the build; the
	// caller releases the mark (fuzz.Config.Mark).
	c.Mark = c.MarkState()
	return nil
}

// nightFlag checks --night's value, "" when not given: a date
// YYYY-MM-DD, checked before the state compares it with its nights, which
// a date in another form would be said earlier or later than.
func nightFlag(night string) error {
	if night == "" {
		return nil
	}
	if _, err := time.Parse(time.DateOnly, night); err != nil {
		return fmt.Errorf("invalid value %q for flag --night: want a date YYYY-MM-DD", night)
	}
	return nil
}

// loadState reads --state once for the campaign (the baseline's
// last-good and the campaign both use it).
func (f *campaignFlags) loadState() (*fuzz.State, error) {
	if f.loaded == nil {
		st, err := fuzz.LoadState(f.state)
		if err != nil {
			return nil, fmt.Errorf("--state: %w", err)
		}
		f.loaded = st
	}
	return f.loaded, nil
}

// lastGoodBaseline is the --baseline value naming the state's last good
// night's revision.
const lastGoodBaseline = "last-good"

// lastGood resolves --baseline last-good: the revision the --state
// directory's last good night ran (fuzz.GoodNight; as a repo:DIR@REV spec
// when that night ran a revision of a repository other than --repo's), or
// while it has none HEAD~1 (of the repository of a repo:DIR@REV
// --structurizer; refused for a cmd: one, whose revisions cfgfuzz does not
// know), saying which on stderr, with a note naming the known signatures
// of that night (GoodNight.KnownNote), which a comparison against it
// cannot show as new. Any other value is returned as it is.
func (f *campaignFlags) lastGood(baseline string, stderr io.Writer) (string, error) {
	if baseline != lastGoodBaseline {
		return baseline, nil
	}
	if f.state == "" {
		return "", fmt.Errorf("--baseline %s needs --state DIR (the nights it remembers)", lastGoodBaseline)
	}
	st, err := f.loadState()
	if err != nil {
		return "", err
	}
	if g := st.LastGood; g != nil {
		rev := g.Revision
		if g.Repo != "" && g.Repo != f.repo {
			rev = g.Spec() // a revision of the repository that night ran
		}
		fmt.Fprintf(stderr, "cfgfuzz: baseline %s: %s, the last good night (%s)\n", lastGoodBaseline, rev, g.Night)
		if n := g.KnownNote(); n != "" {
			fmt.Fprintf(stderr, "cfgfuzz: note: %s\n", n)
		}
		return rev, nil
	}
	const what = "a good night runs a committed revision, rev:REV or repo:DIR@REV, covers its budget, checks at least one graph and finds nothing new: fuzz/STATE.md"
	fallback := "HEAD~1"
	if cur, err := fuzz.ParseSpec(f.structurizerCmd); f.structurizerCmd != "" && f.repo == "" && err == nil {
		switch cur.Kind {
		case fuzz.SpecRepo: // the parent of the structurizer's own revision
			fallback = fuzz.Spec{Kind: fuzz.SpecRepo, Repo: cur.Repo, Rev: "HEAD~1"}.String()
		case fuzz.SpecCmd:
			return "", fmt.Errorf("--baseline %s: %s records no good night yet (%s), and HEAD~1 would be a revision of cfgfuzz, not of %s: give --baseline a spec, or run the nights on repo:DIR@REV", lastGoodBaseline, f.state, what, cur)
		}
	}
	fmt.Fprintf(stderr, "cfgfuzz: baseline %s: %s records no good night yet, so the baseline is %s (%s)\n", lastGoodBaseline, f.state, fallback, what)
	return fallback, nil
}

// stateSummary is the summary line of the signature classes.
// rerunOnly is what a signature's line adds when it showed tonight only
// in the re-runs of the state's graphs, not in the campaign's graphs
// (a night run again skips those its earlier run checked): "" otherwise.
func rerunOnly(sig fuzz.SignatureState) string {
	if sig.Tonight > 0 || sig.RerunShowing == 0 || sig.Class == fuzz.ClassFixed || sig.Class == fuzz.ClassUnverified {
		return ""
	}
	return fmt.Sprintf("; not in tonight's graphs: shown by %s of the state's graphs", fuzz.Plural(sig.RerunShowing, "re-run"))
}

// newSignaturesLine is the line that says why a night with new
// signatures exits 1, naming them and how many of them tonight's graphs
// did not show (the re-runs of the state's graphs did): "" for a night
// with none.
func newSignaturesLine(s *fuzz.StateReport) string {
	var names []string
	rerun := 0
	for _, sig := range s.Signatures {
		if sig.Class != fuzz.ClassNew {
			continue
		}
		names = append(names, fuzz.PrintableLine(sig.Signature+onStrategy(sig.Strategy)))
		if sig.Tonight == 0 {
			rerun++
		}
	}
	if len(names) == 0 {
		return ""
	}
	word := "signatures"
	if len(names) == 1 {
		word = "signature"
	}
	line := fmt.Sprintf("exit 1: %d new %s (%s)", len(names), word, strings.Join(names, ", "))
	switch {
	case rerun == len(names) && rerun == 1:
		line += ", shown tonight by the re-runs of the state's graphs, not by tonight's graphs"
	case rerun == len(names):
		line += ", each shown tonight by the re-runs of the state's graphs, not by tonight's graphs"
	case rerun > 0:
		line += fmt.Sprintf(", %d of them shown tonight by the re-runs of the state's graphs only, not by tonight's graphs", rerun)
	}
	return line
}

func stateSummary(rep *fuzz.Report) string {
	s := rep.State
	if s == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "night %s:", s.Night)
	for _, c := range fuzz.SignatureClasses {
		fmt.Fprintf(&b, " %s %d", c, s.Classes[c])
	}
	fmt.Fprintf(&b, " (signatures); %s, %s skipped as seen\n", s.RerunsPhrase(), fuzz.Plural(s.Seen, "graph"))
	for _, sig := range s.Signatures {
		// the store is a file anyone can edit: its text cannot move the cursor or split the line
		fmt.Fprintf(&b, "  %s %s: %s%s\n", sig.Class, fuzz.PrintableLine(sig.Signature+onStrategy(sig.Strategy)), fuzz.PrintableLine(sig.Reason), rerunOnly(sig))
	}
	if s.FilterRestarted > 0 {
		fmt.Fprintf(&b, "  note: %s\n", fuzz.FilterRestartNote(s.FilterRestarted))
	}
	if s.FilterMissing {
		fmt.Fprintf(&b, "  note: %s\n", fuzz.FilterMissingNote)
	}
	if s.Empty {
		fmt.Fprintf(&b, "  note: %s\n", fuzz.EmptyNote("", s.DirMissing))
	}
	if n := s.BuildNote(); n != "" {
		fmt.Fprintf(&b, "  note: %s\n", fuzz.PrintableLine(n))
	}
	if n := s.BaselineNote(); n != "" {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	for _, n := range s.Unmatched {
		fmt.Fprintf(&b, "  note: %s\n", fuzz.PrintableLine(n.String()))
	}
	if s.Concurrent != "" {
		fmt.Fprintf(&b, "  warning: %s\n", fuzz.PrintableLine(s.Concurrent))
	}
	if s.NotCommitted != "" {
		fmt.Fprintf(&b, "  not committed: %s\n", s.NotCommitted)
	}
	if sh := rep.Settings.Shard; sh.N > 1 {
		fmt.Fprintf(&b, "  note: shard %s commits nothing to the state: its update is in its --out's %s/, and `cfgfuzz merge --state DIR` of every shard commits the night\n", sh, fuzz.StateUpdateDir)
	}
	switch {
	case s.Seen == 0 || s.Seen < rep.Graphs:
	case s.RepeatedNight:
		fmt.Fprintf(&b, "  note: %d of the night's %d graphs were %s and skipped: a night run again on its seed checks only the graphs its earlier run did not\n",
			s.Seen, s.Seen+rep.Graphs, s.SeenWhere())
	default:
		fmt.Fprintf(&b, "  note: %d of the night's %d graphs were %s and skipped; give each night its own --seed (the date, as the nightly workflow does) so that the budget goes to graphs not checked yet\n",
			s.Seen, s.Seen+rep.Graphs, s.SeenWhere())
	}
	if line := newSignaturesLine(s); line != "" {
		b.WriteString("  " + line + "\n")
	}
	return b.String()
}
