// specpaths.go: the paths a spec names, rewritten. A file that records a
// spec (a regression file's `# structurizer:`) and travels to another
// checkout writes the paths that lie inside it from a placeholder, and a
// replay command printed for the user names them from the working
// directory; both go through MapPaths, which finds the paths of a spec the
// way Resolve makes them absolute (absoluteWords).

package fuzz

import "strings"

// MapPaths is the spec with each path it names replaced by f's answer: a
// cmd spec's words that read as paths (plain path characters, a slash,
// optionally a leading {placeholder}) and a repo spec's DIR. A cmd word f
// answers with characters a shell would read otherwise is shell-quoted.
// Other specs come back as they are.
func (s Spec) MapPaths(f func(path string) string) Spec {
	switch s.Kind {
	case SpecCmd:
		words := strings.Split(s.Cmd, " ")
		for i, w := range words {
			if !isPathWord(w) {
				continue
			}
			if p := f(w); p != w {
				words[i] = quotedPath(p)
			}
		}
		s.Cmd = strings.Join(words, " ")
	case SpecRepo:
		s.Repo = f(s.Repo)
	}
	return s
}

// isPathWord says whether a command's word reads as a path: a slash, and
// only path characters once a leading {placeholder} is set aside.
func isPathWord(w string) bool {
	if !strings.Contains(w, "/") {
		return false
	}
	if rest, ok := strings.CutPrefix(w, "{"); ok {
		name, after, ok := strings.Cut(rest, "}")
		if !ok || name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") != "" {
			return false
		}
		w = after
	}
	return strings.Trim(w, pathChars) == ""
}

// quotedPath is p as a word of a shell command: as it is when it holds
// only path characters or braces, else shell-quoted.
func quotedPath(p string) string {
	if strings.Trim(p, pathChars+"{}") == "" {
		return p
	}
	return ShellQuote(p)
}
