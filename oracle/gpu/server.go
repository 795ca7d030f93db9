// server.go: the driver in a process of its own. A driver runs the
// modules of the structurizer under test, and a module can crash it
// (lavapipe dies on some), or keep it compiling or dispatching for minutes;
// in cfgfuzz's own process the first kills the campaign and the second
// holds the device's queue, so every later gpu check waits behind it. A
// driver server is this program started again with ServerEnv set
// (ServeIfAsked, called first thing by main): it opens the device and runs
// the jobs a Pool sends it, one at a time, on standard input and output.
//
// The wire is encoding/gob, one value per message, in this order: the
// client's serverHello, the server's serverInfo; then any number of
// serverJob and serverAnswer pairs, each job an Execute or, with Time set,
// an Executor.Time. The server ends at the end of its input.

package gpu

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// ServerEnv, set in a process's environment, makes ServeIfAsked serve: its
// value is the device kind to open.
const ServerEnv = "CFGFUZZ_GPU_SERVER"

// serverHello opens the server's device.
type serverHello struct {
	Options Options
}

// serverInfo answers the hello: the device, or why it did not open.
type serverInfo struct {
	Info DeviceInfo
	Err  wireError
}

// serverJob is one Execute, or one Executor.Time when Time is set.
type serverJob struct {
	Module []byte
	Batch  spirv.Batch
	Walks  int
	Time   *TimeOptions
}

// serverAnswer is a job's observations, or its error, and for a timed job
// what was measured.
type serverAnswer struct {
	Observed []spirv.Observed
	Timing   Timing
	Err      wireError
}

// wireError carries an error across the wire keeping what IsDriverError
// tells: a *DriverError, ErrNotBuilt, or any other error's text.
type wireError struct {
	Driver   *DriverError
	NotBuilt bool
	Text     string
}

func toWire(err error) wireError {
	var d *DriverError
	switch {
	case err == nil:
		return wireError{}
	case errors.As(err, &d):
		return wireError{Driver: d}
	case errors.Is(err, ErrNotBuilt):
		return wireError{NotBuilt: true}
	}
	return wireError{Text: err.Error()}
}

func (w wireError) err() error {
	switch {
	case w.Driver != nil:
		return w.Driver
	case w.NotBuilt:
		return ErrNotBuilt
	case w.Text != "":
		return errors.New(w.Text)
	}
	return nil
}

// ServeIfAsked serves as a driver server when ServerEnv is set, and then
// exits the process; otherwise it returns at once. main (and the TestMain
// of a test binary that runs the gpu check) calls it before anything else.
func ServeIfAsked() {
	if os.Getenv(ServerEnv) == "" {
		return
	}
	if err := Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gpu driver server:", err)
		os.Exit(2)
	}
	os.Exit(0)
}

// Serve opens the device the hello on in asks for, answers with it, and
// runs every job that follows, answering each, until in ends. A device
// that does not open is answered and ends the server with no error.
func Serve(in io.Reader, out io.Writer) error {
	dec := gob.NewDecoder(bufio.NewReader(in))
	bw := bufio.NewWriter(out)
	enc := gob.NewEncoder(bw)
	send := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return err
		}
		return bw.Flush()
	}
	var h serverHello
	if err := dec.Decode(&h); err != nil {
		return fmt.Errorf("reading the hello: %w", err)
	}
	ex, err := Open(h.Options)
	info := serverInfo{Err: toWire(err)}
	if err == nil {
		info.Info = ex.Info()
	}
	if err := send(info); err != nil || ex == nil {
		return err
	}
	for {
		var j serverJob
		if err := dec.Decode(&j); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading a job: %w", err)
		}
		var a serverAnswer
		var err error
		if j.Time != nil {
			a.Timing, a.Observed, err = ex.Time(j.Module, &j.Batch, j.Walks, *j.Time)
		} else {
			a.Observed, err = ex.Execute(j.Module, &j.Batch, j.Walks)
		}
		a.Err = toWire(err)
		if err := send(a); err != nil {
			return err
		}
	}
}
