// gpucheck.go: the `gpu` check, registered in the oracle's check table for
// every subcommand (`--checks +gpu`). It runs the module on a Vulkan device
// through oracle/gpu: oracle.Options.GPUDevice (`--gpu-device`), the CPU
// device (lavapipe) by default. The driver runs in processes of its own
// (gpu.SharedPool: this program again, main calling gpu.ServeIfAsked), one
// per check running at once, so a module that crashes the driver or keeps
// it busy past oracle.Options.GPUTimeout fails its own check with an error
// and no other. In a build without the vulkan tag, or without that device,
// selecting the check is refused up front (opening the device is its
// probe), so callers that run every check that can run here leave it out.

package main

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
)

func init() {
	oracle.RegisterCheck(gpu.CheckName, "the module on a Vulkan driver (lavapipe, or --gpu-device), traces against the graph's walks", oracle.OnModule, runGPUCheck, probeGPU)
}

func probeGPU(opt oracle.Options) error {
	pool := gpuPool(opt)
	r, err := pool.Get(opt.GPUTimeout)
	if err == nil {
		pool.Put(r)
	}
	return err
}

// gpuPool is the process's pool of driver servers for opt's device.
func gpuPool(opt oracle.Options) *gpu.Pool {
	return gpu.SharedPool(gpu.Options{Device: opt.GPUDevice})
}

// runGPUCheck runs the module on a driver server, once SPIRV-Tools'
// validator accepts it for a Vulkan environment (oracle.ValidateForDriver:
// a plain SPIR-V --target-env allows what no Vulkan driver takes): a
// driver may crash on an invalid module (lavapipe does on a function call
// with no callee, on a recursion), which says nothing of the structurizer
// that the validator does not say better, so a module the validator
// rejects is a finding of its own, gpu:invalid-module, and never reaches
// the driver.
func runGPUCheck(o *oracle.Oracle, s *oracle.Subject) oracle.Verdict {
	switch ok, msg, err := o.ValidateForDriver(s); {
	case err != nil:
		return oracle.Verdict{Check: gpu.CheckName, Status: oracle.Error, Detail: "the module could not be validated before the driver runs it: " + err.Error()}
	case !ok:
		return oracle.Verdict{Check: gpu.CheckName, Status: oracle.Fail, Signature: gpu.CheckName + ":" + gpu.SigInvalidModule,
			Detail: "not run on the driver, which may crash on a module SPIRV-Tools' validator rejects: " + firstLine(msg)}
	}
	module := littleEndian(s.Module)
	pool := gpuPool(o.Opt())
	ex, err := pool.Get(o.Opt().GPUTimeout)
	if err != nil {
		return oracle.Verdict{Check: gpu.CheckName, Status: oracle.Error, Detail: gpu.Unprefixed(err)}
	}
	defer pool.Put(ex)
	return gpu.Check(ex, s.Graph, module, o.Opt().Walks)
}

// littleEndian is module with its words in little-endian order: SPIR-V
// may be written in either (its magic number tells which), and a driver
// (lavapipe) takes only its host's. A module in little-endian order, or
// too short to tell, is returned as it is.
func littleEndian(module []byte) []byte {
	if len(module) < 4 || len(module)%4 != 0 || binary.BigEndian.Uint32(module) != spirv.Magic {
		return module
	}
	out := make([]byte, len(module))
	for i := 0; i < len(module); i += 4 {
		binary.LittleEndian.PutUint32(out[i:], binary.BigEndian.Uint32(module[i:]))
	}
	return out
}

// gpuDeviceFlag checks --gpu-device's value, whether or not the gpu check
// runs: an unknown device is an error (a usage error for the caller); a
// device given while the check is off (gpuOn false) is named on w, since
// the flag then does nothing.
func gpuDeviceFlag(cmd, device string, gpuOn bool, w io.Writer) error {
	switch device {
	case "":
		return nil
	case gpu.DeviceCPU, gpu.DeviceGPU, gpu.DeviceAny:
	default:
		return fmt.Errorf("--gpu-device %q: want %s, %s or %s", device, gpu.DeviceCPU, gpu.DeviceGPU, gpu.DeviceAny)
	}
	if !gpuOn {
		fmt.Fprintf(w, "cfgfuzz %s: --gpu-device %s does nothing: the gpu check is off (turn it on with %s)\n", cmd, device, gpuSwitch(cmd))
	}
	return nil
}

// gpuSwitch names the flags that turn the gpu check on for cmd.
func gpuSwitch(cmd string) string {
	if cmd == "run" || cmd == "compare" {
		return "--gpu-every N or --checks +gpu"
	}
	return "--checks +gpu"
}
