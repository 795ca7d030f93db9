//go:build cgo && vulkan

// vulkan.go: the Executor over vk.c. Contexts (instance + device) are
// opened once per device kind and shared by the process; an Executor
// serializes its jobs with a mutex, since a Vulkan queue must not be used
// from two threads at once. Each Execute builds a job (pipeline, buffers,
// command buffer), dispatches once, reads the traces and frees the job.

package gpu

/*
#cgo pkg-config: vulkan
#include <stdlib.h>
#include "vk.h"
*/
import "C"

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// Executor runs modules on one Vulkan device. Safe for concurrent use (jobs
// run one at a time).
type Executor struct {
	mu      sync.Mutex
	ctx     *C.vkx_ctx
	info    DeviceInfo
	timeout time.Duration
}

var (
	openMu sync.Mutex
	opened = map[string]*openResult{}
)

type openResult struct {
	ex  *Executor
	err error
}

// Open returns the process's executor for opt's device kind, creating the
// instance and device on first use. A failure is remembered: the next Open
// of that kind fails the same way without touching the loader again.
func Open(opt Options) (*Executor, error) {
	kind, err := opt.device()
	if err != nil {
		return nil, err
	}
	openMu.Lock()
	defer openMu.Unlock()
	if !opt.KeepShaderCache {
		disableShaderCaches()
	}
	key := fmt.Sprintf("%s/%v", kind, opt.timeout())
	if r, ok := opened[key]; ok {
		return r.ex, r.err
	}
	ex, err := open(kind, opt.timeout())
	opened[key] = &openResult{ex, err}
	return ex, err
}

// Available reports whether the CPU device (lavapipe) can be opened.
func Available() error {
	_, err := Open(Options{})
	return err
}

// disableShaderCaches makes every compile cold and keeps Mesa's cache out
// of $HOME: Mesa reads MESA_SHADER_CACHE_DISABLE, NVIDIA
// __GL_SHADER_DISK_CACHE, both when the device is created.
func disableShaderCaches() {
	os.Setenv("MESA_SHADER_CACHE_DISABLE", "true")
	os.Setenv("__GL_SHADER_DISK_CACHE", "0")
}

func open(kind string, timeout time.Duration) (*Executor, error) {
	want := map[string]C.int{DeviceCPU: C.VKX_CPU, DeviceGPU: C.VKX_GPU, DeviceAny: C.VKX_ANY}[kind]
	var ctx *C.vkx_ctx
	var info C.vkx_info
	var errBuf [256]C.char
	if r := C.vkx_open(want, &ctx, &info, &errBuf[0], C.int(len(errBuf))); r != 0 {
		return nil, &DriverError{Op: C.GoString(&errBuf[0]), Result: int(r), Device: kind}
	}
	return &Executor{ctx: ctx, info: deviceInfo(&info), timeout: timeout}, nil
}

func deviceInfo(in *C.vkx_info) DeviceInfo {
	types := map[int]string{0: "other", 1: "integrated-gpu", 2: "discrete-gpu", 3: "virtual-gpu", 4: "cpu"}
	v := uint32(in.api_version)
	return DeviceInfo{
		Name:          C.GoString(&in.name[0]),
		Type:          types[int(in._type)],
		APIVersion:    fmt.Sprintf("%d.%d.%d", (v>>22)&0x7f, (v>>12)&0x3ff, v&0xfff),
		DriverVersion: uint32(in.driver_version),
		VendorID:      uint32(in.vendor_id),
		Driver:        C.GoString(&in.driver[0]),
	}
}

// Name is "vulkan:" followed by the device name.
func (e *Executor) Name() string { return "vulkan:" + e.info.Name }

// Info describes the device.
func (e *Executor) Info() DeviceInfo { return e.info }

// IsCPU reports whether the device is a CPU device (lavapipe).
func (e *Executor) IsCPU() bool { return e.info.Type == "cpu" }

// Execute runs walks invocations of module (one workgroup each) on the
// batch's buffers and returns every walk's observation. Errors are
// *DriverError.
func (e *Executor) Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	_, obs, err := e.run(module, batch, walks, TimeOptions{Warmup: -1, Repeats: 0}, false)
	return obs, err
}

