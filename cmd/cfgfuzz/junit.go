// junit.go: JUnit XML for `cfgfuzz regress --junit FILE`, the report format
// CI systems read (the schema of Ant's JUnit task as Jenkins, GitLab and
// GitHub's test reporters take it): one testsuite per regression
// directory, one testcase per case (clean, fault:NAMES), a <failure> for a
// case that did not give what its file expects, an <error> for one that
// could not be judged, <skipped> for one not run here (a fault case the
// structurizer cannot plant), an <error> for each file a time budget left
// unreplayed, and one for an interruption. Each case of a file carries
// <properties> (junitProperties): the signature the file guards, its graph
// in compact notation (or the file's path past junitGraphCap) and the walks
// and seed it was judged under.
//
// What readers take: GitLab reads a testcase's name, classname, file and
// time and its failure, error, skipped, system-out and system-err, and
// ignores <properties>; Jenkins' JUnit plugin reads testcase <properties>
// and keeps them with keepProperties: true (ignored by default); both, and
// the GitHub test reporters, ignore what they do not know. A testcase's
// file attribute and <properties>, and testsuites' skipped, are outside
// the junit-10.xsd schema that the Jenkins xUnit plugin validates against:
// that plugin refuses the file, where the readers above take it. file stays:
// GitLab shows it, and leaving it out would not make the file valid under
// that schema, which has no place for the properties either.

package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"strconv"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string `xml:"name,attr"`
	ClassName string `xml:"classname,attr"`
	File      string `xml:"file,attr,omitempty"`
	Time      string `xml:"time,attr"`
	// Properties come first, before the verdict, as pytest and Jenkins'
	// JUnit plugin write and read them.
	Properties *junitProperties `xml:"properties,omitempty"`
	Failure    *junitProblem    `xml:"failure,omitempty"`
	Error      *junitProblem    `xml:"error,omitempty"`
	Skipped    *junitProblem    `xml:"skipped,omitempty"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitGraphCap is the longest graph, in bytes of compact notation, that
// a case's properties hold as its "graph"; a longer one is named by its
// file's path ("graph_file"), so that a suite of large graphs does not
// swell the CI system's record of every run (Jenkins keeps the properties
// with each build). 2 KiB holds a minimized graph of some 150 blocks.
const junitGraphCap = 2048

// caseProperties are the <properties> of every case of file r, judged
// under walks: the signature it guards ("none" for a shape), its graph in
// compact notation or, past junitGraphCap (or for a file that did not
// read), its path, and the walks and their seed.
func caseProperties(r *corpus.Regression, walks corpus.Walks) *junitProperties {
	sig := r.Header.Signature
	if sig == "" {
		sig = corpus.SignatureNone
	}
	props := []junitProperty{{"signature", sig}}
	if r.Graph != nil && len(cfg.FormatCompact(r.Graph)) <= junitGraphCap {
		props = append(props, junitProperty{"graph", cfg.FormatCompact(r.Graph)})
	} else { // past the cap, or a file that did not read
		props = append(props, junitProperty{"graph_file", r.Path})
	}
	props = append(props, junitProperty{"walks", strconv.Itoa(walks.Random)}, junitProperty{"seed", strconv.FormatUint(walks.Seed, 10)})
	return &junitProperties{Property: props}
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// junitReport is the cases of one directory as JUnit XML; replay gives
// each case's reproduction command for the failure's body, and walks the
// walks each file was judged under.
func junitReport(dir string, cases []corpus.ReplayCase, replay func(corpus.ReplayCase) string, walks func(*corpus.Regression) corpus.Walks) junitSuites {
	s := junitSuite{Name: "cfgfuzz regress " + dir}
	var total float64
	for _, c := range cases {
		secs := c.Elapsed.Seconds()
		total += secs
		jc := junitCase{Name: c.Regression.Name + " " + c.Case, ClassName: "cfgfuzz.regress", File: c.Regression.Path, Time: fmt.Sprintf("%.3f", secs),
			Properties: caseProperties(c.Regression, walks(c.Regression))}
		msg := fmt.Sprintf("want %s, got %s", c.Want, c.Got)
		body := c.Regression.Path + "\nreplay: " + replay(c) + "\n"
		if c.Detail != "" {
			body += c.Got + ": " + fuzz.Printable(c.Detail) + "\n"
		}
		switch c.Status {
		case corpus.CaseFail:
			jc.Failure = &junitProblem{Message: msg, Type: "signature", Body: body}
			s.Failures++
		case corpus.CaseError:
			jc.Error = &junitProblem{Message: c.Got, Type: "harness", Body: body}
			s.Errors++
		case corpus.CaseSkip:
			jc.Skipped = &junitProblem{Message: c.Got}
			s.Skipped++
		}
		s.Cases = append(s.Cases, jc)
		s.Tests++
	}
	s.Time = fmt.Sprintf("%.3f", total)
	return junitSuites{Name: "cfgfuzz regress", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Skipped: s.Skipped, Time: s.Time, Suites: []junitSuite{s}}
}

// addError adds an error case of its own to the first suite: what kept
// the run from judging every case (an interruption).
func (r *junitSuites) addError(name, message string) {
	s := &r.Suites[0]
	s.Cases = append(s.Cases, junitCase{Name: name, ClassName: "cfgfuzz.regress", Time: "0.000", Error: &junitProblem{Message: message, Type: "interrupted"}})
	s.Tests++
	s.Errors++
	r.Tests++
	r.Errors++
}

// addNotRun adds an error case of its own to the first suite for a file
// that was not replayed, which would have been judged under walks: a case
// not run is never counted as passed.
func (r *junitSuites) addNotRun(reg *corpus.Regression, walks corpus.Walks, message string) {
	s := &r.Suites[0]
	s.Cases = append(s.Cases, junitCase{Name: reg.Name + " not-run", ClassName: "cfgfuzz.regress", File: reg.Path, Time: "0.000",
		Properties: caseProperties(reg, walks), Error: &junitProblem{Message: message, Type: "not-run"}})
	s.Tests++
	s.Errors++
	r.Tests++
	r.Errors++
}

// writeJUnit writes the report to file: through a temporary file renamed
// into place (corpus.ReplaceFile), so that a process ending at once (a
// second stop signal) leaves the old file or the new one whole and knows
// which (tidy.Replaced); in place when file is there and not a regular
// file (/dev/stdout, a FIFO), which no rename replaces.
func writeJUnit(file string, r junitSuites) error {
	b, err := xml.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	b = append([]byte(xml.Header), append(b, '\n')...)
	if st, err := os.Stat(file); err == nil && !st.Mode().IsRegular() {
		return os.WriteFile(file, b, 0o644)
	}
	return corpus.ReplaceFile(file, b)
}
