// baseline.go builds one revision's cmd/structurize: the commit is checked
// out in a detached git worktree, built there, and the binary cached by
// commit hash under os.UserCacheDir()/cfgfuzz/structurize/, so every shard
// and every later campaign against the same commit reuses it. A build
// leaves nothing behind, cancelled or not (baseline_cleanup.go).
package fuzz

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BuildOptions configures BuildRevision. The zero value builds from the
// repository containing the current directory into the user cache, quietly.
type BuildOptions struct {
	Repo     string    // a directory inside the git repository; "" the current directory
	CacheDir string    // "" os.UserCacheDir()/cfgfuzz
	Log      io.Writer // build messages; nil discards
	// Context cancels the build (its git and go processes are killed and
	// everything it made removed); nil means Background.
	Context context.Context
}

// ResolveRevision returns the full commit hash of rev.
func ResolveRevision(rev string, opt BuildOptions) (string, error) {
	out, err := git(opt.Repo, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("revision %q: not a commit of this repository", rev)
	}
	return strings.TrimSpace(out), nil
}

// BuildRevision returns the path of cmd/structurize built at commit (a full
// hash), building it when the cache lacks it.
func BuildRevision(commit string, opt BuildOptions) (string, error) {
	cache := opt.CacheDir
	if cache == "" {
		uc, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		cache = filepath.Join(uc, "cfgfuzz")
	}
	removeStaleBuilds(opt.Repo, cache)
	bin := filepath.Join(cache, "structurize", commit, "structurize")
	if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() {
		return bin, nil
	}
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	wt := filepath.Join(cache, "worktrees", fmt.Sprintf("%s-%d", commit[:12], os.Getpid()))
	fmt.Fprintf(log, "cfgfuzz: building cmd/structurize at %s in %s\n", commit[:12], wt)
	defer removeWorktree(opt.Repo, wt) // also after a failed or cancelled add
	if out, err := runBuildCommand(ctx, opt.Repo, "git", "worktree", "add", "--detach", wt, commit); err != nil {
		return "", fmt.Errorf("git worktree add: %v: %s", err, out)
	}
	tmp := fmt.Sprintf("%s.tmp%d", bin, os.Getpid())
	defer os.Remove(tmp) // gone after the rename; left by a failed build
	if out, err := goBuild(ctx, wt, tmp); err != nil {
		return "", fmt.Errorf("building cmd/structurize at %s: %v\n%s", commit[:12], err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	return bin, nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
