package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// goTestMode, when set (-gotest v, json, all, gotestsum or gotestfmt), makes each
// case's failing output the one a CI log shows: go test -v (or -json) of
// every test of the case's package, go test ./... of the whole module
// (all), or the package's go test -json as gotestsum prints it
// (gotestsum) or gotestfmt in a GitHub Actions job (gotestfmt), run on
// the buggy tree, rather than the output of its failing tests alone that
// the case keeps. It names the package's passing tests (or the module's
// passing packages) too.
var goTestMode string

// goTestModes are the values -gotest takes.
var goTestModes = []string{"v", "json", "all", "gotestsum", "gotestfmt", "ginkgo"}

// goTestSum is the gotestsum that -gotest gotestsum runs (go run fetches
// it from the module proxy), and goTestSumFormat its --format
// (-gotestsum-format; pkgname is gotestsum's own default).
const goTestSum = "gotest.tools/gotestsum@v1.13.0"

// goTestFmt is the gotestfmt that -gotest gotestfmt runs, with its GitHub
// Actions template (test results in groups, in color).
const goTestFmt = "github.com/gotesttools/gotestfmt/v2/cmd/gotestfmt@v2.5.0"

var goTestSumFormat = "pkgname"

// goTestCache, when set (-gotest-cache), keeps each case's go test output
// there and reuses it: the tests take minutes, and what they print may
// differ from run to run (timings, tests that need the network).
var goTestCache string

// errTooLong is a case's tests running past goTestTimeout: the case is
// left out of the failing output's figures, and said so.
var errTooLong = errors.New("too long to measure")

// goTestTimeout bounds one case's go test run (a variable for its test).
var goTestTimeout = testTimeout

// packageOutput is what go test -v (or -json) prints for every test of c's
// package in the buggy tree root (go test ./... for all), from the cache
// when it holds it. The tests failing is the point, so their exit status
// is not an error; a run that cannot start, or runs past goTestTimeout
// (errTooLong), is.
func packageOutput(root string, c Case) (string, error) {
	switch goTestMode {
	case "gotestsum":
		return goTestSumOutput(root, c)
	case "gotestfmt":
		return goTestFmtOutput(root, c)
	}
	return goTestOutput(root, c, goTestMode)
}

// goTestOutput is what go test prints for c in the buggy tree root in
// mode (v, json or all), from the cache when it holds it.
func goTestOutput(root string, c Case, mode string) (string, error) {
	cached := ""
	if goTestCache != "" {
		cached = filepath.Join(goTestCache, c.ID+"-"+mode+".txt")
		if b, err := os.ReadFile(cached); err == nil {
			return string(b), nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), goTestTimeout)
	defer cancel()
	args := []string{"test", "-count=1", "-" + mode, "./" + c.Package}
	switch {
	case mode == "all":
		args = []string{"test", "-count=1", "./..."}
	case mode == "ginkgo" && usesGinkgo(filepath.Join(root, c.Package)):
		// Ginkgo's verbose report of every spec, as go test ./...
		// -ginkgo.v (or ginkgo -v) prints it in a CI log.
		args = []string{"test", "-count=1", "./" + c.Package, "-ginkgo.v"}
	case mode == "ginkgo":
		args = []string{"test", "-count=1", "-v", "./" + c.Package}
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), goTestEnv...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s: go test (-gotest %s) ran past %v: %w", c.ID, mode, goTestTimeout, errTooLong)
	}
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		return "", fmt.Errorf("%s: go test (-gotest %s): %w", c.ID, mode, err)
	}
	if cached != "" {
		if err := os.WriteFile(cached, out, 0o644); err != nil {
			return "", err
		}
	}
	return string(out), nil
}

// goTestSumOutput is c's package's go test -json output, from the cache
// when it holds it, as gotestsum prints it in goTestSumFormat.
func goTestSumOutput(root string, c Case) (string, error) {
	return renderTestJSON(root, c, goTestSum, "--format", goTestSumFormat, "--no-color", "--raw-command", "--", "cat")
}

// goTestFmtOutput is c's package's go test -json output, from the cache
// when it holds it, as gotestfmt prints it in a GitHub Actions job.
func goTestFmtOutput(root string, c Case) (string, error) {
	return renderTestJSON(root, c, goTestFmt, "-ci", "github", "-input")
}

// renderTestJSON runs tool (go run fetches it from the module proxy) in
// root with args and the path of a file holding c's package's go test
// -json output, and returns what it prints.
func renderTestJSON(root string, c Case, tool string, args ...string) (string, error) {
	events, err := goTestOutput(root, c, "json")
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "realbugs-json-*.txt")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(events); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	cmd := exec.Command("go", append(append([]string{"run", tool}, args...), f.Name())...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, failed := err.(*exec.ExitError); err != nil && !(failed && len(out) > 0) {
		return "", fmt.Errorf("%s: %s %s: %v\n%s", c.ID, tool, strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// usesGinkgo reports whether a test file of the package in dir imports
// Ginkgo.
func usesGinkgo(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), `"github.com/onsi/ginkgo`) {
			return true
		}
	}
	return false
}
