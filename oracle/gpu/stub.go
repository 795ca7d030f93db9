//go:build !(cgo && vulkan)

// stub.go: the build without Vulkan (no cgo, or no `vulkan` tag). Every
// entry point reports ErrNotBuilt, so callers and tests skip cleanly.

package gpu

import "github.com/cfgfuzz/cfgfuzz/emit/spirv"

// Executor is the driver executor; in this build it cannot be opened.
type Executor struct{}

// Open reports ErrNotBuilt.
func Open(Options) (*Executor, error) { return nil, ErrNotBuilt }

// Available reports ErrNotBuilt.
func Available() error { return ErrNotBuilt }

// Name is "vulkan (not built)".
func (*Executor) Name() string { return "vulkan (not built)" }

// Info is empty.
func (*Executor) Info() DeviceInfo { return DeviceInfo{} }

// IsCPU is false.
func (*Executor) IsCPU() bool { return false }

// Execute reports ErrNotBuilt.
func (*Executor) Execute([]byte, *spirv.Batch, int) ([]spirv.Observed, error) {
	return nil, ErrNotBuilt
}

// Time reports ErrNotBuilt.
func (*Executor) Time([]byte, *spirv.Batch, int, TimeOptions) (Timing, []spirv.Observed, error) {
	return Timing{}, nil, ErrNotBuilt
}
