package actiontest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agentfix/agentfix/internal/testing/fixtures"
)

// bin is the agentfix binary Main built.
var bin string

// Main builds cmd/agentfix into a temporary directory, calls run (the
// package's m.Run, or a TestMain body around it), removes the binary and
// returns the exit code for os.Exit:
//
//	func TestMain(m *testing.M) { os.Exit(actiontest.Main(m.Run)) }
func Main(run func() int) int {
	dir, err := os.MkdirTemp("", "agentfix-actiontest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "agentfix")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/agentfix")
	cmd.Dir = RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build agentfix: %v\n%s", err, out)
		return 1
	}
	return run()
}

// Bin is the path of the binary Main built.
func Bin() string { return bin }

// RepoRoot is the agentfix source tree this package belongs to.
func RepoRoot() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "..")
}

// BaseEnv is what a runner has besides the Actions variables: PATH and the
// Go caches (the project's tests run with go), and no git identity.
func BaseEnv() []string {
	env := []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GOFLAGS=-mod=mod " + fixtures.GoFlags, "GOTOOLCHAIN=local"}
	for _, k := range []string{"PATH", "HOME", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := os.LookupEnv("GOCACHE"); !ok {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			env = append(env, "GOCACHE="+strings.TrimSpace(string(out)))
		}
	}
	return env
}
