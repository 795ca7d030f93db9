// saveregs.go: --save-regressions DIR, for run, compare and merge: each
// new finding's minimized graph written into DIR as a regression file
// (corpus.Header: the signature, and the structurizer, strategy, faults,
// register file, target environment, rules reading, walks, checks
// (--allow-fallbacks among them) and limits it was found under;
// expect pass; the structurizer's paths inside the directory's git work
// tree written from {repo}: portable.go; a build of uncommitted changes
// noted, as no commit holds it; a command named by absolute paths outside
// the directory's work tree noted, as it replays only where they hold it),
// so a campaign's new bugs come
// out ready for the suite `cfgfuzz regress` replays. A shard saves
// nothing: it leaves every new finding to the merge, which minimizes them
// and saves with its own flag (a finding the state's store holds a
// minimized graph of included). A finding without a minimized graph (the
// minimizer off, the failure not reproduced) is not saved, nor is a
// flaky one (the minimizer's judgements disagreed: a regression that
// passes by chance) or one whose minimized graph the minimizer could not
// judge again every time (Finding.MinimizeError), and the line it prints
// counts those and says why; one whose minimized graph or weights do not
// read back (a damaged report or state) is named in an error, the others
// saved; a file of the same name is kept as it is. With a state, only the
// signatures the state classes new are saved (the line counts the others),
// each dated with the night; a file whose minimized graph is the state's
// says so in its origin (regressionOrigin).

package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// saveRegressionsUsage documents --save-regressions.
const saveRegressionsUsage = "write each new finding's minimized graph into `DIR` as a regression file (expect pass; its header records the structurizer and settings it failed under), ready for cfgfuzz regress; a file of the same name is kept (one that does not read as a regression is named, exit 2)"

// saveRegressions writes the report's new, minimized findings into dir
// and says on out what it saved.
func saveRegressions(dir string, rep *fuzz.Report, command string, out io.Writer) error {
	if dir == "" {
		return nil
	}
	if err := checkRegressionDir(dir); err != nil {
		return fmt.Errorf("--save-regressions: %w", err)
	}
	t := regressionTally{dir: dir}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		if t.notSaved(rep, f) {
			continue
		}
		if err := t.save(rep, f, command); err != nil {
			return fmt.Errorf("--save-regressions: %w", err)
		}
	}
	t.say(out)
	if len(t.broken) > 0 {
		return fmt.Errorf("--save-regressions: not saved: %s", strings.Join(t.broken, "; "))
	}
	return nil
}

// regressionTally is what saveRegressions did with a report's findings:
// the regression files saved into dir (their paths), those of the same
// name kept, the findings that could not be saved (broken), the notes on
// the files' headers, and the counts of the new findings not saved, by
// why.
type regressionTally struct {
	dir                  string
	saved, kept          []string
	broken, notes        []string
	cdNoted, dirtyNoted  bool
	outsideNoted         bool
	pinnedNoted          bool
	unminimized, flaky   int
	unjudged, stateKnows int
	deferred, stored     int // a shard's new findings, and those of them the state holds minimized
}

// notSaved says whether finding f is not saved, and counts it: a finding
// not new (new to the campaign but known or ignored by the state), a
// shard's (the merge saves every new finding, the state's minimized graph
// included, with its own flag), a flaky one (a regression that passes by
// chance), one whose minimized graph the minimizer could not judge again
// (minimize --save-regression refuses it too), and one without a
// minimized graph.
func (t *regressionTally) notSaved(rep *fuzz.Report, f *fuzz.Finding) bool {
	switch {
	case !rep.IsNew(f):
		if f.New > 0 {
			t.stateKnows++ // new to the campaign, known or ignored by the state
		}
	case rep.Settings.Shard.N > 1:
		// a shard (complete or not, minimizing or not): the merge
		// saves every new finding, the state's minimized graph
		// included, with its own flag
		t.deferred++
		if f.MinimizedStored {
			t.stored++
		}
	case f.Flaky != "" && f.Minimized != "":
		t.flaky++ // a regression that passes by chance
	case f.MinimizeError != "" && f.Minimized != "":
		t.unjudged++ // not judged again every time, as minimize --save-regression refuses it
	case f.Minimized == "" || f.NotReproduced != "" || f.Flaky != "":
		t.unminimized++
	default:
		return false
	}
	return true
}

