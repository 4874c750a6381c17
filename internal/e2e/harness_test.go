// Package e2e runs the built agentfix binary the way GitHub Actions does:
// the Actions environment, an event payload file, the fake GitHub API, the
// fake Ollama server, and a workspace cloned (depth 1, no credentials, no
// git identity) from a local bare origin that holds a small Go project with
// a failing test. The harness is internal/testing/actiontest.
package e2e

import (
	"os"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

func TestMain(m *testing.M) { os.Exit(actiontest.Main(m.Run)) }

// token is the workflow token of every run.
const token = "ghs_e2eTOKEN"

// newWorld is an actiontest world whose origin holds files (the buggy
// project when nil).
func newWorld(t *testing.T, files map[string]string) *actiontest.World {
	t.Helper()
	return actiontest.New(t, token, files)
}
