// info_test.go: DeviceInfo.MesaBefore reads the Mesa version out of the
// driver text Vulkan 1.2 devices report, and says no for anything else.
package gpu_test

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
)

func TestMesaBefore(t *testing.T) {
	for _, c := range []struct {
		driver string
		want   bool
	}{
		{"llvmpipe Mesa 22.3.6 (LLVM 15.0.6)", true},
		{"llvmpipe Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)", false},
		{"llvmpipe Mesa 23.0.0", false},
		{"llvmpipe Mesa 22.99", true},
		{"NVIDIA 580.159.04", false},
		{"llvmpipe Mesa unknown", false},
		{"", false},
	} {
		if got := (gpu.DeviceInfo{Driver: c.driver}).MesaBefore(23, 0); got != c.want {
			t.Errorf("MesaBefore(23, 0) of %q = %v, want %v", c.driver, got, c.want)
		}
	}
}
