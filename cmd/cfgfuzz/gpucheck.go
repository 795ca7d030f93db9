// gpucheck.go: the `gpu` check, registered in the oracle's check table for
// every subcommand (`--checks +gpu`). It runs the module on a Vulkan device
// through oracle/gpu: oracle.Options.GPUDevice (`--gpu-device`), the CPU
// device (lavapipe) by default, opened once per process. In a build without
// the vulkan tag, or without that device, selecting the check is refused up
// front (opening the device is its probe), so callers that run every check
// that can run here leave it out.

package main

import (
	"fmt"
	"io"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
)

func init() {
	oracle.RegisterCheck(gpu.CheckName, "the module on a Vulkan driver (lavapipe, or --gpu-device), traces against the graph's walks", oracle.OnModule, runGPUCheck, probeGPU)
}

func probeGPU(opt oracle.Options) error {
	_, err := gpu.Open(gpu.Options{Device: opt.GPUDevice})
	return err
}

func runGPUCheck(o *oracle.Oracle, s *oracle.Subject) oracle.Verdict {
	ex, err := gpu.Open(gpu.Options{Device: o.Opt().GPUDevice})
	if err != nil {
		return oracle.Verdict{Check: gpu.CheckName, Status: oracle.Error, Detail: err.Error()}
	}
	return gpu.Check(ex, s.Graph, s.Module, o.Opt().Walks)
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
