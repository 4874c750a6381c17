package hardening

import (
	"os"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// attacks is the attack matrix: each row is refused, with its reason
// posted or logged, and changes nothing.
var attacks = concat(trustAttacks, commandAttacks, diffAttacks, tokenAttacks, sandboxAttacks, proofAttacks)

func TestAttackMatrix(t *testing.T) { runMatrix(t, "attack", attacks) }

// nothingChanged checks that a refused attack left no trace: no PR, no
// agentfix branch, main as a person left it, a clean work tree.
func (c *check) nothingChanged(w *world, r *actiontest.Result) {
	c.t.Helper()
	c.must(r, len(w.GH.PullRequests(actiontest.Repo, "")) <= w.humanPRs, "a PR was opened")
	c.must(r, gitOut(w.Origin, "for-each-ref", "refs/heads/agent-fix/") == "", "an agentfix branch was pushed")
	c.must(r, !strings.Contains(gitOut(w.Origin, "log", "-1", "--format=%ce", "main"), "agentfix"), "main was changed by agentfix")
	c.must(r, gitOut(w.Workspace, "status", "--porcelain") == "", "the work tree was left changed:\n%s", gitOut(w.Workspace, "status", "--porcelain"))
	c.settle(w, r, outcome{})
}

// replyTo is the one comment agentfix posted on number, or "".
func (w *world) replyTo(number int) string {
	cs := w.GH.Comments(actiontest.Repo, number)
	var mine []string
	for _, cm := range cs {
		if cm.User != "alice" && cm.User != "bob" {
			mine = append(mine, cm.Body)
		}
	}
	if len(mine) != 1 {
		return ""
	}
	return mine[0]
}

// absent reports whether path does not exist.
func absent(path string) bool {
	_, err := os.Lstat(path)
	return os.IsNotExist(err)
}
