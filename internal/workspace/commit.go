package workspace

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// Identity is who commits. Runners have no git identity configured, so
// agentfix always passes its own to commit-tree in the environment; it is
// never written into .git/config.
type Identity struct {
	Name  string
	Email string
}

// DefaultIdentity is the committer agentfix uses unless told otherwise.
var DefaultIdentity = Identity{Name: "agentfix", Email: "agentfix@users.noreply.github.com"}

// CommitTree commits tree with parent as id and returns the commit. No
// hook runs (commit-tree has none) and gitrun turns signing off.
func CommitTree(ctx context.Context, git gitrun.Runner, tree, parent, message string, id Identity) (string, error) {
	if id.Name == "" || id.Email == "" {
		id = DefaultIdentity
	}
	env := []string{
		"GIT_AUTHOR_NAME=" + id.Name, "GIT_AUTHOR_EMAIL=" + id.Email,
		"GIT_COMMITTER_NAME=" + id.Name, "GIT_COMMITTER_EMAIL=" + id.Email,
	}
	out, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"commit-tree", tree, "-p", parent, "-F", "-"}, Env: env, Stdin: []byte(message)})
	if err != nil {
		return "", fmt.Errorf("commit the fix: %w", err)
	}
	return strings.TrimSpace(out), nil
}
