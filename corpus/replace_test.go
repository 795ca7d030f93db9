package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReplaceFilesHalfDoneKeepsTheRest: a rename that fails after another
// succeeded keeps the temporary files of the files not renamed (a reader
// completes the replacement through them) and says so (HalfReplaced); one
// that fails first leaves the old files and no temporary file.
func TestReplaceFilesHalfDoneKeepsTheRest(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, failAt := range []int{2, 1} {
		calls := 0
		rename = func(from, to string) error {
			if calls++; calls == failAt {
				return errors.New("injected")
			}
			return os.Rename(from, to)
		}
		err := ReplaceFiles([]string{a, b}, [][]byte{[]byte("new a"), []byte("new b")})
		rename = os.Rename
		var half *HalfReplaced
		_, tmpErr := os.Stat(b + ".tmp")
		switch failAt {
		case 2:
			if !errors.As(err, &half) || len(half.Renamed) != 1 || half.Renamed[0] != a || len(half.Kept) != 1 || half.Kept[0] != b+".tmp" {
				t.Errorf("the second rename failing: %v, want a HalfReplaced naming a renamed and b.tmp kept", err)
			}
			if got, _ := os.ReadFile(a); string(got) != "new a" || tmpErr != nil {
				t.Errorf("after the second rename failed: a %q, b.tmp %v; want a new and b.tmp kept", got, tmpErr)
			}
			os.Remove(b + ".tmp")
			os.WriteFile(a, []byte("old a"), 0o644)
		case 1:
			if err == nil || errors.As(err, &half) {
				t.Errorf("the first rename failing: %v, want its error, not a HalfReplaced", err)
			}
			if got, _ := os.ReadFile(a); string(got) != "old a" || !os.IsNotExist(tmpErr) {
				t.Errorf("after the first rename failed: a %q, b.tmp %v; want a old and no b.tmp", got, tmpErr)
			}
		}
	}
}
