package workspace

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// RemoteTip returns the commit refs/heads/<branch> (or a full ref) points
// at on the remote, or "" when it does not exist there. It fetches
// nothing.
func RemoteTip(ctx context.Context, opts RemoteOptions, branch string) (string, error) {
	ref := fullRef(branch)
	out, err := opts.Runner().Exec(ctx, gitrun.Cmd{Args: []string{"ls-remote", remoteName(opts.Remote), ref}, Auth: true})
	if err != nil {
		return "", fmt.Errorf("list remote refs: %w", err)
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == ref {
			return f[0], nil
		}
	}
	return "", nil
}

// FetchHistory fetches branches (names, or full refs like refs/pull/7/head)
// with their whole history and returns their tips, in order. A shallow
// clone is made complete first: with a cut history, a pull request's
// commits (base..head) and its diff against its base (base...head) cannot
// be told apart from its base's. A branch missing on the remote is an
// error.
func FetchHistory(ctx context.Context, opts RemoteOptions, branches ...string) ([]string, error) {
	git := opts.Runner()
	shallow, err := git.Run(ctx, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(shallow) == "true" {
		if _, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"fetch", "--quiet", "--no-tags", "--unshallow", remoteName(opts.Remote)}, Auth: true}); err != nil {
			return nil, fmt.Errorf("fetch the whole history of the shallow clone: %w", err)
		}
	}
	args := []string{"fetch", "--quiet", "--no-tags", remoteName(opts.Remote)}
	var locals []string
	for _, b := range branches {
		local := "refs/agentfix/history/" + strings.TrimPrefix(fullRef(b), "refs/")
		args = append(args, "+"+fullRef(b)+":"+local)
		locals = append(locals, local)
	}
	if _, err := git.Exec(ctx, gitrun.Cmd{Args: args, Auth: true}); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", strings.Join(branches, ", "), err)
	}
	tips := make([]string, len(locals))
	for i, l := range locals {
		sha, err := git.Run(ctx, "rev-parse", "--verify", l+"^{commit}")
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", branches[i], err)
		}
		tips[i] = strings.TrimSpace(sha)
	}
	return tips, nil
}

// fullRef is branch as a full ref name.
func fullRef(branch string) string {
	if strings.HasPrefix(branch, "refs/") {
		return branch
	}
	return "refs/heads/" + branch
}
