package hardening

import (
	"os"
	"strings"
	"testing"
)

// attacks is the attack matrix: each row is refused, with its reason
// posted or logged, and changes nothing.
var attacks = concat(trustAttacks, commandAttacks, diffAttacks, tokenAttacks)

func TestAttackMatrix(t *testing.T) { runMatrix(t, "attack", attacks) }

// nothingChanged checks that a refused attack left no trace: no PR, no
// agentfix branch, main as a person left it, a clean work tree.
func (c *check) nothingChanged(w *world, r *result) {
	c.t.Helper()
	c.must(r, len(w.gh.PullRequests(repoName, "")) <= w.humanPRs, "a PR was opened")
	c.must(r, gitOut(w.bare, "for-each-ref", "refs/heads/agent-fix/") == "", "an agentfix branch was pushed")
	c.must(r, !strings.Contains(gitOut(w.bare, "log", "-1", "--format=%ce", "main"), "agentfix"), "main was changed by agentfix")
	c.must(r, gitOut(w.ws, "status", "--porcelain") == "", "the work tree was left changed:\n%s", gitOut(w.ws, "status", "--porcelain"))
	c.settle(w, r, outcome{})
}

// replyTo is the one comment agentfix posted on number, or "".
func (w *world) replyTo(number int) string {
	cs := w.gh.Comments(repoName, number)
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
