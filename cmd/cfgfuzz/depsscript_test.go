// depsscript_test.go: .ci/deps.sh (make deps) on a machine that lacks
// every package, with the commands it runs stood in for by scripts that
// log their arguments (apt-get installs nothing, fuser says a lock is
// held as the test asks, sleep returns at once): it waits for apt's
// package lists' lock as for dpkg's, at most CFGFUZZ_APT_WAIT seconds and
// saying so, and names each package once.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// depsScript runs .ci/deps.sh with a PATH of stand-ins only; fuser says
// the package lists' lock is held for its first held calls that name it.
// It returns the exit error, standard error and the stand-ins' log, one
// "NAME ARGS" line a call.
func depsScript(t *testing.T, held int, wait string) (error, string, []string) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh here")
	}
	dir := t.TempDir()
	bin, log := filepath.Join(dir, "bin"), filepath.Join(dir, "log")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	stub := func(name, body string) {
		text := "#!" + sh + "\necho \"" + name + " $*\" >>" + log + "\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub("id", "echo 0")
	stub("dpkg", "exit 1")
	stub("dpkg-query", "exit 1")
	stub("apt-get", "exit 0")
	stub("sleep", "exit 0")
	count := filepath.Join(dir, "fuser-calls")
	stub("fuser", `case " $* " in *" /var/lib/apt/lists/lock "*) ;; *) exit 1 ;; esac
echo x >>`+count+`
[ "$(wc -l <`+count+`)" -le `+strconv.Itoa(held)+` ]`)
	for _, tool := range []string{"env", "seq", "grep", "tee", "wc"} { // what the script and the stand-ins run of the system's
		if p, err := exec.LookPath(tool); err == nil {
			if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(sh, filepath.Join("..", "..", ".ci", "deps.sh"))
	cmd.Env = []string{"PATH=" + bin, "CFGFUZZ_APT_WAIT=" + wait}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	b, _ := os.ReadFile(log)
	return err, stderr.String(), strings.Split(strings.TrimSpace(string(b)), "\n")
}

// calls is the log's lines of the stand-in name, its arguments.
func calls(log []string, name string) []string {
	var args []string
	for _, l := range log {
		if rest, ok := strings.CutPrefix(l, name+" "); ok || l == name {
			args = append(args, rest)
		}
	}
	return args
}

// twice is the words that appear more than once in words.
func twice(words []string) []string {
	var dup []string
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] && !slices.Contains(dup, w) {
			dup = append(dup, w)
		}
		seen[w] = true
	}
	return dup
}

func TestDepsWaitsForThePackageListsLock(t *testing.T) {
	err, stderr, log := depsScript(t, 3, "60")
	if err != nil {
		t.Fatalf("deps.sh with the lists' lock held for 3 looks: %v\n%s%s", err, stderr, strings.Join(log, "\n"))
	}
	if !strings.Contains(stderr, "waiting up to 60s for another apt or dpkg") || !strings.Contains(stderr, "/var/lib/apt/lists/lock") {
		t.Errorf("deps.sh waited without saying so, naming the lists' lock:\n%s", stderr)
	}
	if n := len(calls(log, "sleep")); n != 3 {
		t.Errorf("deps.sh slept %d times, want 3 (the lock held for 3 looks)\n%s", n, strings.Join(log, "\n"))
	}
	first, last := -1, -1 // the first apt-get call, the last fuser call
	for i, l := range log {
		if strings.HasPrefix(l, "apt-get ") && first < 0 {
			first = i
		}
		if strings.HasPrefix(l, "fuser ") {
			last = i
		}
	}
	if first < 0 || last > first {
		t.Errorf("apt-get ran before the locks were free (first apt-get %d, last fuser %d)\n%s", first, last, strings.Join(log, "\n"))
	}
	apt := calls(log, "apt-get")
	if len(apt) != 2 || !strings.Contains(apt[0], "update") || !strings.Contains(apt[1], "install") || !strings.Contains(apt[1], "DPkg::Lock::Timeout=60") {
		t.Fatalf("apt-get calls %q: want update, then install waiting for dpkg's lock as long", apt)
	}
	installed := strings.Fields(apt[1][strings.Index(apt[1], "install -y -q")+len("install -y -q"):])
	want := []string{"spirv-tools", "libvulkan-dev", "pkg-config", "gcc", "g++", "rustc", "python3", "glslang-tools", "mesa-vulkan-drivers"}
	if !slices.Equal(installed, want) {
		t.Errorf("apt-get install %q, want %q", installed, want)
	}
	line := stderr[strings.Index(stderr, "installing:"):]
	line, _, _ = strings.Cut(line, "\n")
	if dup := twice(strings.Fields(strings.TrimPrefix(line, "installing:"))); len(dup) > 0 {
		t.Errorf("%q names %q twice", line, dup)
	}
}

func TestDepsGivesUpOnAHeldLock(t *testing.T) {
	err, stderr, log := depsScript(t, 9, "6")
	if err == nil || !strings.Contains(stderr, "still holds one of") || !strings.Contains(stderr, "after 6s") || !strings.Contains(stderr, "CFGFUZZ_APT_WAIT") {
		t.Errorf("deps.sh with the lists' lock held throughout: err %v, want a failure saying so\n%s", err, stderr)
	}
	if n := len(calls(log, "sleep")); n != 3 {
		t.Errorf("deps.sh slept %d times within 6s, want 3 (2 s each)\n%s", n, strings.Join(log, "\n"))
	}
	if apt := calls(log, "apt-get"); len(apt) != 0 {
		t.Errorf("apt-get ran while the lock was held: %q", apt)
	}
}