// Time compiles module cold (pipeline creation plus first dispatch), then
// dispatches it opt.Warmup times untimed and opt.Repeats times timed; the
// observations are the first dispatch's.
func (e *Executor) Time(module []byte, batch *spirv.Batch, walks int, opt TimeOptions) (Timing, []spirv.Observed, error) {
	return e.run(module, batch, walks, opt.normalized(), true)
}

func (e *Executor) run(module []byte, batch *spirv.Batch, walks int, opt TimeOptions, timed bool) (Timing, []spirv.Observed, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	job, pipe, err := e.newJob(module, batch, walks)
	if err != nil {
		return Timing{}, nil, err
	}
	t := Timing{Pipeline: pipe[0], PipelineCPU: pipe[1]}
	first, err := e.dispatch(job)
	t.FirstDispatch, t.FirstDispatchCPU = first[0], first[1]
	if err != nil {
		return t, nil, err // job leaked: it may still run after a timeout
	}
	trace := make([]uint32, max(batch.TraceWords, 1))
	C.vkx_job_read(job, (*C.uint32_t)(unsafe.Pointer(&trace[0])), C.size_t(batch.TraceWords))
	if timed {
		if t.Run, t.RunCPU, err = e.repeat(job, opt); err != nil {
			return t, nil, err
		}
	}
	C.vkx_job_free(job)
	obs := make([]spirv.Observed, walks)
	for i := range obs {
		obs[i] = batch.Read(trace, i)
	}
	return t, obs, nil
}

// newJob copies the module and the decisions into C memory and builds the
// pipeline, buffers and command buffer.
func (e *Executor) newJob(module []byte, batch *spirv.Batch, walks int) (*C.vkx_job, [2]time.Duration, error) {
	var pipe [2]time.Duration
	if len(module)%4 != 0 || len(module) == 0 {
		return nil, pipe, &DriverError{Op: "module size not a positive multiple of 4", Result: -13, Device: e.info.Name}
	}
	code := C.CBytes(module)
	defer C.free(code)
	dec := C.malloc(C.size_t(max(len(batch.Decisions), 1) * 4))
	defer C.free(dec)
	copy(unsafe.Slice((*uint32)(dec), max(len(batch.Decisions), 1)), batch.Decisions)
	var job *C.vkx_job
	var ns [2]C.uint64_t
	var errBuf [256]C.char
	r := C.vkx_job_new(e.ctx, (*C.uint32_t)(code), C.size_t(len(module)), (*C.uint32_t)(dec), C.size_t(len(batch.Decisions)),
		C.size_t(batch.TraceWords), C.uint32_t(walks), &job, &ns[0], &errBuf[0], C.int(len(errBuf)))
	if r != 0 {
		return nil, pipe, &DriverError{Op: C.GoString(&errBuf[0]), Result: int(r), Device: e.info.Name}
	}
	return job, [2]time.Duration{time.Duration(ns[0]), time.Duration(ns[1])}, nil
}

// dispatch runs the job once and waits for its fence; it returns the wall
// and CPU time from submit to fence.
func (e *Executor) dispatch(job *C.vkx_job) ([2]time.Duration, error) {
	var ns [2]C.uint64_t
	var errBuf [256]C.char
	if r := C.vkx_job_run(job, C.uint64_t(e.timeout.Nanoseconds()), &ns[0], &errBuf[0], C.int(len(errBuf))); r != 0 {
		return [2]time.Duration{}, &DriverError{Op: C.GoString(&errBuf[0]), Result: int(r), Device: e.info.Name}
	}
	return [2]time.Duration{time.Duration(ns[0]), time.Duration(ns[1])}, nil
}

// repeat warms up, then returns the medians (wall, CPU) of the timed
// dispatches.
func (e *Executor) repeat(job *C.vkx_job, opt TimeOptions) (wall, cpu time.Duration, err error) {
	for range opt.Warmup {
		if _, err := e.dispatch(job); err != nil {
			return 0, 0, err
		}
	}
	walls := make([]time.Duration, opt.Repeats)
	cpus := make([]time.Duration, opt.Repeats)
	for i := range walls {
		d, err := e.dispatch(job)
		if err != nil {
			return 0, 0, err
		}
		walls[i], cpus[i] = d[0], d[1]
	}
	return median(walls), median(cpus), nil
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
