// Package gpu runs modules that follow the module convention on a real
// Vulkan driver: Mesa's lavapipe (the CPU device) everywhere, and any GPU
// where one is present. The Executor implements oracle.Executor, so the
// oracle and the bench drive it like the interpreter; Check is the `gpu`
// check built on it.
//
// The driver code is C behind cgo and the build tag `vulkan` (vk.c,
// vulkan.go); without the tag, or without cgo, the package builds a stub
// whose Open and Available report ErrNotBuilt, so `go build ./...` needs
// no Vulkan headers. One instance and device per device kind are created
// on first use and shared by the whole process (80-190 ms on lavapipe).
// A Pool (pool.go) runs the same executor in driver processes of its own
// (server.go), as the `gpu` check of cfgfuzz's commands does: a module
// that crashes a driver or keeps it busy then fails only its own check.
//
// gpu.go holds the options, the device description, the timing types and
// the errors, common to both builds.
package gpu

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Device kinds for Options.Device.
const (
	DeviceCPU = "cpu" // a device of type CPU (lavapipe)
	DeviceGPU = "gpu" // a discrete, integrated or virtual GPU
	DeviceAny = "any" // a GPU if there is one, else the CPU device
)

// DefaultTimeout bounds one dispatch (a fence wait) when Options.Timeout is
// zero: generous, since lavapipe compiles at the first dispatch and takes
// ~17 s for a 1,100-block module.
const DefaultTimeout = 5 * time.Minute

// Options selects a device. The zero value picks the CPU device (lavapipe),
// waits up to DefaultTimeout per dispatch and disables the drivers' shader
// disk caches, so every compile is cold and nothing lands in $HOME.
type Options struct {
	// Device is DeviceCPU, DeviceGPU or DeviceAny; "" means DeviceCPU.
	Device string
	// Timeout bounds each fence wait; 0 means DefaultTimeout.
	Timeout time.Duration
	// KeepShaderCache leaves MESA_SHADER_CACHE_DISABLE and
	// __GL_SHADER_DISK_CACHE as the environment has them; false sets them
	// to disable both caches before the first device is opened.
	KeepShaderCache bool
}

