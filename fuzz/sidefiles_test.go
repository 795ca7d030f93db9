// sidefiles_test.go: the files a cmd side's digest covers (namedFiles),
// read from the directory a cd before them changes into.
package fuzz

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNamedFilesAfterACd: a relative path after a cd is read from the
// cd's directory, at the top of the command and in the command string of
// a shell it runs, through the wrappers the relative-cd reading knows; a
// path before the cd, the cd's own (a directory, which the digest leaves
// out), and one after the shell whose command string changes directory
// are read from the working directory; one after env -C DIR from DIR for
// env's own command only; one after a cd to a directory the command does
// not name is left out.
func TestNamedFilesAfterACd(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	for cmd, want := range map[string][]string{
		`./adapter --model m/x.bin`:                      {"adapter", "m/x.bin"},
		`sh -c './adapter'`:                              {sh, "adapter"},
		`sh -c 'cd sub && ./prog'`:                       {sh, "sub/prog"},
		`bash -c "cd sub; exec ./prog m/x.bin"`:          {"", "sub/prog", "sub/m/x.bin"},
		`timeout 5 dash -c 'cd sub && cd bin && ./prog'`: {"", "sub/bin/prog"},
		`nice -n 5 sh -c 'cd /opt/tools && ./prog'`:      {"", "/opt/tools", "/opt/tools/prog"},
		`cd /abs/sub && ./prog`:                          {"", "/abs/sub/prog"},
		`./a; cd sub && ./b`:                             {"a", "sub/b"},
		`sh -c 'cd sub && ./prog' && ./after`:            {sh, "sub/prog", "after"},
		`env -C sub ./prog && ./after`:                   {"", "sub/prog", "after"},
		`sh -c 'cd $TOOLS && ./prog /abs/model'`:         {sh, "/abs/model"},
		`sh -c 'cd && ./prog'`:                           {sh},
		`sh -c 'cd sub && sh -c "cd bin && ./prog"'`:     {sh, "sub/bin/prog"},
		`FOO=1 sh -c 'cd sub && ./prog'`:                 {sh, "sub/prog"},
		`env bash -c "cd sub && ./prog" --model ./m.bin`: {"", "sub/prog", "m.bin"},
		`sh -c 'cd sub && ./prog' sh ./arg`:              {sh, "sub/prog", "arg"},
		`bash -c 'pushd sub && ./prog'`:                  {"", "sub/prog"},
		`/bin/zsh -fc 'cd sub && ./prog'`:                {"/bin/zsh", "sub/prog"},
		`./adapter cd sub ./model`:                       {"adapter", "model"},
	} {
		checkNamedFiles(t, cmd, want)
	}
}

// TestNamedFilesAfterACdThatDoesNotLast: a cd is followed only as long as
// it lasts in a shell: not past the ) of a subshell, the end of a
// pipeline it is part of or the & that runs its list in the background;
// a case's arms start where the case did, the ) of a pattern closes no
// subshell, and an arm that changes directory leaves it unknown after
// the esac;
// a popd returns to the directory its pushd left; a function's body is
// read where it is defined, and a call of one whose body changes
// directory leaves the directory unknown, its relative paths left out.
func TestNamedFilesAfterACdThatDoesNotLast(t *testing.T) {
	for cmd, want := range map[string][]string{
		`(cd sub && make) && ./adapter`:                           {"adapter"},
		`./a; (cd sub && ./b) && ./c`:                             {"a", "sub/b", "c"},
		`./a; (cd sub; (cd bin; ./b); ./c); ./d`:                  {"a", "sub/bin/b", "sub/c", "d"},
		`./a $(cd sub; pwd) ./b`:                                  {"a", "b"},
		`./a; cd sub & ./b`:                                       {"a", "b"},
		`./a; cd sub && ./b & ./c`:                                {"a", "sub/b", "c"},
		`./a; cd sub && ./b 2>&1 ./c`:                             {"a", "sub/b", "sub/c"},
		`./a; cd sub && ./b &>log ./c`:                            {"a", "sub/b", "sub/c"},
		`./a; cd sub | ./b`:                                       {"a", "b"},
		`./a | cd sub; ./b`:                                       {"a", "b"},
		`./a |& cd sub; ./b`:                                      {"a", "b"},
		`./a; cd sub && ./b | ./c; ./d`:                           {"a", "sub/b", "sub/c", "sub/d"},
		`./a || cd sub; ./b`:                                      {"a", "sub/b"},
		`./a; { cd sub; } | ./b`:                                  {"a", "b"},
		`./a; { cd sub; }; ./b`:                                   {"a", "sub/b"},
		`./a; pushd sub && popd && ./b`:                           {"a", "b"},
		`./a; pushd sub; pushd bin; popd; ./b`:                    {"a", "sub/b"},
		`./a; cd sub; pushd /opt; popd; ./b`:                      {"a", "/opt", "sub/b"},
		`./a; popd; ./b`:                                          {"a", "b"},
		`./a; pushd sub; popd +1; ./b /abs/m`:                     {"a", "/abs/m"},
		`f() { cd sub; }; ./a; f; ./b /abs/m`:                     {"a", "/abs/m"},
		`f() { cd sub; ./x; }; ./a; f && ./b`:                     {"sub/x", "a"},
		`function f { cd sub; }; ./a; f; ./b`:                     {"a"},
		`f() ( cd sub; ./x ); f; ./a`:                             {"sub/x", "a"},
		`f() { ./x; }; cd sub; f; ./a`:                            {"x", "sub/a"},
		`sh -c '(cd sub && make) && ./adapter' ./arg`:             {"", "adapter", "arg"},
		`sh -c 'cd a; (case $v in q) cd b;; esac); ./y'`:          {"", "a/y"},
		`sh -c '(cd a; case $v in q) ./p;; esac; ./r); ./y'`:      {"", "a/p", "a/r", "y"},
		`(cd a; case $v in (q|r) ./p;; (s) ./q;; esac; ./r); ./y`: {"a/p", "a/q", "a/r", "y"},
		`case $v in q) cd a;; r) ./p;; esac; ./q /abs/m`:          {"p", "/abs/m"},
		`case $v in q) ./p;; esac; cd a; ./q`:                     {"p", "a/q"},
		`case $v in q) cd a; ./p;& r) ./q;; s) ./r;; esac`:        {"a/p", "r"},
		`case $v in ./x) ./p | ./q;; esac && (cd a) && ./r`:       {"p", "q", "r"},
		`case $v in q) case $w in r) cd a;; esac; ./p;; esac`:     {},
		`(case $v in q) (cd a); ./p;; esac); ./q`:                 {"p", "q"},
	} {
		checkNamedFiles(t, cmd, want)
	}
}

