// projectflags.go: --build and --serve, the commands that build and serve
// the revisions of a repo:DIR@REV structurizer, defined once with one
// meaning on every command that takes a structurizer spec (check,
// minimize, regress, run, compare, selftest, bench) and on bisect. Each
// one given replaces its half of DIR/.cfgfuzz.json (fuzz.ProjectFor), as
// compare takes them; given where no structurizer of the
// command is a repo: spec, it is a usage error naming the flag. A
// campaign records them (Settings.Project), and every replay command and
// regression header naming a repo: spec carries them, so that the replay
// builds and serves the revision the way the run that printed it did.

package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// projectFlags are the values of --build and --serve; "" each: DIR's
// .cfgfuzz.json gives it.
type projectFlags struct {
	build, serve string
}

// Usages of the project flags.
const (
	buildUsage = "a repo:DIR@REV structurizer's build: the shell `CMD` that builds a revision in its checkout, once per commit ({worktree}, {rev}, {out} substituted, each quoted where it holds a character the shell reads: {rev}, a commit hash, never does and may stand inside quotes; a path with a space does, so write {worktree} and {out} outside quotes); replaces the \"build\" of DIR/" + fuzz.ConfigFile + "; only with a repo: spec (bisect: with --repo)"
	serveUsage = "a repo:DIR@REV structurizer's server: the shell `CMD` that serves the protocol from a built revision (same substitutions), run in {out} (in the checkout when it names {worktree}): name the program {out}/NAME or {worktree}/PATH; replaces the \"serve\" of DIR/" + fuzz.ConfigFile + "; only with a repo: spec (bisect: with --repo)"
)

// define declares the flags on fs.
func (p *projectFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&p.build, "build", "", buildUsage)
	fs.StringVar(&p.serve, "serve", "", serveUsage)
}

// given says whether --build or --serve is given.
func (p projectFlags) given() bool { return p.build != "" || p.serve != "" }

// project is the flags as the commands that replace DIR/.cfgfuzz.json's.
func (p projectFlags) project() fuzz.Project {
	return fuzz.Project{Build: p.build, Serve: p.serve}
}

// names are the flags given, as a usage error names them.
func (p projectFlags) names() string {
	var names []string
	if p.build != "" {
		names = append(names, "--build")
	}
	if p.serve != "" {
		names = append(names, "--serve")
	}
	return strings.Join(names, " and ")
}

// needRepo refuses --build or --serve when none of the structurizer
// specs the command was given is a repo: spec: a command builds and
// serves nothing else with them. A spec that does not parse is left to
// its own error.
func (p projectFlags) needRepo(specs ...string) error {
	if !p.given() {
		return nil
	}
	var named []string
	for _, s := range specs {
		sp, err := fuzz.ParseSpec(s)
		if err != nil || sp.Kind == fuzz.SpecRepo {
			return nil
		}
		named = append(named, sp.String())
	}
	return fmt.Errorf("%s: builds and serves a repo:DIR@REV structurizer only, and this command's is %s", p.names(), strings.Join(named, " and "))
}

// recorded is the flags as a campaign records them for its repo specs
// (Settings.Project): nil when neither is given.
func (p projectFlags) recorded() *fuzz.Project {
	if !p.given() {
		return nil
	}
	pr := p.project()
	return &pr
}
