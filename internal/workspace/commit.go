package workspace

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// Identity is who commits. Runners have no git identity configured, so
// agentfix always passes its own with -c on the command line; it is never
// written into .git/config.
type Identity struct {
	Name  string
	Email string
}

// DefaultIdentity is the committer agentfix uses unless told otherwise.
var DefaultIdentity = Identity{Name: "agentfix", Email: "agentfix@users.noreply.github.com"}

// Commit stages paths (additions, changes and deletions) and commits them
// with message as id, returning the new commit. Only the named paths are
// staged, so untracked files the user keeps around are never swept in.
// Hooks and commit signing are skipped: the commit is agentfix's, and a
// runner has neither a terminal nor keys.
func (r *Repo) Commit(ctx context.Context, id Identity, message string, paths []string) (string, error) {
	if id.Name == "" || id.Email == "" {
		id = DefaultIdentity
	}
	if len(paths) == 0 {
		return "", fmt.Errorf("commit: nothing to commit")
	}
	args := append([]string{"add", "--all", "--"}, paths...)
	if _, err := r.git().Run(ctx, args...); err != nil {
		return "", err
	}
	cfg := []string{
		"-c", "user.name=" + id.Name,
		"-c", "user.email=" + id.Email,
		"-c", "commit.gpgsign=false",
	}
	args = append(cfg, "commit", "--quiet", "--no-verify", "--file=-")
	if _, err := r.git().Exec(ctx, gitrun.Cmd{Args: args, Stdin: []byte(message)}); err != nil {
		return "", err
	}
	out, err := r.git().Run(ctx, "rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// ApplyDiff applies a unified diff to the work tree, as git apply does.
func (r *Repo) ApplyDiff(ctx context.Context, diff string) error {
	_, err := r.git().Exec(ctx, gitrun.Cmd{Args: []string{"apply", "--whitespace=nowarn", "-"}, Stdin: []byte(diff)})
	return err
}
