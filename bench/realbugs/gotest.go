package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// goTestMode, when set (-gotest v or json), makes each case's failing
// output the one a CI log shows: go test -v (or -json) of every test of
// the case's package, run on the buggy tree, rather than the output of
// its failing tests alone that the case keeps. It names the package's
// passing tests too, with what they logged.
var goTestMode string

// goTestCache, when set (-gotest-cache), keeps each case's go test output
// there and reuses it: the tests take minutes, and what they print may
// differ from run to run (timings, tests that need the network).
var goTestCache string

// packageOutput is what go test -v (or -json) prints for every test of c's
// package in the buggy tree root, from the cache when it holds it. The
// tests failing is the point, so their exit status is not an error; a
// test run that cannot start is.
func packageOutput(root string, c Case) (string, error) {
	cached := ""
	if goTestCache != "" {
		cached = filepath.Join(goTestCache, c.ID+"-"+goTestMode+".txt")
		if b, err := os.ReadFile(cached); err == nil {
			return string(b), nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-"+goTestMode, "./"+c.Package)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		return "", fmt.Errorf("%s: go test -%s: %w", c.ID, goTestMode, err)
	}
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s: go test -%s ran past %v", c.ID, goTestMode, testTimeout)
	}
	if cached != "" {
		if err := os.WriteFile(cached, out, 0o644); err != nil {
			return "", err
		}
	}
	return string(out), nil
}
