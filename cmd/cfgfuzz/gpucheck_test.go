// gpucheck_test.go: the gpu check never hands the driver a module that
// SPIRV-Tools' validator rejects (the driver runs in this process: such a
// module crashed lavapipe, and with it cfgfuzz), whether or not spirv-val
// is among the checks; a valid module still runs.
package main

import (
	"encoding/binary"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// withoutSecondFunction is module with its second OpFunction instruction
// removed: the function's body is left outside any function, which the
// validator rejects and on which lavapipe 22.3 crashes.
func withoutSecondFunction(t *testing.T, module []byte) []byte {
	t.Helper()
	const opFunction = 54
	seen := 0
	for at := 20; at+4 <= len(module); {
		w := binary.LittleEndian.Uint32(module[at:])
		n := int(w>>16) * 4
		if n == 0 || at+n > len(module) {
			t.Fatalf("malformed module at byte %d", at)
		}
		if w&0xffff == opFunction {
			if seen++; seen == 2 {
				return append(append([]byte(nil), module[:at]...), module[at+n:]...)
			}
		}
		at += n
	}
	t.Fatal("the module has one function")
	return nil
}

// gpuSubject is graph succs and this tree's module of it, or skips the
// test where no Vulkan device opens.
func gpuSubject(t *testing.T, succs [][]int) (*cfg.Graph, []byte) {
	t.Helper()
	if err := probeGPU(oracle.Options{}); err != nil {
		t.Skipf("no Vulkan device: %v", err)
	}
	g := cfg.FromSuccs(succs)
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	module, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, module
}

func TestGPUCheckRunsNoInvalidModule(t *testing.T) {
	g, module := gpuSubject(t, [][]int{{1}, {}})
	bad := withoutSecondFunction(t, module)
	for _, checks := range [][]string{{"gpu"}, {"spirv-val", "gpu"}} {
		o, err := oracle.New(oracle.Options{Checks: checks})
		if err != nil {
			t.Fatal(err)
		}
		v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: bad})
		if v.Status != oracle.Fail || v.Signature != gpu.CheckName+":"+gpu.SigInvalidModule {
			t.Errorf("checks %v, an invalid module: %+v, want gpu:%s", checks, v, gpu.SigInvalidModule)
		}
		if v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: module}); v.Status != oracle.Pass {
			t.Errorf("checks %v, the valid module: %+v", checks, v)
		}
	}
}

// withPhysicalAddressing is module with OpCapability Addresses and the
// Physical64 addressing model: valid SPIR-V 1.3, which no Vulkan
// environment accepts.
func withPhysicalAddressing(t *testing.T, module []byte) []byte {
	t.Helper()
	const opCapability, opMemoryModel, capAddresses, physical64 = 17, 14, 4, 2
	out := append([]byte(nil), module[:20]...)
	out = binary.LittleEndian.AppendUint32(out, opCapability|2<<16)
	out = binary.LittleEndian.AppendUint32(out, capAddresses)
	out = append(out, module[20:]...)
	for at := 28; at+4 <= len(out); {
		w := binary.LittleEndian.Uint32(out[at:])
		if w&0xffff == opMemoryModel {
			binary.LittleEndian.PutUint32(out[at+4:], physical64)
			return out
		}
		at += int(w>>16) * 4
	}
	t.Fatal("no OpMemoryModel")
	return nil
}

// TestGPUCheckValidatesForVulkan: under a plain SPIR-V --target-env the
// gpu check still asks whether a Vulkan environment takes the module: one
// with physical addressing, valid SPIR-V 1.3, never reaches the driver.
func TestGPUCheckValidatesForVulkan(t *testing.T) {
	g, module := gpuSubject(t, [][]int{{1}, {}})
	phys := withPhysicalAddressing(t, module)
	v, err := oracle.LookupValidator("spv1.3")
	if err != nil {
		t.Fatal(err)
	}
	if ok, msg, err := v.Validate(phys); !ok || err != nil {
		t.Fatalf("the module with physical addressing is not valid SPIR-V 1.3: %s %v", msg, err)
	}
	o, err := oracle.New(oracle.Options{Checks: []string{"gpu"}, Env: "spv1.3"})
	if err != nil {
		t.Fatal(err)
	}
	if v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: phys}); v.Signature != gpu.CheckName+":"+gpu.SigInvalidModule {
		t.Errorf("--target-env spv1.3, physical addressing: %+v, want gpu:%s", v, gpu.SigInvalidModule)
	}
	if v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: module}); v.Status != oracle.Pass {
		t.Errorf("--target-env spv1.3, the module as emitted: %+v", v)
	}
}

// TestGPUCheckRunsABigEndianModule: a module written in big-endian order,
// valid SPIR-V, runs on the driver as its little-endian self (a driver
// takes its host's order only), and passes.
func TestGPUCheckRunsABigEndianModule(t *testing.T) {
	g, module := gpuSubject(t, [][]int{{1, 2}, {2}, {}})
	big := make([]byte, len(module))
	for i := 0; i < len(module); i += 4 {
		binary.BigEndian.PutUint32(big[i:], binary.LittleEndian.Uint32(module[i:]))
	}
	o, err := oracle.New(oracle.Options{Checks: []string{"gpu"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: big}); v.Status != oracle.Pass {
		t.Errorf("the big-endian module: %+v", v)
	}
	if got := littleEndian(big); string(got) != string(module) {
		t.Error("littleEndian of the big-endian module is not the module")
	}
}
