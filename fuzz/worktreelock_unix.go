//go:build unix

package fuzz

import (
	"errors"
	"os"
	"syscall"
)

// tryFlock takes an exclusive flock of f without waiting: false when
// another open file holds one.
func tryFlock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, syscall.EWOULDBLOCK), errors.Is(err, syscall.EINTR):
		return false, nil
	}
	return false, err
}
