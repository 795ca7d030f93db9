// provenance.go: where a report comes from. The tool's module version and
// VCS revision as the Go toolchain records them in the binary
// (runtime/debug.ReadBuildInfo), the date the report was written, the host,
// and both sides' structurizer specs; `cfgfuzz --version` prints the same
// build facts.

package fuzz

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"
)

// Build is what the binary records about its own build.
type Build struct {
	// Module is the main module's path; Version its version: a tag or
	// pseudo-version when installed with `go install m@v`, "(devel)" when
	// built inside a checkout.
	Module  string `json:"module"`
	Version string `json:"version"`
	// Revision is the VCS commit the binary was built from, "" when the
	// build did not record one (go test, a build outside a checkout);
	// Dirty says the checkout had uncommitted changes.
	Revision string `json:"revision,omitempty"`
	Dirty    bool   `json:"dirty,omitempty"`
	Go       string `json:"go"` // the toolchain's version
}

// ThisBuild reads the running binary's build information.
func ThisBuild() Build {
	b := Build{Module: "github.com/cfgfuzz/cfgfuzz", Version: "(unknown)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if bi.Main.Path != "" {
		b.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		b.Version = bi.Main.Version
	}
	for _, st := range bi.Settings {
		switch st.Key {
		case "vcs.revision":
			b.Revision = st.Value
		case "vcs.modified":
			b.Dirty = st.Value == "true"
		}
	}
	return b
}

// String is the one-line form `cfgfuzz --version` prints: module, version,
// revision (+dirty) or why there is none (NoVCSStamp, in short), toolchain,
// host.
func (b Build) String() string {
	rev := "revision unknown: no VCS stamp"
	if b.Revision != "" {
		rev = "revision " + b.Revision
		if b.Dirty {
			rev += "+dirty"
		}
	}
	return fmt.Sprintf("cfgfuzz %s (%s %s, %s, %s)", b.Version, b.Module, rev, b.Go, Host())
}

// Host is the machine's GOOS/GOARCH.
func Host() string { return runtime.GOOS + "/" + runtime.GOARCH }

// Provenance is report.json's "provenance" object.
type Provenance struct {
	Tool Build  `json:"tool"`
	Date string `json:"date"` // when the report was written, RFC 3339 in UTC
	Host string `json:"host"` // GOOS/GOARCH of the machine that wrote it
	// Current and Baseline are the sides' structurizer specs (fuzz.Spec;
	// Baseline "" without one).
	Current  string `json:"current"`
	Baseline string `json:"baseline,omitempty"`
	// Writer is the cfgfuzz that wrote the campaign's log and report, as
	// campaign.json records it (writer.go): the log format and the build.
	Writer Writer `json:"writer"`
}

// NewProvenance is the provenance of a report on the campaign s written
// at now by the writer w.
func NewProvenance(s *Settings, w Writer, now time.Time) *Provenance {
	return &Provenance{Tool: ThisBuild(), Date: now.UTC().Format(time.RFC3339), Host: Host(),
		Current: s.Current, Baseline: s.Baseline, Writer: w}
}

// Line is the provenance as one sentence, for report.md and report.html.
func (p *Provenance) Line() string {
	s := fmt.Sprintf("Written %s on %s by %s", p.Date, p.Host, p.Tool)
	if p.Writer.Build != "" {
		// the name merge and --resume compare, which the version line
		// leaves out for a build named at link time or without VCS
		// information
		s += ", writer " + p.Writer.String()
	}
	s += "; current side " + p.Current
	if p.Baseline != "" {
		s += ", baseline " + p.Baseline
	}
	return s + "."
}
