//go:build !(cgo && vulkan)

// stub_test.go: without Vulkan, every entry point says so.
package gpu_test

import (
	"errors"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
)

func TestStubSaysNotBuilt(t *testing.T) {
	if _, err := gpu.Open(gpu.Options{}); !errors.Is(err, gpu.ErrNotBuilt) {
		t.Fatalf("Open: %v", err)
	}
	if err := gpu.Available(); !gpu.IsDriverError(err) {
		t.Fatalf("Available: %v", err)
	}
}
