// spirvval.go: SPIRV-Tools' validator as a check. The Validator interface is
// the seam around it: ExecValidator runs the spirv-val executable (about
// 7-10 ms a module, mostly process start); LibValidator (spirvval_cgo.go)
// runs it in-process and is the default when built with cgo. Messages are normalized into signatures by
// NormalizeValidatorMessage so equal defects deduplicate.

package oracle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// Validator validates a SPIR-V binary. ok false with msg is an invalid
// module (a finding); err is a harness failure (validator missing, crashed).
type Validator interface {
	Name() string
	Validate(module []byte) (ok bool, msg string, err error)
}

// ExecValidator runs the spirv-val executable. The zero value runs
// "spirv-val" from PATH with --target-env vulkan1.1 and a 60 s limit.
type ExecValidator struct {
	Path    string
	Env     string // target environment; "" means vulkan1.1
	Timeout time.Duration
}

// Name is "spirv-val (exec)".
func (v ExecValidator) Name() string { return "spirv-val (exec)" }

// Validate pipes the module to spirv-val on standard input.
func (v ExecValidator) Validate(module []byte) (bool, string, error) {
	path, env, timeout := v.Path, v.Env, v.Timeout
	if path == "" {
		path = "spirv-val"
	}
	if env == "" {
		env = "vulkan1.1"
	}
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--target-env", env, "-")
	cmd.Stdin = bytes.NewReader(module)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		return true, "", nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && ctx.Err() == nil && exit.ExitCode() == 1 {
		return false, strings.TrimSpace(out.String()), nil
	}
	return false, "", fmt.Errorf("spirv-val: %v: %s", err, strings.TrimSpace(out.String()))
}

// DefaultTargetEnv is the validator's target environment when none is set.
const DefaultTargetEnv = "vulkan1.1"

// UnknownTargetEnv is the validator's refusal of target environment env,
// or nil when env is known here. Only a validator that runs on the
// default environment can tell that another is unknown; without one the
// answer is nil, and spirv-val says why it cannot run when its check is
// asked for.
func UnknownTargetEnv(env string) error {
	if env == "" || env == DefaultTargetEnv {
		return nil
	}
	if _, err := LookupValidator(env); err != nil {
		if _, derr := LookupValidator(DefaultTargetEnv); derr == nil {
			return err
		}
	}
	return nil
}

// LookupExecValidator returns the executable validator, or an error that
// says how to install it.
func LookupExecValidator(env string) (Validator, error) {
	path, err := exec.LookPath("spirv-val")
	if err != nil {
		return nil, fmt.Errorf("spirv-val: no in-process validator in this build (no cgo) and no spirv-val executable on PATH: build with cgo and libSPIRV-Tools, or install SPIRV-Tools (Debian: apt-get install spirv-tools)")
	}
	return ExecValidator{Path: path, Env: env}, nil
}

// execValidatorVersion is the first line of `spirv-val --version`
// ("SPIRV-Tools v2023.1 unknown hash, DATE"), or a line that says why
// there is none.
func execValidatorVersion() string {
	path, err := exec.LookPath("spirv-val")
	if err != nil {
		return "no spirv-val on PATH"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	line, _, _ := strings.Cut(string(out), "\n")
	if line = strings.TrimSpace(line); err != nil || line == "" {
		return "spirv-val --version failed"
	}
	return line
}

var (
	reValLine   = regexp.MustCompile(`(?m)^\s*(error|warning):\s*(line \d+:\s*)?`)
	reValIDName = regexp.MustCompile(`\d+\[%[^\]]*\]|%[A-Za-z0-9_.]+|\b\d+\b`)
	reSpaces    = regexp.MustCompile(`\s+`)
)

// NormalizeValidatorMessage reduces a spirv-val message to a stable
// signature: its first line, without "error: line N:", ids, names and
// numbers, whitespace collapsed.
func NormalizeValidatorMessage(msg string) string {
	first := msg
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		first = msg[:i]
	}
	first = reValLine.ReplaceAllString(first, "")
	first = reValIDName.ReplaceAllString(first, "N")
	first = reSpaces.ReplaceAllString(strings.TrimSpace(first), " ")
	if len(first) > 120 {
		first = first[:120]
	}
	return first
}
