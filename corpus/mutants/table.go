// table.go defines the mutants table (mutants.txt beside this file): its
// format, its parser, and the one edit a mutant makes to a copy of the
// tree. A snippet must occur exactly once in its file, so a table that the
// code has moved past fails loudly instead of measuring nothing.

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Mutant is one source mutant: in File, Old (occurring exactly once)
// becomes New.
type Mutant struct {
	Name       string
	File       string // relative to the repository root, slash-separated
	What       string // the bug, in one line
	Equivalent string // why it cannot change a campaign's outcome; "" if it can
	Note       string // for a known survivor: why the oracle misses it
	// Flags are more flags for this mutant's `cfgfuzz run` (after the
	// measurement's -run-flags): the workload its code needs, as
	// `--registers 5` for the register file's. Its changed count is
	// against a control campaign run with the same flags.
	Flags    []string
	Old, New string
	Line     int // the table line of its "==" header
}

// parseTable reads the table at path.
func parseTable(path string) ([]Mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		ms   []Mutant
		cur  *Mutant
		sect string // "", "old", "new": which snippet lines go to
		old  []string
		nw   []string
		ln   int
	)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, ln, fmt.Sprintf(format, args...))
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		ln++
		line := sc.Text()
		if sect != "" {
			switch line {
			case "--- new":
				if sect != "old" {
					return nil, fail("%q twice", line)
				}
				sect = "new"
			case "--- end":
				if sect != "new" {
					return nil, fail("--- end before --- new")
				}
				cur.Old, cur.New = strings.Join(old, "\n"), strings.Join(nw, "\n")
				sect, old, nw = "", nil, nil
			default:
				if sect == "old" {
					old = append(old, line)
				} else {
					nw = append(nw, line)
				}
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "#"), strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "== "):
			ms = append(ms, Mutant{Name: strings.TrimSpace(line[3:]), Line: ln})
			cur = &ms[len(ms)-1]
		case cur == nil:
			return nil, fail("%q before the first == header", line)
		case line == "--- old":
			if cur.Old != "" {
				return nil, fail("mutant %s has two --- old sections", cur.Name)
			}
			sect = "old"
		case strings.HasPrefix(line, "file: "):
			cur.File = strings.TrimSpace(line[len("file: "):])
		case strings.HasPrefix(line, "what: "):
			cur.What = strings.TrimSpace(line[len("what: "):])
		case strings.HasPrefix(line, "equivalent: "):
			cur.Equivalent = strings.TrimSpace(line[len("equivalent: "):])
		case strings.HasPrefix(line, "note: "):
			cur.Note = strings.TrimSpace(line[len("note: "):])
		case strings.HasPrefix(line, "flags: "):
			cur.Flags = strings.Fields(line[len("flags: "):])
		default:
			return nil, fail("unexpected line %q (want file:, what:, equivalent:, note:, flags:, --- old or ==)", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if sect != "" {
		return nil, fail("mutant %s: snippet not closed by --- end", cur.Name)
	}
	return ms, checkTable(path, ms)
}

// checkTable demands the fields every mutant needs and unique names.
func checkTable(path string, ms []Mutant) error {
	seen := map[string]bool{}
	for _, m := range ms {
		where := fmt.Sprintf("%s:%d: mutant %q", path, m.Line, m.Name)
		switch {
		case m.Name == "" || strings.ContainsAny(m.Name, " \t/"):
			return fmt.Errorf("%s: a name is one word", where)
		case seen[m.Name]:
			return fmt.Errorf("%s: name used twice", where)
		case m.File == "" || m.What == "":
			return fmt.Errorf("%s: needs file: and what:", where)
		case m.Old == "":
			return fmt.Errorf("%s: empty --- old snippet", where)
		case m.Old == m.New:
			return fmt.Errorf("%s: the replacement equals the original", where)
		}
		seen[m.Name] = true
	}
	return nil
}

// mutate returns src with m applied, or an error unless m.Old occurs in src
// exactly once.
func (m Mutant) mutate(src string) (string, error) {
	switch n := strings.Count(src, m.Old); n {
	case 1:
		return strings.Replace(src, m.Old, m.New, 1), nil
	case 0:
		return "", fmt.Errorf("mutant %s: snippet not found in %s (the code changed: update mutants.txt)", m.Name, m.File)
	default:
		return "", fmt.Errorf("mutant %s: snippet found %d times in %s (make it unique)", m.Name, n, m.File)
	}
}

// apply edits the tree rooted at root in place.
func (m Mutant) apply(root string) error {
	p := filepath.Join(root, filepath.FromSlash(m.File))
	src, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("mutant %s: %w", m.Name, err)
	}
	out, err := m.mutate(string(src))
	if err != nil {
		return err
	}
	return os.WriteFile(p, []byte(out), 0o644)
}
