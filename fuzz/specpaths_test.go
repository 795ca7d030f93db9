package fuzz

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMapPathsFindsThePathsResolveMakesAbsolute: MapPaths hands f the words
// of a cmd spec that read as paths (and a placeholder's) and a repo spec's
// DIR, nothing else, and quotes an answer a shell would split.
func TestMapPathsFindsThePathsResolveMakesAbsolute(t *testing.T) {
	upper := func(p string) string { return "<" + p + ">" }
	for _, c := range []struct{ in, want string }{
		{"cmd:/a/adapter --x", "cmd:'</a/adapter>' --x"},
		{"cmd:python3 tools/ss.py --conf=a/b", "cmd:python3 '<tools/ss.py>' --conf=a/b"},
		{"cmd:{repo}/tools/ss {dir}/x", "cmd:'<{repo}/tools/ss>' '<{dir}/x>'"},
		{"cmd:make -C {repo} {dir}x {repo}x/y", "cmd:make -C '<{repo}>' {dir}x {repo}x/y"},
		{"cmd:'/a b/ad' --x", "cmd:'</a b/ad>' --x"},
		{`cmd:"/a b/ad" --x`, "cmd:'</a b/ad>' --x"},
		{`cmd:$HOME/x {Repo}/x {}/x {repo 'a b'/x "$D/x" 'it''s/x'`, `cmd:$HOME/x {Repo}/x {}/x {repo 'a b'/x "$D/x" 'it''s/x'`},
		{"cmd:adapter", "cmd:adapter"},
		{"repo:/src/p@v1", "repo:</src/p>@v1"},
		{"rev:main", "rev:main"},
		{"isolated", "isolated"},
		{"self", "self"},
	} {
		if got := MustParseSpec(c.in).MapPaths(upper).String(); got != c.want {
			t.Errorf("MapPaths(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	same := func(p string) string { return p }
	for _, s := range []string{"cmd:./a  b", "cmd:'/a  b/c' -x", `cmd:sh -c 'exec /x/y  z'`, "cmd:{repo}/a --x /y", "repo:{repo}@abc"} {
		if got := MustParseSpec(s).MapPaths(same).String(); got != s {
			t.Errorf("MapPaths(%s) with the paths unchanged = %s", s, got)
		}
	}
}

// TestMapPathsQuotesForTheShell: a path with a space put into a command
// reaches the program as one argument.
func TestMapPathsQuotesForTheShell(t *testing.T) {
	s := MustParseSpec("cmd:printf %s:%s {repo}/x/y end").MapPaths(func(p string) string {
		return strings.Replace(p, "{repo}", "/my proj", 1)
	})
	out, err := exec.Command("sh", "-c", "exec "+s.Cmd).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "/my proj/x/y:end" {
		t.Errorf("%s printed %q, want the path as one argument", s, out)
	}
}

// TestMapPathsReadsQuotedPaths: a path quoted as one word (one in a
// directory with a space, as Resolve records it) is a path too, and its
// answer of plain path characters goes unquoted.
func TestMapPathsReadsQuotedPaths(t *testing.T) {
	s := MustParseSpec("cmd:'/my proj/tools/ad' --x '/my proj/conf'").MapPaths(func(p string) string {
		return strings.Replace(p, "/my proj", "{repo}", 1)
	})
	if want := "cmd:{repo}/tools/ad --x {repo}/conf"; s.String() != want {
		t.Errorf("MapPaths = %s, want %s", s, want)
	}
}

// TestExecLineAfterAssignments: a server's command line gets exec before
// its program, after the variable assignments that lead it, and a shell
// then runs the program with them in its environment; a command of
// several (a list, a pipeline) or led by a builtin runs as written.
func TestExecLineAfterAssignments(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"./adapter -v", "exec ./adapter -v"},
		{"FAULT=segv ./adapter", "FAULT=segv exec ./adapter"},
		{"A=1 B_2='x y' python3 a.py", "A=1 B_2='x y' exec python3 a.py"},
		{"1A=2 ./adapter", "exec 1A=2 ./adapter"}, // no name: a program's word
		{"./a --opt=1", "exec ./a --opt=1"},
		{"{out}/adapter", "exec {out}/adapter"},
		{"exec ./adapter", "exec ./adapter"},
		{"FAULT=1 command ./adapter", "FAULT=1 command ./adapter"},
		{"cd /opt/x && ./adapter", "cd /opt/x && ./adapter"},
		{"./adapter | tee log", "./adapter | tee log"},
		{"./adapter 'a;b' \"(c)\"", "exec ./adapter 'a;b' \"(c)\""},
	} {
		if got := execLine(tc.cmd); got != tc.want {
			t.Errorf("execLine(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
	out, err := exec.Command("sh", "-c", execLine(`GREETING='hello there' sh -c 'echo "$GREETING"'`)).Output()
	if err != nil || string(out) != "hello there\n" {
		t.Errorf("the program saw %q, %v; want the assignment in its environment", out, err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("sh", "-c", execLine("cd "+dir+" && X=7 sh -c 'echo $X $(pwd)'")).Output(); err != nil || string(out) != "7 "+dir+"\n" {
		t.Errorf("a list ran as %q, %v; want it run as written", out, err)
	}
	if got := programOf("FAULT=segv /opt/adapter --fast"); got != "/opt/adapter" {
		t.Errorf("programOf past an assignment = %q, want /opt/adapter", got)
	}
}

func TestRelativeCd(t *testing.T) {
	for spec, want := range map[string]string{
		"cmd:cd tools && ./adapter":         "tools",
		"cmd:cd ../x; ./a":                  "../x",
		"cmd:cd /opt/tools && ./adapter":    "",
		"cmd:cd {repo}/tools && ./adapter":  "",
		"cmd:FOO=1 ./adapter --cd here":     "",
		"cmd:./adapter":                     "",
		"repo:.@HEAD":                       "",
		"cmd:sh -c 'cd tools && ./adapter'": "tools",
		"cmd:(cd build && exec ./adapter)":  "build",
		`cmd:cd "/tmp/w" && ./a`:            "",
		"cmd:cd '/tmp/a b' && ./a":          "",
		"cmd:cd -P tools && ./a":            "tools",
		"cmd:cd tools&&./cf":                "tools",
		`cmd:cd "tools" && ./a`:             "tools",
		"cmd:pushd tools && ./adapter":      "tools",
		"cmd:pushd -- tools && ./a":         "tools",
		"cmd:pushd -n tools && ./a":         "",
		"cmd:pushd -n x; cd build && ./a":   "build",
		"cmd:pushd +1 && ./a":               "",
		"cmd:pushd -x tools && ./a":         "",
		"cmd:pushd /opt/tools && ./a":       "",
		"cmd:./adapter pushd tools":         "",
		"cmd:bash -c 'pushd tools && ./a'":  "tools",
	} {
		if got := RelativeCd(spec); got != want {
			t.Errorf("RelativeCd(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestRelativeCdInAShellsCommandString: a cd in the command string of a
// shell run with -c (sh, bash, dash, zsh, ksh, mksh, past each one's
// options as it reads them: bash -oc pipefail, zsh -xoshwordsplit, ksh -R
// FILE, mksh -T TTY), in single or double quotes, counts as the command's
// own; an absolute one, a cd that is no command's, a -c that is a
// script's argument, and one of a shell the table does not know (csh) do
// not.
func TestRelativeCdInAShellsCommandString(t *testing.T) {
	for spec, want := range map[string]string{
		`cmd:sh -c "cd tools && ./adapter"`:             "tools",
		`cmd:bash -c 'cd tools && ./adapter'`:           "tools",
		`cmd:bash -c "cd tools; exec ./adapter"`:        "tools",
		`cmd:/bin/sh -c 'cd build/bin && ./a'`:          "build/bin",
		`cmd:bash -ec 'cd tools && ./a'`:                "tools",
		`cmd:bash -o pipefail -c "cd tools && ./a"`:     "tools",
		`cmd:bash --norc -c 'cd tools && ./a'`:          "tools",
		`cmd:FOO=1 exec sh -c 'cd tools && ./a'`:        "tools",
		`cmd:cd /opt && sh -c 'cd tools && ./a'`:        "tools",
		`cmd:sh -c "cd \"my tools\" && ./a"`:            "my tools",
		`cmd:sh -c 'cd "my tools" && ./a'`:              "my tools",
		`cmd:bash -c "bash -c 'cd inner && ./a'"`:       "inner",
		`cmd:sh -c 'cd /opt/tools && ./adapter'`:        "",
		`cmd:bash -c "cd {repo}/tools && ./adapter"`:    "",
		`cmd:sh -c './adapter --cd here'`:               "",
		`cmd:sh ./run.sh -c 'cd tools'`:                 "",
		`cmd:./adapter --shell sh -c 'cd tools && ./a'`: "",
		`cmd:sh -c`:                                    "",
		`cmd:zsh -c 'cd tools && ./a'`:                 "tools",
		`cmd:/usr/bin/zsh -fc "cd tools && ./a"`:       "tools",
		`cmd:zsh -o shwordsplit -c 'cd tools && ./a'`:  "tools",
		`cmd:zsh -xo shwordsplit -c 'cd tools && ./a'`: "tools",
		`cmd:zsh -xoshwordsplit -c 'cd tools && ./a'`:  "tools",
		`cmd:zsh --sh-word-split -c 'cd tools && ./a'`: "tools",
		`cmd:zsh -c 'pushd tools && ./a'`:              "tools",
		`cmd:ksh -c 'cd tools && ./a'`:                 "tools",
		`cmd:ksh -R xref -c 'cd tools && ./a'`:         "tools",
		`cmd:mksh -c 'cd tools && ./a'`:                "tools",
		`cmd:mksh -T - -c 'cd tools && ./a'`:           "tools",
		`cmd:bash -oc pipefail 'cd tools && ./a'`:      "tools",
		`cmd:bash -O extglob -c 'cd tools && ./a'`:     "tools",
		`cmd:bash --rcfile ./rc -c 'cd tools && ./a'`:  "tools",
		`cmd:sh -c - 'cd tools && ./a'`:                "tools",
		`cmd:zsh ./run.zsh -c 'cd tools'`:              "",
		`cmd:csh -c 'cd tools && ./a'`:                 "",
	} {
		if got := RelativeCd(spec); got != want {
			t.Errorf("RelativeCd(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestRelativeCdThroughCommandWrappers: a cd in the command string of a
// shell run through a program that runs a command (env, nice, timeout,
// nohup, setsid, with their options and timeout's duration) counts, as in
// dash's; a cd that is an argument of another program (./adapter cd
// tools), wrapped or not, is no command and does not.
func TestRelativeCdThroughCommandWrappers(t *testing.T) {
	for spec, want := range map[string]string{
		`cmd:dash -c "cd tools && ./adapter"`:                    "tools",
		`cmd:/bin/dash -c 'cd tools; exec ./a'`:                  "tools",
		`cmd:env bash -c "cd tools && ./a"`:                      "tools",
		`cmd:/usr/bin/env bash -c "cd tools && ./a"`:             "tools",
		`cmd:env -i FOO=1 sh -c 'cd tools && ./a'`:               "tools",
		`cmd:env -u HOME -- sh -c 'cd tools && ./a'`:             "tools",
		`cmd:timeout 5 sh -c "cd tools && ./a"`:                  "tools",
		`cmd:timeout -s KILL -k 1 5s bash -c 'cd tools && ./a'`:  "tools",
		`cmd:timeout --foreground 5 sh -c 'cd tools && ./a'`:     "tools",
		`cmd:nice sh -c "cd tools && ./a"`:                       "tools",
		`cmd:nice -n 5 sh -c 'cd tools && ./a'`:                  "tools",
		`cmd:nice -n5 sh -c 'cd tools && ./a'`:                   "tools",
		`cmd:nice -10 sh -c 'cd tools && ./a'`:                   "tools",
		`cmd:nohup setsid sh -c 'cd tools && ./a'`:               "tools",
		`cmd:timeout 5 zsh -c 'cd tools && ./a'`:                 "tools",
		`cmd:nice -n 5 ksh -c "cd tools && ./a"`:                 "tools",
		`cmd:env -i mksh -c 'cd tools && ./a'`:                   "tools",
		`cmd:timeout 5 bash -c 'pushd tools && ./a'`:             "tools",
		`cmd:command pushd tools && ./a`:                         "tools",
		`cmd:FOO=1 nice timeout 5 env bash -c 'cd tools && ./a'`: "tools",
		`cmd:timeout 5 ./a; cd tools && ./b`:                     "tools",
		`cmd:if cd tools; then ./a; fi`:                          "tools",
		`cmd:./adapter cd tools`:                                 "",
		`cmd:FOO=1 ./adapter cd tools`:                           "",
		`cmd:./adapter --mode fast -- cd tools`:                  "",
		`cmd:echo cd tools && ./a`:                               "",
		`cmd:exec ./adapter cd tools`:                            "",
		`cmd:nice ./adapter cd tools`:                            "",
		`cmd:timeout 5 ./adapter cd tools`:                       "",
		`cmd:env FOO=1 ./adapter cd tools`:                       "",
		`cmd:sh -c './adapter cd tools'`:                         "",
		`cmd:timeout 5 sh ./run.sh -c 'cd tools'`:                "",
		`cmd:nice -n 5 dash -c 'cd /opt/tools && ./a'`:           "",
		`cmd:./adapter --wrap "sh -c 'cd tools && ./a'"`:         "",
		`cmd:./adapter --then timeout 5 sh -c 'cd tools && ./a'`: "",
	} {
		if got := RelativeCd(spec); got != want {
			t.Errorf("RelativeCd(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestRelativeCdThroughWrappersOptions: a command wrapper's options are
// read as the program reads them, from its table: a long option that
// takes a value takes the next word when none is attached (timeout
// --signal KILL 5, nice --adjustment 5, env --unset FOO), abbreviated
// too; a flag takes none. An env -C DIR (--chdir) is a cd DIR; a
// program whose options make it run no command (command -v, ionice -p,
// --help) runs no cd.
func TestRelativeCdThroughWrappersOptions(t *testing.T) {
	for spec, want := range map[string]string{
		`cmd:timeout --signal KILL 5 sh -c 'cd tools && ./adapter'`:  "tools",
		`cmd:timeout --signal=KILL 5 sh -c 'cd tools && ./adapter'`:  "tools",
		`cmd:timeout --kill-after 1 5 sh -c 'cd tools && ./adapter'`: "tools",
		`cmd:timeout --sig KILL --kill 1 5 sh -c 'cd tools && ./a'`:  "tools",
		`cmd:timeout -v --preserve-status 5 sh -c 'cd tools && ./a'`: "tools",
		`cmd:timeout -vsKILL 5 sh -c 'cd tools && ./a'`:              "tools",
		`cmd:nice --adjustment 5 sh -c 'cd tools && ./adapter'`:      "tools",
		`cmd:nice -n -5 sh -c 'cd tools && ./adapter'`:               "tools",
		`cmd:env --unset FOO sh -c 'cd tools && ./adapter'`:          "tools",
		`cmd:env -iu FOO sh -c 'cd tools && ./adapter'`:              "tools",
		`cmd:env --ignore-environment FOO=1 sh -c 'cd tools && ./a'`: "tools",
		`cmd:stdbuf --output L sh -c 'cd tools && ./a'`:              "tools",
		`cmd:stdbuf -oL -e 0 sh -c 'cd tools && ./a'`:                "tools",
		`cmd:ionice --class 3 sh -c 'cd tools && ./a'`:               "tools",
		`cmd:chrt --sched-runtime 5 -d 0 sh -c 'cd tools && ./a'`:    "tools",
		`cmd:setsid --fork sh -c 'cd tools && ./a'`:                  "tools",
		`cmd:exec -a name sh -c 'cd tools && ./a'`:                   "tools",
		`cmd:command cd tools && ./a`:                                "tools",
		`cmd:env -C tools ./adapter`:                                 "tools",
		`cmd:env - sh -c 'cd tools && ./a'`:                          "tools",
		`cmd:nice - sh -c 'cd tools && ./a'`:                         "",
		`cmd:env --chdir=tools ./adapter`:                            "tools",
		`cmd:env --chdir tools ./adapter`:                            "tools",
		`cmd:env -iC tools ./adapter`:                                "tools",
		`cmd:env -Ctools ./adapter`:                                  "tools",
		`cmd:env --ch "my tools" ./adapter`:                          "my tools",
		`cmd:nice env -C build/bin ./adapter`:                        "build/bin",
		`cmd:env -C /opt/tools ./adapter`:                            "",
		`cmd:env --chdir={repo}/tools ./adapter`:                     "",
		`cmd:env -C /opt sh -c 'cd tools && ./a'`:                    "tools",
		`cmd:env -C /opt zsh -c 'pushd tools && ./a'`:                "tools",
		`cmd:command -v pushd tools`:                                 "",
		`cmd:env -u FOO ./adapter cd tools`:                          "",
		`cmd:env --unset FOO ./adapter cd tools`:                     "",
		`cmd:timeout --signal KILL 5 ./adapter cd tools`:             "",
		`cmd:timeout --foreground 5 ./adapter cd tools`:              "",
		`cmd:nice --adjustment 5 ./adapter cd tools`:                 "",
		`cmd:env --debug ./adapter cd tools`:                         "",
		`cmd:env --block-signal ./adapter cd tools`:                  "",
		`cmd:command -v cd tools`:                                    "",
		`cmd:command -V cd tools && ./a`:                             "",
		`cmd:command -pv cd tools`:                                   "",
		`cmd:ionice -p 1 cd tools`:                                   "",
		`cmd:taskset -p 1 cd tools`:                                  "",
		`cmd:timeout --help sh -c 'cd tools && ./a'`:                 "",
		`cmd:nice --version sh -c 'cd tools && ./a'`:                 "",
		`cmd:command -v cd tools; cd build && ./a`:                   "build",
		`cmd:./adapter env -C tools`:                                 "",
		`cmd:echo env -C tools ./adapter`:                            "",
	} {
		if got := RelativeCd(spec); got != want {
			t.Errorf("RelativeCd(%q) = %q, want %q", spec, got, want)
		}
	}
}
