// gpucheck.go: the `gpu` check, registered in the oracle's check table for
// every subcommand (`--checks +gpu`). It runs the module on the Vulkan CPU
// device (lavapipe) through oracle/gpu, opened once per process on first
// use. In a build without the vulkan tag, or without a device, selecting
// the check is refused up front (gpu.Available is its probe), so callers
// that run every check that can run here leave it out.
package main

import (
	"cfgfuzz/oracle"
	"cfgfuzz/oracle/gpu"
)

func init() {
	oracle.RegisterCheck(gpu.CheckName, "the module on a Vulkan driver (lavapipe), traces against the graph's walks", runGPUCheck, gpu.Available)
}

func runGPUCheck(o *oracle.Oracle, s *oracle.Subject) oracle.Verdict {
	ex, err := gpu.Open(gpu.Options{Device: gpu.DeviceCPU})
	if err != nil {
		return oracle.Verdict{Check: gpu.CheckName, Status: oracle.Error, Detail: err.Error()}
	}
	return gpu.Check(ex, s.Graph, s.Module, o.Opt().Walks)
}
