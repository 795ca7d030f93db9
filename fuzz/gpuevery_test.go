// gpuevery_test.go: Settings.GPUEvery runs the gpu check on exactly the
// graphs whose index is a multiple of it, on the current side. A fake gpu
// check that always fails stands in for the driver (the real one is
// registered by cmd/cfgfuzz and tested in oracle/gpu).
package fuzz

import (
	"testing"

	"cfgfuzz/oracle"
)

func init() {
	oracle.RegisterCheck("gpu", "test stand-in: always fails", func(*oracle.Oracle, *oracle.Subject) oracle.Verdict {
		return oracle.Verdict{Status: oracle.Fail, Signature: "gpu:stand-in"}
	})
}

func TestGPUEveryRunsTheDriverCheckOnEveryNthGraph(t *testing.T) {
	c := testConfig(t, 60)
	c.GPUEvery = 4
	mustRun(t, c)
	recs, _, err := ReadRecords(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 60 {
		t.Fatalf("%d records, want 60", len(recs))
	}
	for _, r := range recs {
		want := r.Index%4 == 0
		got := r.Current.Signature == "gpu:stand-in"
		if got != want {
			t.Errorf("graph %d: gpu check ran %v, want %v (outcome %s %s)", r.Index, got, want, r.Current.Outcome, r.Current.Signature)
		}
	}
}
