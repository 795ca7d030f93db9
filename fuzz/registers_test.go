// registers_test.go: a campaign's register file (Settings.Registers)
// reaches both the oracle and the side: a side answering with a function
// or with a module carrying the asked file passes, one whose modules
// ignore proto.Options.Registers fails exec with registers-mismatch.
package fuzz

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// moduleSide answers with modules emitted here, with a file of
// registers(opt) values.
func moduleSide(registers func(proto.Options) int) SideFactory {
	return SideFactory{Describe: "module side", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			a := structureLocal(g, opt)
			if a.Func != nil {
				mod, err := emit.Bytes(a.Func, emit.Options{Registers: registers(opt)})
				if err != nil {
					return Answer{Outcome: proto.Error, Reason: err.Error()}
				}
				a.Func, a.Module = nil, mod
			}
			return a
		}}, nil
	}}
}

func TestRegistersReachOracleAndSide(t *testing.T) {
	for _, tc := range []struct {
		name   string
		side   SideFactory
		failed bool
	}{
		{"func", InProcessFactory(), false},
		{"module with the file", moduleSide(func(o proto.Options) int { return o.Registers }), false},
		{"module without it", moduleSide(func(proto.Options) int { return 0 }), true},
	} {
		c := testConfig(t, 40)
		c.Registers, c.Current = 16, tc.side
		o := mustRun(t, c)
		var mismatches int
		for _, f := range o.Report.Findings {
			if f.Signature != "exec:registers-mismatch" {
				t.Errorf("%s: finding %s: %s", tc.name, f.Signature, f.First.Detail)
				continue
			}
			mismatches += f.Count
		}
		if (mismatches > 0) != tc.failed {
			t.Errorf("%s: %d graphs with exec:registers-mismatch, want them: %v", tc.name, mismatches, tc.failed)
		}
	}
}
