// codec_test.go: Decode, and one Decoder reused from stream to stream,
// against a word-at-a-time reference (the byte order through the
// binary.ByteOrder interface, instructions appended one by one) on random
// instruction streams in both byte orders, whole and damaged, and
// EncodeBytes and WordsToBytes against Encode's words.
package spirv

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// decodeRef is Decode the obvious way.
func decodeRef(data []byte) (*Module, error) {
	if len(data)%4 != 0 || len(data) < 20 {
		return Decode(data) // the same header errors
	}
	var order binary.ByteOrder = binary.LittleEndian
	if binary.LittleEndian.Uint32(data) != Magic {
		if binary.BigEndian.Uint32(data) != Magic {
			return Decode(data)
		}
		order = binary.BigEndian
	}
	w := make([]uint32, len(data)/4)
	for i := range w {
		w[i] = order.Uint32(data[4*i:])
	}
	m := &Module{Version: w[1], Generator: w[2], Bound: w[3], Schema: w[4]}
	var insts []Instruction
	for i := 5; i < len(w); {
		count := int(w[i] >> 16)
		op := Op(w[i] & 0xffff)
		if count == 0 {
			return nil, &DecodeError{Word: i, Msg: fmt.Sprintf("instruction %d (opcode %d) has word count 0", len(insts), op)}
		}
		if i+count > len(w) {
			return nil, &DecodeError{Word: i, Msg: fmt.Sprintf("%s needs %d words but only %d remain", op, count, len(w)-i)}
		}
		insts = append(insts, Instruction{Op: op, Operands: w[i+1 : i+count]})
		i += count
	}
	m.Insts = make([]Instruction, len(insts))
	copy(m.Insts, insts)
	return m, nil
}

func TestDecodeAgainstReference(t *testing.T) {
	const seed = 61
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	var dec Decoder // reused: streams grow and shrink
	for i := range 2000 {
		m := &Module{Version: Version13, Generator: r.Uint32(), Bound: r.Uint32N(1000), Schema: r.Uint32N(2)}
		for range r.IntN(40) {
			ops := make([]uint32, r.IntN(7))
			for k := range ops {
				ops[k] = r.Uint32()
			}
			m.Insts = append(m.Insts, Instruction{Op: Op(r.Uint32N(400)), Operands: ops})
		}
		data := m.Bytes()
		if !reflect.DeepEqual(mustEncode(t, m), wordsOfBytes(data)) {
			t.Fatalf("stream %d: EncodeBytes differs from Encode", i)
		}
		if !reflect.DeepEqual(WordsToBytes(mustEncode(t, m)), data) {
			t.Fatalf("stream %d: WordsToBytes (PutWords) differs from EncodeBytes", i)
		}
		switch i % 4 {
		case 1: // big-endian
			for k := 0; k+4 <= len(data); k += 4 {
				binary.BigEndian.PutUint32(data[k:], binary.LittleEndian.Uint32(data[k:]))
			}
		case 2: // a word overwritten
			if len(data) > 20 {
				w := 5 + r.IntN(len(data)/4-5)
				binary.LittleEndian.PutUint32(data[4*w:], r.Uint32()>>uint(r.IntN(32)))
			}
		case 3: // cut
			data = data[:r.IntN(len(data)+1)]
		}
		got, err := Decode(data)
		want, werr := decodeRef(data)
		if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("stream %d (variant %d): Decode %v %v, reference %v %v", i, i%4, got, err, want, werr)
		}
		if got, err := dec.Decode(data); fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("stream %d (variant %d): a reused Decoder %v %v, reference %v %v", i, i%4, got, err, want, werr)
		}
	}
}

func wordsOfBytes(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// mustEncode is m.Encode() for a module that fits.
func mustEncode(t *testing.T, m *Module) []uint32 {
	t.Helper()
	w, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestDecodeNamesTheMagicFirst: a file that is not SPIR-V is told so by
// its magic number, whatever its length; a SPIR-V file of a bad length by
// its length.
func TestDecodeNamesTheMagicFirst(t *testing.T) {
	spv := make([]byte, 22)
	binary.LittleEndian.PutUint32(spv, Magic)
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte("# a report\nnot a module, 31 bytes"), "magic number"},
		{[]byte("abcdefgh"), "magic number"},
		{spv, "not a multiple of 4"},
		{spv[:8], "a module needs a 5-word header"},
		{[]byte{3}, "not a multiple of 4"},
	} {
		_, err := Decode(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.data, err, c.want)
		}
	}
}
