// gpucheck_test.go: the gpu check never hands the driver a module that
// SPIRV-Tools' validator rejects (such a module crashed lavapipe), whether
// or not spirv-val is among the checks; a valid module still runs; and a
// module that keeps the driver busy past the check's timeout fails its own
// check, no other.
package main

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// heavyModule is module with a Function-storage array of a million words
// written and read at the invocation's id: valid, and minutes of work for
// lavapipe's compiler. It is assembled by SPIRV-Tools' spirv-as.
func heavyModule(t *testing.T, module []byte) []byte {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Skip("no spirv-as (make deps installs spirv-tools)")
	}
	text, err := oracle.Disassemble(module)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range [][2]string{
		{"%_ptr_Input_uint = OpTypePointer Input %uint\n", "%uint_big = OpConstant %uint 1000000\n%arr_big = OpTypeArray %uint %uint_big\n%ptr_big = OpTypePointer Function %arr_big\n"},
		{"%prologue = OpLabel\n", "%big = OpVariable %ptr_big Function\n"},
		{"OpStore %tcap ", "%hg = OpLoad %v3uint %gid\n%hx = OpCompositeExtract %uint %hg 0\n%hd = OpAccessChain %_ptr_StorageBuffer_uint %decisions %uint_0 %uint_0\n%hy = OpLoad %uint %hd\n%hp = OpAccessChain %_ptr_Function_uint %big %hx\nOpStore %hp %hx\n%hv = OpAccessChain %_ptr_Function_uint %big %hy\n%hl = OpLoad %uint %hv\n"},
		{"OpStore %sink %uint_0\n", "OpStore %sink %hl\n"},
	} {
		at := strings.Index(text, e[0])
		if at < 0 {
			t.Fatalf("the module's text has no %q:\n%s", e[0], text)
		}
		if strings.HasSuffix(e[0], "\n") { // after that line, else before it
			at += len(e[0])
		} else {
			at = strings.LastIndex(text[:at], "\n") + 1
		}
		text = text[:at] + e[1] + text[at:]
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "heavy.spvasm"), filepath.Join(dir, "heavy.spv")
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(as, "--target-env", "vulkan1.1", src, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, b)
	}
	heavy, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return heavy
}

// TestGPUCheckSlowModuleHoldsNoOtherCheck: a valid module that keeps the
// driver busy past the gpu check's timeout fails its own check with an
// error, its driver process killed, while a check started beside it passes
// at once on a process of its own.
func TestGPUCheckSlowModuleHoldsNoOtherCheck(t *testing.T) {
	g, module := gpuSubject(t, [][]int{{1, 2}, {3}, {3}, {}})
	heavy := heavyModule(t, module)
	const limit = 3 * time.Second
	o, err := oracle.New(oracle.Options{Checks: []string{"gpu"}, GPUTimeout: limit})
	if err != nil {
		t.Fatal(err)
	}
	if v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: module}); v.Status != oracle.Pass {
		t.Fatalf("the module as emitted: %+v", v)
	}
	slow := make(chan oracle.Verdict, 1)
	start := time.Now()
	go func() { slow <- runGPUCheck(o, &oracle.Subject{Graph: g, Module: heavy}) }()
	time.Sleep(limit / 3)
	if v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: module}); v.Status != oracle.Pass {
		t.Errorf("the module as emitted, beside the heavy one: %+v", v)
	}
	if took := time.Since(start); took >= limit {
		t.Errorf("the check beside the heavy module ended %v after it started: it waited for it", took)
	}
	v := <-slow
	t.Logf("the heavy module: %+v after %v", v, time.Since(start))
	if v.Status != oracle.Error || !strings.Contains(v.Detail, "no answer from the driver process running the module within "+limit.String()) {
		t.Errorf("the heavy module: %+v, want an error naming the limit", v)
	}
	if v := runGPUCheck(o, &oracle.Subject{Graph: g, Module: module}); v.Status != oracle.Pass {
		t.Errorf("the module as emitted, after the heavy one: %+v", v)
	}
}
