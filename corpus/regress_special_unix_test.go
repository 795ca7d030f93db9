//go:build unix

// regress_special_unix_test.go: a regression file that is a named pipe or
// a device is refused, not read.
package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadRegressionRefusesSpecialFiles: a named pipe or a device among a
// suite's files is an error naming it, not a read that blocks or never
// ends.
func TestReadRegressionRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.cfg")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	dev := filepath.Join(dir, "dev.cfg")
	if err := os.Symlink("/dev/zero", dev); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "not a regular file but a named pipe", dev: "not a regular file but a device"} {
		if _, err := ReadRegression(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
}
