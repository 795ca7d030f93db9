package oracle

import "testing"

// Traces as Go 1.26 wrote them: an uncaught runtime error in a method, an
// uncaught explicit panic, and debug.Stack taken where a deferred function
// recovered.
const (
	uncaughtTrace  = "panic: runtime error: index out of range [5] with length 1\n\ngoroutine 1 [running]:\nmain.(*nester).place(...)\n\t/tmp/gp/main.go:11\nmain.main()\n\t/tmp/gp/main.go:19 +0x73\n"
	explicitTrace  = "panic: loop header b7\n\ngoroutine 1 [running]:\ngithub.com/acme/lower/passes.explicit(...)\n\t/src/passes/main.go:13\nmain.main()\n\t/src/main.go:21 +0xbe\n"
	recoveredStack = "goroutine 1 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\nmain.main.func1.1()\n\t/tmp/gp/main.go:26 +0x2b\npanic({0x4bc840?, 0x2c6c42b64078?})\n\t/usr/local/go/src/runtime/panic.go:860 +0x13a\nmain.(*nester).place(...)\n\t/tmp/gp/main.go:11\nmain.main.func1.2(...)\n\t/tmp/gp/main.go:29\n"
	systemTrace    = "panic: boom\n\ngoroutine 1 gp=0xc000002380 m=0 mp=0x5a4f40 [running]:\nruntime.gopanic({0x4bc840?, 0x2c6c42b64078?})\n\t/usr/local/go/src/runtime/panic.go:800 +0x13a\ndebug.(*Log).merge(...)\n\t/src/debug/log.go:5\n"
)

func TestPanicSite(t *testing.T) {
	for _, c := range []struct{ name, trace, want string }{
		{"uncaught runtime error", uncaughtTrace, "main.(*nester).place"},
		{"explicit, package path dropped", explicitTrace, "passes.explicit"},
		{"recovered: after the panic call", recoveredStack, "main.(*nester).place"},
		{"runtime frames skipped, a package named debug kept", systemTrace, "debug.(*Log).merge"},
		{"no trace", "panic: boom\n", ""},
		{"another goroutine's trace is not read", "panic: boom\n\ngoroutine 5 [chan receive]:\nmain.wait()\n", ""},
	} {
		if got := PanicSite(c.trace); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// Two functions with one message are two signatures; one function's
	// panic keeps its signature whatever the numbers.
	a := HarnessSignature(HarnessPanic, WithSite(PanicSite(uncaughtTrace), "runtime error: index out of range [5] with length 1"))
	b := HarnessSignature(HarnessPanic, WithSite("lower.buildLoops", "runtime error: index out of range [5] with length 1"))
	c := HarnessSignature(HarnessPanic, WithSite(PanicSite(recoveredStack), "runtime error: index out of range [3] with length 0"))
	if a == b || a != c || a != "structurize:panic:main.(*nester).place: runtime error: index out of range [N] with length N" {
		t.Errorf("signatures %q, %q, %q: want the first and last equal, the second apart", a, b, c)
	}
}
