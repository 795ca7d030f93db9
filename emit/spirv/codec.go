// codec.go: encoding a Module to words and bytes, and decoding bytes back,
// with errors that name the word offset (SPIR-V specification 2.3).
package spirv

import (
	"encoding/binary"
	"fmt"
)

// DecodeError is a malformed binary: Word is the offset of the offending
// word.
type DecodeError struct {
	Word int
	Msg  string
}

func (e *DecodeError) Error() string { return fmt.Sprintf("spirv: word %d: %s", e.Word, e.Msg) }

// Encode returns the module as words (header first).
func (m *Module) Encode() []uint32 {
	n := 5
	for _, in := range m.Insts {
		n += in.Words()
	}
	w := make([]uint32, 0, n)
	w = append(w, Magic, m.Version, m.Generator, m.Bound, m.Schema)
	for _, in := range m.Insts {
		w = append(w, uint32(in.Words())<<16|uint32(in.Op))
		w = append(w, in.Operands...)
	}
	return w
}

// Bytes returns the module as little-endian bytes.
func (m *Module) Bytes() []byte {
	return EncodeBytes(m.Version, m.Generator, m.Bound, m.Schema, m.Insts)
}

// EncodeBytes is the little-endian encoding of a module whose instructions
// are the sections in order, written in one allocation: the bytes of
// Module{...}.Encode() through WordsToBytes.
func EncodeBytes(version, generator, bound, schema uint32, sections ...[]Instruction) []byte {
	n := 5
	for _, sec := range sections {
		for _, in := range sec {
			n += in.Words()
		}
	}
	out := make([]byte, 4*n)
	for i, x := range [5]uint32{Magic, version, generator, bound, schema} {
		binary.LittleEndian.PutUint32(out[4*i:4*i+4], x)
	}
	dst := out[20:]
	for _, sec := range sections {
		for _, in := range sec {
			// The instruction's words; operands two to a 64-bit store
			// (the little-endian bytes of one word, then the next's).
			ops := in.Operands
			binary.LittleEndian.PutUint32(dst, uint32(len(ops)+1)<<16|uint32(in.Op))
			dst = dst[4:]
			for len(ops) >= 2 {
				binary.LittleEndian.PutUint64(dst, uint64(ops[0])|uint64(ops[1])<<32)
				dst, ops = dst[8:], ops[2:]
			}
			if len(ops) == 1 {
				binary.LittleEndian.PutUint32(dst, ops[0])
				dst = dst[4:]
			}
		}
	}
	return out
}

// WordsToBytes encodes words little-endian.
func WordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// Decode parses a binary module in either byte order. It checks the header
// and that every instruction fits; it does not validate semantics.
func Decode(data []byte) (*Module, error) {
	if len(data)%4 != 0 {
		return nil, &DecodeError{Word: len(data) / 4, Msg: fmt.Sprintf("length %d bytes is not a multiple of 4", len(data))}
	}
	if len(data) < 20 {
		return nil, &DecodeError{Word: 0, Msg: fmt.Sprintf("only %d bytes: a module needs a 5-word header", len(data))}
	}
	big := false
	switch {
	case binary.LittleEndian.Uint32(data) == Magic:
	case binary.BigEndian.Uint32(data) == Magic:
		big = true
	default:
		return nil, &DecodeError{Word: 0, Msg: fmt.Sprintf("magic number 0x%08x is not SPIR-V's 0x%08x", binary.LittleEndian.Uint32(data), Magic)}
	}
	words := make([]uint32, len(data)/4)
	wordsOf(words, data, big)
	return DecodeWords(words)
}

// wordsOf reads data's words little-endian, or big-endian: each reading a
// direct call the compiler inlines, not one through the binary.ByteOrder
// interface (every module of a campaign is decoded).
func wordsOf(words []uint32, data []byte, big bool) {
	if big {
		for i := range words {
			words[i] = binary.BigEndian.Uint32(data[4*i : 4*i+4])
		}
		return
	}
	i := 0
	for ; i+2 <= len(words); i += 2 { // two words a load
		x := binary.LittleEndian.Uint64(data[4*i : 4*i+8])
		words[i], words[i+1] = uint32(x), uint32(x>>32)
	}
	if i < len(words) {
		words[i] = binary.LittleEndian.Uint32(data[4*i : 4*i+4])
	}
}

// DecodeWords parses a module given as host-order words.
func DecodeWords(w []uint32) (*Module, error) {
	if len(w) < 5 {
		return nil, &DecodeError{Word: 0, Msg: "truncated header"}
	}
	if w[0] != Magic {
		return nil, &DecodeError{Word: 0, Msg: fmt.Sprintf("magic number 0x%08x is not SPIR-V's", w[0])}
	}
	m := &Module{Version: w[1], Generator: w[2], Bound: w[3], Schema: w[4]}
	// Operands are slices of w; the instruction list is allocated once, at
	// the size a first pass over the word counts gives.
	n := 0
	for i := 5; i < len(w) && w[i]>>16 != 0; i += int(w[i] >> 16) {
		n++
	}
	// Every instruction the second pass reaches without an error was
	// counted by the first.
	m.Insts = make([]Instruction, n)
	k := 0
	for i := 5; i < len(w); k++ {
		count := int(w[i] >> 16)
		op := Op(w[i] & 0xffff)
		if count == 0 {
			return nil, &DecodeError{Word: i, Msg: fmt.Sprintf("instruction %d (opcode %d) has word count 0", k, op)}
		}
		if i+count > len(w) {
			return nil, &DecodeError{Word: i, Msg: fmt.Sprintf("%s needs %d words but only %d remain", op, count, len(w)-i)}
		}
		m.Insts[k] = Instruction{Op: op, Operands: w[i+1 : i+count : i+count]}
		i += count
	}
	return m, nil
}

// String encodes a literal string operand: UTF-8, NUL-terminated, padded to
// a word boundary.
func String(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// ReadString decodes a literal string starting at operands[0] and returns it
// with the number of words it used. A string without a terminating NUL runs
// to the end of the operands.
func ReadString(operands []uint32) (string, int) {
	var b []byte
	for i, x := range operands {
		for k := range 4 {
			c := byte(x >> (8 * k))
			if c == 0 {
				return string(b), i + 1
			}
			b = append(b, c)
		}
	}
	return string(b), len(operands)
}
