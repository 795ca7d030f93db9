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

// MaxWords is the most words one instruction may have: its word count is
// the high 16 bits of its first word (SPIR-V specification 2.3).
const MaxWords = 0xffff

// EncodeError is an instruction that cannot be encoded: Inst is its index
// among the module's instructions (all sections counted in order).
type EncodeError struct {
	Inst  int
	Op    Op
	Words int
}

func (e *EncodeError) Error() string {
	return fmt.Sprintf("spirv: instruction %d (%s) has %d words, more than the %d a word count can say", e.Inst, e.Op, e.Words, MaxWords)
}

// checkWords refuses an instruction of more than MaxWords words.
func checkWords(sections [][]Instruction) error {
	k := 0
	for _, sec := range sections {
		for _, in := range sec {
			if in.Words() > MaxWords {
				return &EncodeError{Inst: k, Op: in.Op, Words: in.Words()}
			}
			k++
		}
	}
	return nil
}

// Encode returns the module as words (header first); an instruction of
// more than MaxWords words is an *EncodeError, never a wrapped count.
func (m *Module) Encode() ([]uint32, error) {
	if err := checkWords([][]Instruction{m.Insts}); err != nil {
		return nil, err
	}
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
	return w, nil
}

// Marshal returns the module as little-endian bytes; an instruction of
// more than MaxWords words is an *EncodeError.
func (m *Module) Marshal() ([]byte, error) {
	return EncodeBytes(m.Version, m.Generator, m.Bound, m.Schema, m.Insts)
}

// Bytes is Marshal for a module known to encode, as one decoded from a
// binary or built by a test: it panics with the *EncodeError on an
// instruction of more than MaxWords words rather than wrap its count.
func (m *Module) Bytes() []byte {
	b, err := m.Marshal()
	if err != nil {
		panic(err)
	}
	return b
}

// EncodeBytes is the little-endian encoding of a module whose instructions
// are the sections in order, written in one allocation: the bytes of
// Module{...}.Encode() through WordsToBytes, or the same *EncodeError.
func EncodeBytes(version, generator, bound, schema uint32, sections ...[]Instruction) ([]byte, error) {
	if err := checkWords(sections); err != nil {
		return nil, err
	}
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
	at := 20
	for _, sec := range sections {
		for k := range sec {
			at = putInstruction(out, at, sec[k].Op, sec[k].Operands)
		}
	}
	return out, nil
}

// putInstruction writes an instruction's words at out[at:] (out has room)
// and returns the offset after them. The common lengths are written with
// one bounds check each, operands two to a 64-bit store (the little-endian
// bytes of one word, then the next's).
func putInstruction(out []byte, at int, op Op, ops []uint32) int {
	head := uint32(len(ops)+1)<<16 | uint32(op)
	le := binary.LittleEndian
	switch len(ops) {
	case 0:
		le.PutUint32(out[at:at+4], head)
		return at + 4
	case 1:
		d := out[at : at+8 : at+8]
		le.PutUint64(d, uint64(head)|uint64(ops[0])<<32)
		return at + 8
	case 2:
		d, o := out[at:at+12:at+12], ops[:2:2]
		le.PutUint64(d[0:8], uint64(head)|uint64(o[0])<<32)
		le.PutUint32(d[8:12], o[1])
		return at + 12
	case 3:
		d, o := out[at:at+16:at+16], ops[:3:3]
		le.PutUint64(d[0:8], uint64(head)|uint64(o[0])<<32)
		le.PutUint64(d[8:16], uint64(o[1])|uint64(o[2])<<32)
		return at + 16
	case 4:
		d, o := out[at:at+20:at+20], ops[:4:4]
		le.PutUint64(d[0:8], uint64(head)|uint64(o[0])<<32)
		le.PutUint64(d[8:16], uint64(o[1])|uint64(o[2])<<32)
		le.PutUint32(d[16:20], o[3])
		return at + 20
	}
	le.PutUint32(out[at:at+4], head)
	at += 4
	for _, w := range ops {
		le.PutUint32(out[at:at+4], w)
		at += 4
	}
	return at
}

// WordsToBytes encodes words little-endian.
func WordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	PutWords(b, w)
	return b
}

