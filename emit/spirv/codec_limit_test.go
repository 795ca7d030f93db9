// codec_limit_test.go: the encoder refuses an instruction of more than
// MaxWords words (SPIR-V specification 2.3: the word count is 16 bits)
// instead of wrapping its count.
package spirv

import (
	"errors"
	"testing"
)

func TestEncodeRefusesOversizedInstruction(t *testing.T) {
	for _, words := range []int{MaxWords, MaxWords + 1, 2*MaxWords + 3} {
		m := &Module{Version: Version13, Bound: 10, Insts: []Instruction{
			{Op: OpNop},
			{Op: OpSwitch, Operands: make([]uint32, words-1)},
		}}
		_, errW := m.Encode()
		data, errB := m.Marshal()
		if words <= MaxWords {
			if errW != nil || errB != nil {
				t.Fatalf("%d words: refused: %v, %v", words, errW, errB)
			}
			back, err := Decode(data)
			if err != nil || len(back.Insts) != 2 || back.Insts[1].Words() != words {
				t.Fatalf("%d words: round trip: %v", words, err)
			}
			continue
		}
		for _, err := range []error{errW, errB} {
			var ee *EncodeError
			if !errors.As(err, &ee) || ee.Inst != 1 || ee.Op != OpSwitch || ee.Words != words {
				t.Fatalf("%d words: got %v, want an EncodeError naming instruction 1", words, err)
			}
		}
		func() {
			defer func() {
				if _, ok := recover().(*EncodeError); !ok {
					t.Fatalf("%d words: Bytes did not refuse", words)
				}
			}()
			m.Bytes()
		}()
	}
}
