// main_test.go: the tests' way into a command, in this process.
package main

import "io"

// run runs the command args names as main does, but with builds that
// nothing but their context stops (runStopping with no BuildStop): the
// test process has no stop handler of its own.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runStopping(args, stdin, stdout, stderr, nil)
}
