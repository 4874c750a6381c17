package hardening

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// injected is a row for a comment-supplied check command that tries to
// run more than the allowlisted command. cmd gets the canary file's path
// for %s: a command that got through would create it.
func injected(name, cmd string) scenario {
	return scenario{name, "refused: the reason in the status comment; nothing run, the canary never created", func(t *testing.T, c *check) {
		w := newWorld(t, actiontest.FixedProject)
		canary := filepath.Join(w.Dir, "pwned")
		n := w.addPR("feature", map[string]string{"calc.go": actiontest.Project["calc.go"]})
		body := "/agent check " + strings.ReplaceAll(cmd, "%s", canary)
		r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", body))
		c.must(r, absent(canary), "the injected command ran")
		c.must(r, r.Outputs["result"] == "refused", "want result refused, got exit %d %q", r.Code, r.Outputs["result"])
		st := w.status(n)
		why := statusLine(st, "refused")
		if why == "" {
			why = statusLine(st, "not allowed")
		}
		c.must(r, why != "", "the status comment does not say why:\n%s", st)
		c.must(r, len(w.Ollama.Requests()) == 0, "a refused command reached the model")
		c.see("exit %d refused; status: %q", r.Code, why)
		c.nothingChanged(w, r)
	}}
}

var commandAttacks = []scenario{
	injected("check command with ;", "go test ./...; touch %s"),
	injected("check command with &&", "go test ./... && touch %s"),
	injected("check command with |", "go test ./... | tee %s"),
	injected("check command with $()", "go test $(touch %s) ./..."),
	injected("check command with backticks", "go test `touch %s` ./..."),
	{"check command with a newline", "the command ends at the newline: only the allowlisted first line runs, the second is never run", func(t *testing.T, c *check) {
		w := newWorld(t, actiontest.FixedProject)
		canary := filepath.Join(w.Dir, "pwned")
		n := w.addPR("docs", map[string]string{"README.md": "calc\n"})
		r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check go test ./...\ntouch "+canary))
		c.must(r, absent(canary), "the second line ran")
		c.must(r, r.Code == 0 && r.Outputs["result"] == "checked", "want exit 0 and checked, got exit %d %q", r.Code, r.Outputs["result"])
		st := w.status(n)
		c.must(r, strings.Contains(st, "go test ./...") && !strings.Contains(st, "touch"), "the status comment does not show the one command run:\n%s", st)
		c.see("exit 0 checked; ran only %q; canary absent", logged(r, "go test"))
		c.nothingChanged(w, r)
	}},
	injected("check command sh -c", "sh -c 'touch %s'"),
	injected("check command go test -exec", "go test -exec 'touch %s' ./..."),
	injected("check command go test -toolexec", "go test -toolexec='touch %s' ./..."),
}
