package oracle

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// diamondBytes is the module of a structurized diamond (diamondModule).
func diamondBytes(t *testing.T) []byte {
	t.Helper()
	_, m := diamondModule(t)
	return m.Bytes()
}

// TestDisassembleIsSpirvDis: with the library linked, Disassemble prints
// what the spirv-dis executable prints for the same module, byte for
// byte, also where a structurizer's OpName is short but no identifier (a
// quote, a newline, an escape, empty); the vector type's component count
// is a literal, not an id.
func TestDisassembleIsSpirvDis(t *testing.T) {
	if !HaveLibValidator {
		t.Skip("built without cgo: Disassemble is emit/spirv's (TestDisassembleFallbackLiterals)")
	}
	mod := diamondBytes(t)
	text, err := Disassemble(mod)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "OpTypeVector %uint 3") {
		t.Errorf("no vector type of 3 components in\n%s", text)
	}
	dis, err := exec.LookPath("spirv-dis")
	if err != nil {
		t.Skip("no spirv-dis to compare with")
	}
	for _, name := range []string{"", `q"uo'te`, "a\nb", "\x1b[31mred", "main"} {
		m := renamed(t, name)
		text, err := Disassemble(m)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(dis, "-")
		cmd.Stdin = bytes.NewReader(m)
		want, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if text != string(want) {
			t.Errorf("OpName %q: Disassemble:\n%s\nspirv-dis:\n%s", name, text, want)
		}
	}
}

// renamed is the diamond's module with its first OpName's string name.
func renamed(t *testing.T, name string) []byte {
	t.Helper()
	_, m := diamondModule(t)
	for i, in := range m.Insts {
		if in.Op == spirv.OpName {
			m.Insts[i].Operands = append([]uint32{in.Operands[0]}, spirv.String(name)...)
			break
		}
	}
	return m.Bytes()
}

// TestDisassembleUnprintableNames: a module whose OpName is longer than
// an id name may be (64 bytes) is disassembled with numbered ids, the
// name's string printed once, so the text stays a small factor of the
// module's size.
func TestDisassembleUnprintableNames(t *testing.T) {
	long := strings.Repeat("x", 4096)
	mod := renamed(t, long)
	text, err := Disassemble(mod)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(text, long); n != 1 {
		t.Errorf("the long name is printed %d times, want once", n)
	}
	if len(text) > 4*len(mod)+8192 {
		t.Errorf("%d bytes of text for a module of %d", len(text), len(mod))
	}
}

// TestDisassembleFallbackLiterals: emit/spirv's own disassembly prints
// literal operands as numbers, not as the ids they happen to equal.
func TestDisassembleFallbackLiterals(t *testing.T) {
	_, m := diamondModule(t)
	text := spirv.Disassemble(m)
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "OpTypeVector") && !strings.HasSuffix(line, " 3") {
			t.Errorf("vector type %q: want its count, 3, as a literal", line)
		}
	}
	if !strings.Contains(text, "OpTypeVector") {
		t.Errorf("no vector type in\n%s", text)
	}
}