func (o Options) device() (string, error) {
	switch o.Device {
	case "":
		return DeviceCPU, nil
	case DeviceCPU, DeviceGPU, DeviceAny:
		return o.Device, nil
	}
	return "", fmt.Errorf("gpu: unknown device %q (want cpu, gpu or any)", o.Device)
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// DeviceInfo describes the physical device an Executor runs on.
type DeviceInfo struct {
	Name          string // e.g. "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA H200"
	Type          string // "cpu", "discrete-gpu", "integrated-gpu", "virtual-gpu", "other"
	APIVersion    string // e.g. "1.3.230"
	DriverVersion uint32 // vendor-encoded
	VendorID      uint32
	// Driver is the driver's name and version text where the device has
	// Vulkan 1.2, e.g. "llvmpipe Mesa 25.0.7 (LLVM 15.0.6)", "NVIDIA
	// 580.159.04"; "" otherwise.
	Driver string
}

// MesaBefore reports whether the driver is Mesa older than major.minor.
func (d DeviceInfo) MesaBefore(major, minor int) bool {
	var ma, mi int
	i := strings.Index(d.Driver, "Mesa ")
	if i < 0 {
		return false
	}
	if _, err := fmt.Sscanf(d.Driver[i+len("Mesa "):], "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma < major || ma == major && mi < minor
}

// CutsLoops reports whether the driver is known to cut an invocation's
// runaway loops instead of running them forever: lavapipe of Mesa before
// 23 stops every loop of an invocation once its loops have run 65,535
// iterations in all (measured on 22.3); lavapipe of Mesa 25.0.7 and GPU
// drivers do not, and a module that loops forever keeps the device busy
// until the fence times out.
func (d DeviceInfo) CutsLoops() bool { return d.Type == "cpu" && d.MesaBefore(23, 0) }

// TimeOptions configures Executor.Time. The zero value warms up with 5
// dispatches and times 20.
type TimeOptions struct {
	Warmup  int // untimed dispatches after the first; 0: 5, <0: none
	Repeats int // timed dispatches; 0: 20
}

func (t TimeOptions) normalized() TimeOptions {
	if t.Warmup == 0 {
		t.Warmup = 5
	}
	t.Warmup = max(t.Warmup, 0)
	if t.Repeats <= 0 {
		t.Repeats = 20
	}
	return t
}

// Timing is what Executor.Time measured for one module: wall-clock times,
// and the process's CPU time over the same spans. On lavapipe the compile
// and the invocations run in-process, so the CPU times stay honest on a
// loaded machine where wall clock does not; on a GPU only wall clock means
// anything.
type Timing struct {
	Pipeline      time.Duration // vkCreateShaderModule + vkCreateComputePipelines
	FirstDispatch time.Duration // submit to fence of the first dispatch
	Run           time.Duration // median of the timed dispatches after warm-up

	PipelineCPU, FirstDispatchCPU, RunCPU time.Duration // the same in CPU time
}

// Compile is pipeline creation plus the first dispatch: lavapipe compiles
// at the first dispatch, NVIDIA at pipeline creation.
func (t Timing) Compile() time.Duration { return t.Pipeline + t.FirstDispatch }

// CompileCPU is Compile in the process's CPU time.
func (t Timing) CompileCPU() time.Duration { return t.PipelineCPU + t.FirstDispatchCPU }

// ErrNotBuilt is returned by the stub build (no cgo or no `vulkan` tag).
var ErrNotBuilt = errors.New("gpu: built without Vulkan (build with cgo and -tags vulkan)")

// DriverError is an infrastructure failure: the loader, the device or a
// Vulkan call failed, or a fence timed out. It says nothing about the
// module's correctness, so checks report it as status "error", never as a
// finding (lavapipe also answers VK_ERROR_UNKNOWN to malformed modules:
// spirv-val is the judge of validity).
type DriverError struct {
	Op     string // the failing call, e.g. "vkCreateComputePipelines"
	Result int    // the VkResult, or a negative code of this package
	Device string // the device name, when one was open
}

func (e *DriverError) Error() string {
	if e.Result == codeNoDevice {
		// Device is the kind asked for: no device was opened.
		return fmt.Sprintf("gpu: no Vulkan device of the kind %q here (cpu: lavapipe, gpu: a hardware GPU, any: either; vulkaninfo --summary lists this machine's)", e.Device)
	}
	s := fmt.Sprintf("gpu: %s failed: %s", e.Op, resultName(e.Result))
	if e.Result == codeProcess { // what became of the driver's process
		s = "gpu: " + e.Op
		if e.Device != "" {
			s += ", on " + e.Device
		}
		return s
	} else if e.Result <= codeNoDevice && e.Result >= codeTooBig {
		s = "gpu: " + resultName(e.Result)
	}
	if e.Device != "" {
		s += " on " + e.Device
	}
	return s
}

// IsDriverError reports whether err is (or wraps) a DriverError or
// ErrNotBuilt: an infrastructure error rather than a verdict.
func IsDriverError(err error) bool {
	var d *DriverError
	return errors.As(err, &d) || errors.Is(err, ErrNotBuilt)
}

// resultName spells the VkResult codes a run can meet.
func resultName(r int) string {
	names := map[int]string{
		1: "VK_NOT_READY", 2: "VK_TIMEOUT", -1: "VK_ERROR_OUT_OF_HOST_MEMORY",
		-2: "VK_ERROR_OUT_OF_DEVICE_MEMORY", -3: "VK_ERROR_INITIALIZATION_FAILED",
		-4: "VK_ERROR_DEVICE_LOST", -7: "VK_ERROR_EXTENSION_NOT_PRESENT",
		-9: "VK_ERROR_INCOMPATIBLE_DRIVER", -13: "VK_ERROR_UNKNOWN",
		-1000012000:  "VK_ERROR_INVALID_SHADER_NV",
		codeNoDevice: "no Vulkan device of the asked type", codeNoMemType: "no host-visible coherent memory",
		codeTooBig: "too many walks for one dispatch",
	}
	if n, ok := names[r]; ok {
		return n
	}
	return fmt.Sprintf("VkResult %d", r)
}

// Codes of failures outside a Vulkan call (mirroring vk.h's VKX_ERR_*).
const (
	codeNoDevice  = -100001
	codeNoMemType = -100002
	codeTooBig    = -100003
	codeProcess   = -100004 // the driver server died or was stopped (pool.go); Op says which
)
