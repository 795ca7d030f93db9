// Command structurize serves protocols v1 and v2 (fuzz/PROTOCOL.md) over standard
// input and output with this tree's structurizer: one JSON request a line
// in, one JSON response a line out. cfgfuzz builds it at a baseline commit
// and runs it as a process; a panic or a hang here takes down only this
// process, which cfgfuzz reports as a finding and restarts.
//
//	structurize [--form module|func] [--inject FAULT,...]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func main() {
	form := flag.String("form", "module", "what an ok response carries: module (SPIR-V, base64) or func (structured function JSON)")
	inject := flag.String("inject", "", "faults planted in every answer, whatever the request asks: "+strings.Join(structurizer.FaultNames(), ", "))
	flag.Parse()
	if *form != "module" && *form != "func" {
		fmt.Fprintln(os.Stderr, "structurize: --form must be module or func")
		os.Exit(2)
	}
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "structurize: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	var faults []string
	if *inject != "" {
		faults = strings.Split(*inject, ",")
	}
	if err := proto.CheckOptions(proto.Options{Inject: faults}); err != nil {
		fmt.Fprintln(os.Stderr, "structurize:", err)
		os.Exit(2)
	}
	if err := proto.ServeDeclared(os.Stdin, os.Stdout, proto.WithFaults(proto.Local(*form == "module"), faults), proto.LocalDeclare); err != nil {
		fmt.Fprintln(os.Stderr, "structurize:", err)
		os.Exit(2)
	}
}
