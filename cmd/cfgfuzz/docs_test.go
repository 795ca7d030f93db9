package main

// docs_test.go: every relative link of every Markdown file of the
// repository resolves inside the repository: the file exists, and an
// anchor names a heading of that file (GitHub's slugs: lower case, spaces
// to hyphens, punctuation dropped).

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
	mdFence   = regexp.MustCompile("(?ms)^```.*?^```")
	mdCode    = regexp.MustCompile("`[^`\n]*`")
)

// repoRoot is the repository's top directory (this package is cmd/cfgfuzz).
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// markdownFiles lists the repository's .md files, skipping .git.
func markdownFiles(t *testing.T, root string) []string {
	return filesEnding(t, root, ".md")
}

// filesEnding lists the repository's files whose names end in one of the
// suffixes (build outputs and campaign output left out).
func filesEnding(t *testing.T, root string, suffixes ...string) []string {
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "cfgfuzz-out" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && slices.ContainsFunc(suffixes, func(x string) bool { return strings.HasSuffix(p, x) }) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// slug is GitHub's anchor for a heading.
func slug(h string) string {
	h = strings.ToLower(mdCode.ReplaceAllStringFunc(h, func(s string) string { return strings.Trim(s, "`") }))
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func anchorsOf(text string) map[string]bool {
	a := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(mdFence.ReplaceAllString(text, ""), -1) {
		a[slug(m[1])] = true
	}
	return a
}

func TestDocLinksResolve(t *testing.T) {
	root := repoRoot(t)
	files := markdownFiles(t, root)
	if len(files) < 5 {
		t.Fatalf("found only %d Markdown files under %s", len(files), root)
	}
	links := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := mdFence.ReplaceAllString(string(data), "")
		rel, _ := filepath.Rel(root, f)
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, anchor, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), path)
			}
			if r, err := filepath.Rel(root, dest); err != nil || strings.HasPrefix(r, "..") {
				t.Errorf("%s: link %q leaves the repository", rel, target)
				continue
			}
			st, err := os.Stat(dest)
			if err != nil {
				t.Errorf("%s: link %q: %v", rel, target, err)
				continue
			}
			if anchor == "" || st.IsDir() {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				continue // a line anchor into source
			}
			body, _ := os.ReadFile(dest)
			if !anchorsOf(string(body))[anchor] {
				t.Errorf("%s: link %q: no heading with anchor #%s in %s", rel, target, anchor, filepath.Base(dest))
			}
		}
	}
	t.Logf("%d relative links in %d files", links, len(files))
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Graph notations":                 "graph-notations",
		"Fuzz your own structurizer":      "fuzz-your-own-structurizer",
		"`cfgfuzz lint`":                  "cfgfuzz-lint",
		"Bench: `cfgfuzz bench --driver`": "bench-cfgfuzz-bench---driver",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// outsideRepo matches a path into the developers' shared directory beside
// the repository (written in two parts so this file does not match).
var outsideRepo = regexp.MustCompile(`\.\./` + `shared\b|\bshared/` + `(reference|tools|DESIGN)`)

// TestDocsStayInTheRepository: no document or source comment points a
// reader outside the repository, to files only the developers' machines
// have.
func TestDocsStayInTheRepository(t *testing.T) {
	root := repoRoot(t)
	for _, f := range filesEnding(t, root, ".md", ".go") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := outsideRepo.Find(data); m != nil {
			rel, _ := filepath.Rel(root, f)
			t.Errorf("%s mentions %s, which is not part of the repository", rel, m)
		}
	}
}