// PutWords writes w little-endian at the start of dst (which has room):
// four words a turn, two 64-bit stores and one bounds check.
func PutWords(dst []byte, w []uint32) {
	i := 0
	for ; i+4 <= len(w); i += 4 {
		s, d := w[i:i+4:i+4], dst[4*i:4*i+16:4*i+16]
		binary.LittleEndian.PutUint64(d[0:8], uint64(s[0])|uint64(s[1])<<32)
		binary.LittleEndian.PutUint64(d[8:16], uint64(s[2])|uint64(s[3])<<32)
	}
	for ; i < len(w); i++ {
		binary.LittleEndian.PutUint32(dst[4*i:4*i+4], w[i])
	}
}

// Decode parses a binary module in either byte order. It checks the header
// and that every instruction fits; it does not validate semantics.
func Decode(data []byte) (*Module, error) {
	var d Decoder
	return d.Decode(data)
}

// Decoder decodes modules into memory it keeps from one module to the
// next: the words, the instruction list and the Module itself. A module it
// returns is valid until its next Decode; the zero value is ready. Not
// safe for concurrent use.
type Decoder struct {
	words []uint32
	insts []Instruction
	mod   Module
}

// Decode is the package's Decode into d's memory.
func (d *Decoder) Decode(data []byte) (*Module, error) {
	// The magic number first: a file that is not SPIR-V at all is told so,
	// whatever its length.
	big := false
	switch {
	case len(data) < 4:
	case binary.LittleEndian.Uint32(data) == Magic:
	case binary.BigEndian.Uint32(data) == Magic:
		big = true
	default:
		return nil, &DecodeError{Word: 0, Msg: fmt.Sprintf("magic number 0x%08x is not SPIR-V's 0x%08x", binary.LittleEndian.Uint32(data), Magic)}
	}
	if len(data)%4 != 0 {
		return nil, &DecodeError{Word: len(data) / 4, Msg: fmt.Sprintf("length %d bytes is not a multiple of 4", len(data))}
	}
	if len(data) < 20 {
		return nil, &DecodeError{Word: 0, Msg: fmt.Sprintf("only %d bytes: a module needs a 5-word header", len(data))}
	}
	d.words = sized(d.words, len(data)/4)
	wordsOf(d.words, data, big)
	return d.decodeWords(d.words)
}

// sized is buf with length n: buf's memory when it is large enough, new
// memory otherwise (never nil); its contents are left to the caller to
// overwrite.
func sized[T any](buf []T, n int) []T {
	if buf == nil || cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
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
	for ; i+4 <= len(words); i += 4 { // four words, two loads, one bounds check
		w, d := words[i:i+4:i+4], data[4*i:4*i+16:4*i+16]
		x, y := binary.LittleEndian.Uint64(d[0:8]), binary.LittleEndian.Uint64(d[8:16])
		w[0], w[1], w[2], w[3] = uint32(x), uint32(x>>32), uint32(y), uint32(y>>32)
	}
	for ; i < len(words); i++ {
		words[i] = binary.LittleEndian.Uint32(data[4*i : 4*i+4])
	}
}

// DecodeWords parses a module given as host-order words.
func DecodeWords(w []uint32) (*Module, error) {
	var d Decoder
	return d.decodeWords(w)
}

// decodeWords is DecodeWords into d's instruction list and Module; the
// operands are slices of w.
func (d *Decoder) decodeWords(w []uint32) (*Module, error) {
	if len(w) < 5 {
		return nil, &DecodeError{Word: 0, Msg: "truncated header"}
	}
	if w[0] != Magic {
		return nil, &DecodeError{Word: 0, Msg: fmt.Sprintf("magic number 0x%08x is not SPIR-V's", w[0])}
	}
	// The instruction list is sized by a first pass over the word counts.
	n := 0
	for i := 5; i < len(w) && w[i]>>16 != 0; i += int(w[i] >> 16) {
		n++
	}
	// Every instruction the second pass reaches without an error was
	// counted by the first.
	insts := sized(d.insts, n) // filled through a local: no reload of m.Insts
	d.insts = insts
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
		insts[k] = Instruction{Op: op, Operands: w[i+1 : i+count : i+count]}
		i += count
	}
	d.mod = Module{Version: w[1], Generator: w[2], Bound: w[3], Schema: w[4], Insts: insts}
	return &d.mod, nil
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
