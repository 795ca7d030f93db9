// bisect_gpu_test.go: bisect's --gpu-device is the gpu check's device,
// as for check: the device a gpu finding was found on judges it again.
package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBisectJudgesOnTheGPUDeviceGiven: bisect's --gpu-device is check's:
// where check cannot run the gpu check on a device, bisect says why in
// the same words; where it can, bisect finds the commit and its
// reproduction carries the device.
func TestBisectJudgesOnTheGPUDeviceGiven(t *testing.T) {
	ownBuildCache(t)
	repo, good, planted := plantedToyRepo(t, toyConfig)
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "{{1, 2}, {2}, {}}\n")
	for _, device := range []string{"cpu", "gpu"} {
		ccode, _, cerr := cliIn(t, t.TempDir(), "check", "--checks", "gpu", "--gpu-device", device, graph)
		code, stdout, stderr := cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", good, "--bad", planted, "--checks", "gpu", "--gpu-device", device, graph)
		if _, why, cannot := strings.Cut(strings.TrimSpace(cerr), "cannot run here: "); ccode == exitUsage && cannot {
			if code != exitUsage || !strings.Contains(stderr, why) {
				t.Errorf("--gpu-device %s: bisect exit %d, want 2 saying as check does %q:\n%s", device, code, why, stderr)
			}
			continue
		}
		want := "reproduce: cfgfuzz bisect --repo " + repo + " --checks gpu --gpu-device " + device + " --good " + planted + "^ --bad " + planted + " "
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("--gpu-device %s, which check runs on (exit %d): bisect exit %d, want 0 and %q:\n%s%s", device, ccode, code, want, stdout, stderr)
		}
	}
}