// save writes finding f's minimized graph into the directory as a
// regression file, with the header of the campaign command ran; a file of
// the same name is kept (one that does not read as a regression is
// broken), and so is a finding whose minimized graph does not read. The
// error is a file that could not be written.
func (t *regressionTally) save(rep *fuzz.Report, f *fuzz.Finding, command string) error {
	g, err := f.MinimizedGraph()
	if err != nil {
		// a damaged report or state: the other findings are still saved
		t.broken = append(t.broken, fmt.Sprintf("finding %s: minimized graph: %v", fuzz.PrintableLine(f.Signature), err))
		return nil
	}
	h := portableHeader(regressionHeader(rep, f, command), t.dir)
	if n := relativeCdNote(h.Structurizer); n != "" && !t.cdNoted {
		t.notes = append(t.notes, n)
		t.cdNoted = true
	}
	if n := markUncommitted(&h); n != "" && !t.dirtyNoted {
		t.notes = append(t.notes, n)
		t.dirtyNoted = true
	}
	if n := outsideRepoNote(h.Structurizer, t.dir); n != "" && !t.outsideNoted {
		t.notes = append(t.notes, n)
		t.outsideNoted = true
	}
	if n := pinnedCommitNote(h.Structurizer); n != "" && !t.pinnedNoted {
		t.notes = append(t.notes, n)
		t.pinnedNoted = true
	}
	name := regressionName(h, f)
	path, err := corpus.WriteRegression(t.dir, name, h, g)
	switch {
	case errors.Is(err, fs.ErrExist):
		if _, rerr := corpus.ReadRegression(filepath.Join(t.dir, name+".cfg")); rerr != nil {
			// the file of this name is no regression: kept, but said
			t.broken = append(t.broken, fmt.Sprintf("%s is there but does not read (%v): kept; delete it to save the finding again", name+".cfg", rerr))
			return nil
		}
		t.kept = append(t.kept, name+".cfg")
	case err != nil:
		return err
	default:
		t.saved = append(t.saved, path)
	}
	return nil
}

// say writes on out what was saved: the line of the files saved and kept
// and the new findings not saved, by why, then the notes on the headers.
func (t *regressionTally) say(out io.Writer) {
	fmt.Fprintf(out, "regressions: %s saved into %s", fuzz.Plural(len(t.saved), "new finding"), t.dir)
	if len(t.kept) > 0 {
		fmt.Fprintf(out, "; %s already there, kept (%s)", fuzz.Plural(len(t.kept), "file"), strings.Join(t.kept, ", "))
	}
	switch {
	case t.deferred == 0:
	case t.stored == 0:
		fmt.Fprintf(out, "; %s left to the merge, which minimizes them (cfgfuzz merge --save-regressions %s)",
			fuzz.Plural(t.deferred, "new finding"), fuzz.ShellQuote(t.dir))
	default:
		fmt.Fprintf(out, "; %s left to the merge, which minimizes those the state holds no minimized graph of (cfgfuzz merge --save-regressions %s)",
			fuzz.Plural(t.deferred, "new finding"), fuzz.ShellQuote(t.dir))
	}
	if t.unminimized > 0 {
		fmt.Fprintf(out, "; %s without a minimized graph, not saved", fuzz.Plural(t.unminimized, "new finding"))
	}
	if t.flaky > 0 {
		fmt.Fprintf(out, "; %s flaky (the minimizer's judgements disagreed), not saved", fuzz.Plural(t.flaky, "new finding"))
	}
	if t.unjudged > 0 {
		fmt.Fprintf(out, "; %s whose minimized graph the minimizer could not judge again (minimize_error in the report), not saved", fuzz.Plural(t.unjudged, "new finding"))
	}
	if t.stateKnows > 0 {
		fmt.Fprintf(out, "; %s of this campaign the state classes known or ignored, not saved (a regression file is saved on the night a signature is new)", fuzz.Plural(t.stateKnows, "finding"))
	}
	fmt.Fprintln(out)
	for _, n := range t.notes {
		fmt.Fprintln(out, "regressions: "+n)
	}
}

// regressionHeader is the header of finding f's regression file.
func regressionHeader(rep *fuzz.Report, f *fuzz.Finding, command string) corpus.Header {
	s := &rep.Settings
	spec, _ := fuzz.ParseSpec(s.Current)
	j := campaignJudged(s).For(f.Signature)
	build, serve := headerProject(spec, s.Project)
	return corpus.Header{Signature: f.Signature, Fault: strings.Join(s.Inject, ","), Strategy: cmp.Or(f.Strategy, s.Strategy),
		Registers: s.Registers, TargetEnv: s.TargetEnv, RulesCompat: s.RulesCompat, Walks: j.Walks,
		Checks: regressionChecks(j.Checks), Timeout: j.Timeout, CheckTimeout: j.CheckTimeout, GrowthTime: j.GrowthTime,
		Structurizer: specField(spec), Build: build, Serve: serve, Expect: corpus.ExpectPass,
		Origin: regressionOrigin(rep, f, command), Date: regressionDate(rep)}
}

// campaignJudged is how a campaign of settings s judged its graphs, as
// the headers of its regression files and of its findings store's graph
// files record it (corpus.Judged.For each finding's signature).
func campaignJudged(s *fuzz.Settings) corpus.Judged {
	return corpus.Judged{Walks: corpus.WalksOf(s.Walks, s.Seed), Checks: checksHeader(s.Checks),
		Timeout:      unlessDefault(time.Duration(s.Timeout), fuzz.DefaultTimeout),
		CheckTimeout: unlessDefault(time.Duration(s.CheckTimeout), fuzz.DefaultCheckTimeout),
		GrowthTime:   unlessDefault(time.Duration(s.GrowthTime), fuzz.DefaultGrowthTime)}
}

