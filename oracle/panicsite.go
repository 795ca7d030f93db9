// panicsite.go: where a panic happened, for the reason of its signature.
// Two panics with one message from two functions (an index out of range
// in two passes) are two bugs: as syzkaller's crash titles name the
// function a report blames ("... in FUNCTION"), a panic's reason is its
// message led by the function that panicked, the top frame of the
// panicking goroutine's trace that is neither the runtime's nor the panic
// call. A function keeps its name however the graph that shows the bug
// shrinks, so the minimizer keeps the signature; line numbers and paths,
// which an edit moves, are left out.

package oracle

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
)

// goroutineHeader starts a goroutine's trace ("goroutine 1 [running]:",
// with GOTRACEBACK=system "goroutine 1 gp=0x... m=0 mp=0x... [running]:").
var goroutineHeader = regexp.MustCompile(`^goroutine \d+ .*\[running\]:$`)

// PanicSite is the function a Go trace (a dead program's standard error
// after its "panic:" line, or runtime/debug.Stack taken in a deferred
// recover) shows panicking: in the first running goroutine's frames, the
// first after the panic call when the trace holds one (a recovered panic's
// trace starts with the recovering functions), else the first, skipping
// the runtime's; "" when the trace shows none. The function is named
// without its package's path: "lower.(*nester).place".
func PanicSite(trace string) string {
	var frames []string
	in := false
	for line := range strings.Lines(trace) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case !in:
			in = goroutineHeader.MatchString(line)
		case line == "" || strings.HasPrefix(line, "created by "):
			in = false
		case !strings.HasPrefix(line, "\t"):
			frames = append(frames, frameFunc(line))
		}
		if !in && len(frames) > 0 {
			break
		}
	}
	for i, f := range frames {
		if f == "panic" {
			frames = frames[i+1:]
			break
		}
	}
	for _, f := range frames {
		if f != "" && f != "panic" && !strings.HasPrefix(f, "runtime.") && !strings.HasPrefix(f, "runtime/") {
			if i := strings.LastIndexByte(f, '/'); i >= 0 {
				f = f[i+1:]
			}
			return f
		}
	}
	return ""
}

// frameFunc is a trace line's function without its arguments:
// "github.com/x/lower.(*nester).place(0xc000012345, 0x5)" is
// "github.com/x/lower.(*nester).place".
func frameFunc(line string) string {
	if i := strings.LastIndexByte(line, '('); i > 0 && strings.HasSuffix(line, ")") {
		line = line[:i]
	}
	return line
}

// WithSite is a panic's message led by its site ("" none).
func WithSite(site, msg string) string {
	if site == "" {
		return msg
	}
	return site + ": " + msg
}

// RecoveredPanic is what a deferred function that recovered p says of
// it: p's message led by the function that panicked, read from the
// goroutine's own trace. Call it from that deferred function.
func RecoveredPanic(p any) string {
	return WithSite(PanicSite(string(debug.Stack())), fmt.Sprint(p))
}
