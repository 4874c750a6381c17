// Package e2e runs agentfix the way GitHub Actions does, in-process through
// the command entry point: the Actions environment, an event payload file,
// the fake GitHub API, the fake Ollama server, and a workspace cloned
// (depth 1, no credentials, no git identity) from a local bare origin that
// holds a small Go project with a failing test. The harness is
// internal/testing/actiontest; the rows that need a real process (signals,
// /proc, memory) are in internal/hardening.
package e2e

import (
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// token is the workflow token of every run.
const token = "ghs_e2eTOKEN"

// newWorld is an actiontest world whose origin holds files (the buggy
// project when nil).
func newWorld(t *testing.T, files map[string]string) *actiontest.World {
	t.Helper()
	return actiontest.New(t, token, files)
}
