package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// Failure is one thing that went wrong in a verify command: a failing test,
// a package that did not build, a panic, or (when the tool's output could
// not be parsed) the tail of the output.
type Failure struct {
	// Test is the test's name as its tool prints it (TestA/sub,
	// tests/test_x.py::test_y); empty for build failures and output that
	// names no test.
	Test string `json:"test"`
	// Package is the Go import path, Python module file, crate or class.
	Package string `json:"package"`
	// File is relative to Options.Dir when it lies inside it.
	File string `json:"file"`
	// Line is 0 when unknown.
	Line int `json:"line"`
	// Output is what the tool printed about this failure, trimmed.
	Output string `json:"output"`
}

// ID names the failure independently of line numbers, so that the same
// failure is recognised after an edit moves it.
func (f Failure) ID() string {
	switch {
	case f.Test != "" && f.Package != "":
		return f.Package + " " + f.Test
	case f.Test != "":
		return f.Test
	case f.Package != "":
		return f.Package + " (no test)"
	case f.File != "":
		return f.File
	}
	return "(unattributed)"
}

// Location is file:line, file, or "".
func (f Failure) Location() string {
	if f.File == "" {
		return ""
	}
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return f.File
}

// CommandResult is the outcome of one verify command.
type CommandResult struct {
	// Argv is what ran, including the -json agentfix adds to go test.
	Argv       []string `json:"argv"`
	ExitCode   int      `json:"exit_code"`
	DurationMS int64    `json:"duration_ms"`
	TimedOut   bool     `json:"timed_out"`
	// Truncated says the output exceeded Options.OutputCap and its middle
	// was cut.
	Truncated bool `json:"truncated"`
	// Passed is true when the command exited 0, or when every failure it
	// had passed on a re-run (see Report.Flaky).
	Passed   bool      `json:"passed"`
	Failures []Failure `json:"failures"`
	// Flaky are the failures of this command that passed on a re-run.
	Flaky []Failure `json:"flaky,omitempty"`
	// Output is the captured output (head and tail when truncated); for
	// go test it is the text of the -json stream, not the JSON.
	Output string `json:"-"`

	// passing are the IDs of the tests seen passing, where the runner
	// names them (go test, cargo test): the evidence a re-run needs before
	// it calls a failure flaky.
	passing map[string]bool
}

// Report is the outcome of Run.
type Report struct {
	Passed   bool            `json:"passed"`
	Commands []CommandResult `json:"commands"`
	// Flaky are failures that passed on a re-run: not failures to fix.
	Flaky []Failure `json:"flaky"`
	// Sandbox says how the commands were contained.
	Sandbox *SandboxInfo `json:"sandbox,omitempty"`
}

// Failures returns the failures of every command, in order.
func (r *Report) Failures() []Failure {
	var fs []Failure
	for _, c := range r.Commands {
		fs = append(fs, c.Failures...)
	}
	return fs
}

// Signature identifies a failure across runs: a hash of the sorted,
// de-duplicated failure IDs (test names, not line numbers, output or the
// exact command, so a targeted re-run of the same tests has the same
// signature). It is "" for a report that passed.
func (r *Report) Signature() string {
	if r.Passed {
		return ""
	}
	seen := map[string]bool{}
	for _, c := range r.Commands {
		if c.Passed {
			continue
		}
		if len(c.Failures) == 0 && len(c.Argv) > 0 {
			seen[c.Argv[0]+" failed"] = true
		}
		for _, f := range c.Failures {
			seen[f.ID()] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	sum := sha256.Sum256([]byte(strings.Join(ids, "\n")))
	return hex.EncodeToString(sum[:8])
}
