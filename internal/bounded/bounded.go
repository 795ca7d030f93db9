// Package bounded reads back the files cfgfuzz writes (a campaign's, a
// state's, a findings store's) within a bound: a damaged or hostile file
// (one of gigabytes) is an error naming the file and the limit it passed,
// never a read that runs until memory runs out, and a file that is not a
// regular one (a named pipe, a device) is an error naming it and what it
// is, never opened to wait on.
package bounded

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// Refused is the error of a file refused unread, or read no further than
// its limit: not a regular file, or larger than its limit.
type Refused struct{ msg string }

func (e *Refused) Error() string { return e.msg }

// Open opens the file at path for reading, refusing one that is not a
// regular file (a named pipe would block the open, a device never end)
// with a *Refused naming it. The open does not wait: it is made without
// blocking (O_NONBLOCK) and what it opened is checked again, so a named
// pipe put at path after the first check is refused too. An error finding
// or opening it is os.OpenFile's (os.ErrNotExist for a file that is not
// there).
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, NotRegular(path, fi.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = NotRegular(path, fi.Mode())
		}
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file at path (Open) whole, failing without
// reading it when it is larger than limit bytes and, should it grow while
// it is read, once it has read more; what names the file's kind in that
// error ("a campaign.json").
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, TooLarge(path, limit, what)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, TooLarge(path, limit, what)
	}
	return data, nil
}

// TooLarge is ReadFile's error for a file at path past limit bytes.
func TooLarge(path string, limit int64, what string) error {
	return &Refused{fmt.Sprintf("%s: more than %s, the limit of %s: a damaged file, or not one cfgfuzz wrote", path, Size(limit), what)}
}

// NotRegular is Open's error for a file of mode m at path.
func NotRegular(path string, m fs.FileMode) error {
	return &Refused{fmt.Sprintf("%s: not a regular file but %s", path, FileKind(m))}
}

// FileKind names what a file that is not regular is: a named pipe, a
// device, a socket, a directory or a special file.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}

// Units are the binary units of Size, largest first.
var Units = []struct {
	Suffix string
	N      int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

// Size writes n bytes in the largest unit that divides it ("4KiB").
func Size(n int64) string {
	for _, u := range Units {
		if n > 0 && n%u.N == 0 {
			return strconv.FormatInt(n/u.N, 10) + u.Suffix
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}
