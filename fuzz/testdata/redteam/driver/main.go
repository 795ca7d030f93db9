// Command driver runs the red-team modes of testdata/redteam/server, each
// against a short `cfgfuzz run` campaign, and prints one row per mode: the
// campaign's exit status and wall time, the outcomes, the findings by
// signature, the peak resident memory of the cfgfuzz process (VmHWM from
// /proc, sampled every 10 ms) and the processes the mode left alive (found
// by an environment marker every process of the run inherits). The signal
// rows send SIGINT, SIGTERM or SIGHUP to cfgfuzz one second into a campaign
// on a server that detaches children. A row is contained when the campaign
// ended on its own (or on its signal) within the bound, left no process and
// stayed under the memory bound; the driver exits 1 when a row is not.
// Linux only (/proc). run.sh builds the binaries and runs it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const markEnv = "CFGFUZZ_REDTEAM_MARK"

var defaultModes = "good,garbage,wrong-id,exit,panic,invalid,both,neither,bad-outcome,hang,slow,huge-line,endless," +
	"detach,detach-exit,detach-deep,closed-stdout,ignore-stdin,blank-line,huge-orig,empty-block,stderr-flood,sigint,sigterm,sighup"

func main() {
	cfgfuzz := flag.String("cfgfuzz", "", "the cfgfuzz binary")
	server := flag.String("server", "", "the red-team server binary")
	modes := flag.String("modes", defaultModes, "modes, comma-separated")
	graphs := flag.Int("graphs", 6, "graphs per campaign")
	timeout := flag.Duration("timeout", time.Second, "per-graph limit")
	bound := flag.Duration("bound", 60*time.Second, "longest a campaign may take")
	maxRSS := flag.Int("max-rss-mb", 200, "memory bound of a contained mode, MB")
	flag.Parse()
	if *cfgfuzz == "" || *server == "" {
		fmt.Fprintln(os.Stderr, "usage: driver -cfgfuzz BIN -server BIN [-modes a,b] [-graphs N] [-timeout D]")
		os.Exit(2)
	}
	fmt.Printf("%-14s %4s %6s %7s %7s  %-44s %s\n", "mode", "exit", "wall", "rss-MB", "orphans", "outcomes", "findings (signature: graphs)")
	failed := 0
	for _, m := range strings.Split(*modes, ",") {
		r := runMode(*cfgfuzz, *server, m, *graphs, *timeout, *bound)
		ok := r.contained && r.orphans == 0 && r.rssKB < *maxRSS*1024
		if !ok {
			failed++
		}
		mark := ""
		if !ok {
			mark = "  NOT CONTAINED"
		}
		fmt.Printf("%-14s %4d %5.1fs %7.1f %7d  %-44s %s%s\n", m, r.exit, r.wall.Seconds(), float64(r.rssKB)/1024, r.orphans, r.outcomes, r.findings, mark)
	}
	if failed > 0 {
		fmt.Printf("%d modes not contained\n", failed)
		os.Exit(1)
	}
	fmt.Println("every mode contained")
}

type result struct {
	exit               int
	wall               time.Duration
	rssKB              int
	orphans            int
	outcomes, findings string
	contained          bool
}

// signalOf is the signal a signal row sends, or 0.
func signalOf(mode string) syscall.Signal {
	switch mode {
	case "sigint":
		return syscall.SIGINT
	case "sigterm":
		return syscall.SIGTERM
	case "sighup":
		return syscall.SIGHUP
	}
	return 0
}

func runMode(cfgfuzz, server, mode string, graphs int, timeout, bound time.Duration) result {
	out, err := os.MkdirTemp("", "redteam-"+mode+"-")
	if err != nil {
		return result{findings: err.Error()}
	}
	defer os.RemoveAll(out)
	serverMode, n := mode, graphs
	sig := signalOf(mode)
	if sig != 0 {
		serverMode, n = "detach", 1_000_000 // runs until the signal
	}
	mark := fmt.Sprintf("%s-%d-%d", mode, os.Getpid(), time.Now().UnixNano())
	cmd := exec.Command(cfgfuzz, "run", "--structurizer", server+" "+serverMode, "--graphs", strconv.Itoa(n),
		"--timeout", timeout.String(), "--workers", "2", "--out", out, "--progress", "none", "--minimize=false")
	cmd.Env = append(os.Environ(), markEnv+"="+mark)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{findings: err.Error()}
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	r := result{contained: true}
	sample := time.NewTicker(10 * time.Millisecond)
	defer sample.Stop()
	signalAt := time.After(time.Second)
	limit := time.After(bound)
wait:
	for {
		select {
		case <-done:
			break wait
		case <-sample.C:
			r.rssKB = max(r.rssKB, peakRSS(cmd.Process.Pid))
		case <-signalAt:
			if sig != 0 {
				cmd.Process.Signal(sig)
			}
		case <-limit:
			r.contained = false
			cmd.Process.Kill()
			<-done
			break wait
		}
	}
	r.wall = time.Since(start)
	r.exit = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.exit = 128 + int(ws.Signal())
	}
	time.Sleep(200 * time.Millisecond) // let killed processes die
	left := marked(mark)
	r.orphans = len(left)
	for _, pid := range left {
		syscall.Kill(pid, syscall.SIGKILL) // the driver cleans up what the mode left
	}
	r.outcomes, r.findings = summary(filepath.Join(out, "report.json"))
	if r.outcomes == "" {
		r.outcomes = "no report: " + lastLine(stderr.String())
	}
	return r
}

// peakRSS is VmHWM of pid in KB (0 when it is gone).
func peakRSS(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// marked lists the live processes (zombies excluded) whose environment
// holds the mark.
func marked(mark string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, []byte(markEnv+"="+mark)) {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(st, ')'); err == nil && i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// summary reads the outcomes and the findings of a report.json.
func summary(path string) (outcomes, findings string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", ""
	}
	var rep struct {
		Outcomes map[string]int `json:"outcomes"`
		Findings []struct {
			Signature string `json:"signature"`
			Count     int    `json:"count"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return "bad report: " + err.Error(), ""
	}
	var outs []string
	for k, v := range rep.Outcomes {
		if v > 0 {
			outs = append(outs, fmt.Sprintf("%s %d", k, v))
		}
	}
	sort.Strings(outs)
	var fs []string
	for _, f := range rep.Findings {
		fs = append(fs, fmt.Sprintf("%s: %d", f.Signature, f.Count))
	}
	if len(fs) == 0 {
		fs = []string{"none"}
	}
	return strings.Join(outs, ", "), strings.Join(fs, "; ")
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}
