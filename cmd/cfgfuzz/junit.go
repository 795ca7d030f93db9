// junit.go: JUnit XML for `cfgfuzz regress --junit FILE`, the report format
// CI systems read (the schema of Ant's JUnit task as Jenkins, GitLab and
// GitHub's test reporters take it): one testsuite per regression
// directory, one testcase per case (clean, fault:NAMES), a <failure> for a
// case that did not give what its file expects, an <error> for one that
// could not be judged, <skipped> for one not run here (a fault case the
// structurizer cannot plant), an <error> for each file a time budget left
// unreplayed, and one for an interruption.

package main

import (
	"encoding/xml"
	"fmt"
	"os"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
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
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// junitReport is the cases of one directory as JUnit XML; replay gives
// each case's reproduction command for the failure's body.
func junitReport(dir string, cases []corpus.ReplayCase, replay func(corpus.ReplayCase) string) junitSuites {
	s := junitSuite{Name: "cfgfuzz regress " + dir}
	var total float64
	for _, c := range cases {
		secs := c.Elapsed.Seconds()
		total += secs
		jc := junitCase{Name: c.Regression.Name + " " + c.Case, ClassName: "cfgfuzz.regress", File: c.Regression.Path, Time: fmt.Sprintf("%.3f", secs)}
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
// that was not replayed: a case not run is never counted as passed.
func (r *junitSuites) addNotRun(reg *corpus.Regression, message string) {
	s := &r.Suites[0]
	s.Cases = append(s.Cases, junitCase{Name: reg.Name + " not-run", ClassName: "cfgfuzz.regress", File: reg.Path, Time: "0.000", Error: &junitProblem{Message: message, Type: "not-run"}})
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