// regressionOrigin is the '# origin:' of finding f's regression file: the
// campaign's graph that showed it, and where its minimized graph comes
// from: this campaign's minimizer, or the state's store, which an
// earlier run minimized it into (Finding.MinimizedStored); or why the
// graph is the one found, not minimized (Finding.NotMinimized).
func regressionOrigin(rep *fuzz.Report, f *fuzz.Finding, command string) string {
	origin := fmt.Sprintf("cfgfuzz %s, seed %d, graph %d (%s)", command, rep.Settings.Seed, f.Subject().Index, f.Subject().Stream)
	switch {
	case !f.MinimizedStored && !f.IsMinimized && f.NotMinimized != "":
		return origin + ", not minimized: " + f.NotMinimized
	case !f.MinimizedStored:
		return origin + ", minimized"
	}
	origin += "; minimized by an earlier run"
	if rep.State != nil {
		for _, c := range rep.State.Signatures {
			if c.Signature == f.Signature && c.Strategy == f.Strategy && c.FirstSeen != "" {
				origin += " (the signature first seen on night " + c.FirstSeen + ")"
				break
			}
		}
	}
	return origin + ", from the state's store"
}

// regressionDate is the date a regression file records: the night's, for
// a campaign with a state, else today's (UTC).
func regressionDate(rep *fuzz.Report) string {
	if rep.State != nil && rep.State.Night != "" {
		return rep.State.Night
	}
	return time.Now().UTC().Format("2006-01-02")
}

// regressionChecks is a finding's pinned checks (checksHeader) as a
// regression file records them: changes of the defaults where those are
// fewer and resolve to the same checks (fuzz.ChecksValue: "-fallback" for
// --allow-fallbacks), else the names. regress judges a file without
// '# checks:' under its own defaults, checks a later cfgfuzz adds and the
// gpu check where a Vulkan device is among them; a file of changes is
// judged under those defaults less what its campaign left out, so the
// suite's files all gain the checks a later cfgfuzz brings. A finding's
// header keeps the names: it says how that graph was judged.
func regressionChecks(pinned string) string {
	if pinned == "" {
		return ""
	}
	return fuzz.ChecksValue(oracle.ResolveChecks(pinned))
}

// checksHeader is a campaign's checks (Settings.Checks, resolved; nil
// the defaults) as a finding's header records them: the names of the
// checks, pinned (corpus.PinChecks), not the changes of the defaults its
// replay commands give (fuzz.ChecksValue: "-fallback" for
// --allow-fallbacks), which a later cfgfuzz would resolve against its
// own defaults; "" the defaults. A regression file records them as
// regressionChecks gives them.
func checksHeader(checks []string) string {
	return corpus.PinChecks(strings.Join(checks, ","))
}

// unlessDefault is d, or 0 where it is the default def (or 0 itself).
func unlessDefault(d, def time.Duration) time.Duration {
	if d == def {
		return 0
	}
	return d
}

// regressionName is the file name of finding f saved under header h: its
// signature in letters, digits and dashes, then a digest of what the file
// judges (the header's signature, strategy, faults, structurizer, register
// file, target environment, rules reading, walks, checks and limits, and
// the minimized graph), so
// two findings never share a name, nor one bug of two structurizers
// minimized to the same graph, and the same finding found again does.
func regressionName(h corpus.Header, f *fuzz.Finding) string {
	base := strings.Trim(nameRun.ReplaceAllString(strings.ToLower(f.Signature), "-"), "-")
	if len(base) > 48 {
		base = strings.TrimRight(base[:48], "-")
	}
	judged := fmt.Sprint(h.Signature, "\x00", h.Strategy, "\x00", h.Fault, "\x00", h.Structurizer, "\x00", h.Registers, "\x00",
		h.TargetEnv, "\x00", h.RulesCompat, "\x00", f.Minimized, "\x00", f.MinimizedWeights)
	if h.Walks != nil {
		judged += "\x00" + h.Walks.String()
	}
	if h.Checks != "" || h.Timeout != 0 || h.CheckTimeout != 0 {
		judged += fmt.Sprint("\x00", h.Checks, "\x00", h.Timeout, "\x00", h.CheckTimeout)
	}
	if h.GrowthTime != 0 {
		judged += "\x00growth-time " + h.GrowthTime.String()
	}
	sum := sha256.Sum256([]byte(judged))
	return cmp.Or(base, "finding") + "-" + hex.EncodeToString(sum[:4])
}

// nameRun is a run of characters a regression's name leaves out.
var nameRun = regexp.MustCompile(`[^a-z0-9]+`)