// TestNamedFilesAcrossLines: a newline ends a command as ; does (but
// after an operator that needs a command next, &&, |, which it
// continues), in a shell's command string too, and the lines of a
// here-document's body are data: no command, and no path read.
func TestNamedFilesAcrossLines(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	for cmd, want := range map[string][]string{
		"sh -c 'cd a\n./x'":                                  {sh, "a/x"},
		"sh -c '(cd a)\n./x'":                                {sh, "x"},
		"sh -c 'cd a\ncat ./x'":                              {sh, "a/x"},
		"./a\ncd sub\n./b":                                   {"a", "sub/b"},
		"./a |\n cd sub\n./b":                                {"a", "b"},
		"./a &&\ncd sub\n./b":                                {"a", "sub/b"},
		"f() {\n cd sub\n}\n./a\nf\n./b /abs/m":              {"a", "/abs/m"},
		"case $v in\nq) cd sub\n;;\nesac\n./a /abs/m":        {"/abs/m"},
		"cat <<EOF\ncd sub\n./x\nEOF\n./y":                   {"", "y"},
		"cat <<-'EOF' ./in\n\tcd sub\n\tEOF\n./y":            {"", "in", "y"},
		"sh -c \"cat << 'EOF'; cd sub\nit's ./x\nEOF\n./y\"": {sh, "sub/y"},
		"cat <<A <<\"B\"\ncd a\nA\ncd b\nB\n./y":             {"", "y"},
		"cat\n./x":                                           {"", "x"},
		"cat <<<x ./f\ncd sub\n./y":                          {"", "f", "sub/y"},
		"echo '<<EOF'\ncd sub\n./y":                          {"", "sub/y"},
		"cat <<EOF\n./x":                                     {""},
		"echo $((1<<2))\n./adapter ./model.bin":              {"", "adapter", "model.bin"},
		"x=$(( (1+2) << 3 )) ./adapter ./model.bin":          {"adapter", "model.bin"},
		"(( n <<= 2 ))\n./adapter":                           {"adapter"},
		"n=1; let n\\<\\<=2\n./adapter":                      {"adapter"},
		"cat <<=x ./f\n./y":                                  {"", "f", "y"},
	} {
		checkNamedFiles(t, cmd, want)
	}
}

// TestUnendedHereDocumentSaid: the paths in the body of a here-document
// no delimiter line ends are read as its data and said left out (the
// side-files note names them), in a shell's command string too; a
// delimiter on the last line, without a newline after it, ends its body.
func TestUnendedHereDocumentSaid(t *testing.T) {
	for cmd, want := range map[string][]string{
		"cat <<EOF\n./x ./y":             {"./x", "./y"},
		"cat <<EOF\n./x\nEOF":            nil,
		"cat <<EOF\n./x\nEOF\n./y":       nil,
		"sh -c 'cat <<EOF\n./x'":         {"./x"},
		"cat <<A <<B\n./x\nA\n./y":       {"./y"},
		"echo $((1<<2))\n./a\ncat <<E\n": nil,
	} {
		if got := cmdFiles(cmd).leftOut; !slices.Equal(got, want) {
			t.Errorf("cmdFiles(%q).leftOut = %q, want %q", cmd, got, want)
		}
	}
	if note := SideFilesNote(&Settings{Current: "cmd:./adapter <<EOF\n./model.bin"}); !strings.Contains(note, ": ./model.bin; ") {
		t.Errorf("SideFilesNote of an unended here-document = %q, want it to name ./model.bin", note)
	}
}

// checkNamedFiles fails t unless namedFiles(cmd) is want; a want that
// starts with "" takes any first path (a program found on PATH).
func checkNamedFiles(t *testing.T, cmd string, want []string) {
	t.Helper()
	got := namedFiles(cmd)
	if len(want) > 0 && want[0] == "" {
		if len(got) > 0 {
			got = got[1:]
		}
		want = want[1:]
	}
	if !slices.Equal(got, want) {
		t.Errorf("namedFiles(%q) = %q, want %q", cmd, got, want)
	}
}

// TestSideFilesNoteNamesEachPathOnce: the note names each relative path
// the digest leaves out once, in the order the command first names it.
func TestSideFilesNoteNamesEachPathOnce(t *testing.T) {
	s := &Settings{Current: "cmd:cd $D && ./a && ./a ./b ./a"}
	note := SideFilesNote(s)
	if want := ": ./a, ./b; "; !strings.Contains(note, want) {
		t.Errorf("SideFilesNote = %q, want the paths listed as %q", note, want)
	}
}
