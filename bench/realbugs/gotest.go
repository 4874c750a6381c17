package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// goTestMode, when set (-gotest v, json or all), makes each case's
// failing output the one a CI log shows: go test -v (or -json) of every
// test of the case's package, or go test ./... of the whole module (all),
// run on the buggy tree, rather than the output of its failing tests
// alone that the case keeps. It names the package's passing tests (or the
// module's passing packages) too.
var goTestMode string

// goTestModes are the values -gotest takes.
var goTestModes = []string{"v", "json", "all"}

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
	cached := ""
	if goTestCache != "" {
		cached = filepath.Join(goTestCache, c.ID+"-"+goTestMode+".txt")
		if b, err := os.ReadFile(cached); err == nil {
			return string(b), nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), goTestTimeout)
	defer cancel()
	args := []string{"test", "-count=1", "-" + goTestMode, "./" + c.Package}
	if goTestMode == "all" {
		args = []string{"test", "-count=1", "./..."}
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s: go test (-gotest %s) ran past %v: %w", c.ID, goTestMode, goTestTimeout, errTooLong)
	}
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		return "", fmt.Errorf("%s: go test (-gotest %s): %w", c.ID, goTestMode, err)
	}
	if cached != "" {
		if err := os.WriteFile(cached, out, 0o644); err != nil {
			return "", err
		}
	}
	return string(out), nil
}
