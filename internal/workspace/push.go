package workspace

// The remote side of the workspace: fetching and pushing one agentfix branch.
// The token reaches git only as the header of the git processes that talk
// to the remote (gitrun.Cmd.Auth), so it is never written to .git/config
// and never shows in the process list. Pushes are never forced.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// RemoteOptions say where a branch is fetched from or pushed to.
type RemoteOptions struct {
	// Dir is the work tree (any directory inside it).
	Dir string
	// Remote is the remote name; "origin" when empty.
	Remote string
	// Token authenticates to the remote over HTTP(S); empty sends no header,
	// which is what a local or file:// remote needs.
	Token string
	// Env is the base environment of git (os.Environ() when nil), which
	// gitrun's policy filters.
	Env []string
	// Server is the URL the token is scoped to (GITHUB_SERVER_URL);
	// gitrun.DefaultServer when empty.
	Server string
}

// Runner is the git runner for the work tree: calls that ask for Auth send
// the token, and every call masks it.
func (o RemoteOptions) Runner() gitrun.Runner {
	return gitrun.Runner{Dir: o.Dir, Env: o.Env, Token: o.Token, Server: o.Server}
}

// PushOptions describe one push.
type PushOptions struct {
	RemoteOptions
	// Commit is the commit (or local ref) to push.
	Commit string
	// Branch is the remote branch name, without refs/heads/.
	Branch string
	// Protected names branches that must never be pushed to (the default
	// branch at least).
	Protected []string
}

// PushRejectedError is a push the remote refused: the branch moved under
// us (non-fast-forward), a protection rule, or a hook.
type PushRejectedError struct {
	Branch string
	Reason string
}

func (e *PushRejectedError) Error() string {
	return fmt.Sprintf("push to %s rejected: %s", e.Branch, e.Reason)
}

// ErrProtectedBranch is returned for a push to a protected branch.
var ErrProtectedBranch = errors.New("refusing to push to a protected branch")

// PushBranch pushes opts.Commit to refs/heads/<opts.Branch> on the remote,
// fast-forward only. A refused update is a *PushRejectedError.
func PushBranch(ctx context.Context, opts PushOptions) error {
	branch := strings.TrimPrefix(opts.Branch, "refs/heads/")
	if branch == "" || opts.Commit == "" {
		return fmt.Errorf("push: commit and branch are required")
	}
	for _, p := range opts.Protected {
		if p != "" && strings.TrimPrefix(p, "refs/heads/") == branch {
			return fmt.Errorf("push %s: %w", branch, ErrProtectedBranch)
		}
	}
	refspec := opts.Commit + ":refs/heads/" + branch
	if strings.HasPrefix(refspec, "+") {
		return fmt.Errorf("push %s: a forced refspec is never used", branch)
	}
	out, err := opts.Runner().Exec(ctx, gitrun.Cmd{Args: []string{"push", "--porcelain", "--no-verify", remoteName(opts.Remote), refspec}, Auth: true})
	if err == nil {
		return nil
	}
	var ge *gitrun.Error
	if errors.As(err, &ge) {
		out += ge.Stderr
	}
	if reason := rejection(out); reason != "" {
		return &PushRejectedError{Branch: branch, Reason: reason}
	}
	return fmt.Errorf("push %s: %w", branch, err) // err names the remote, masked
}

// FetchBranch fetches the tip of refs/heads/<branch> from the remote (depth
// 1, enough to build on it) and returns its commit id, or "" when the branch
// does not exist there.
//
// A full ref name (refs/pull/7/head) is fetched as it is.
func FetchBranch(ctx context.Context, opts RemoteOptions, branch string) (string, error) {
	ref := branch
	if !strings.HasPrefix(ref, "refs/") {
		ref = "refs/heads/" + branch
	}
	local := "refs/agentfix/remote/" + strings.TrimPrefix(ref, "refs/")
	git := opts.Runner()
	out, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"ls-remote", remoteName(opts.Remote), ref}, Auth: true})
	if err != nil {
		return "", fmt.Errorf("fetch %s: list remote refs: %w", branch, err)
	}
	if !lsRemoteHas(out, ref) {
		return "", nil
	}
	if _, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"fetch", "--no-tags", "--depth=1", remoteName(opts.Remote), "+" + ref + ":" + local}, Auth: true}); err != nil {
		return "", fmt.Errorf("fetch %s: %w", branch, err)
	}
	sha, err := git.Run(ctx, "rev-parse", "--verify", local+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", branch, err)
	}
	return strings.TrimSpace(sha), nil
}

// lsRemoteHas reports whether ls-remote output lists exactly ref (its
// patterns also match refs that merely end the same way).
func lsRemoteHas(out, ref string) bool {
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == ref {
			return true
		}
	}
	return false
}

func remoteName(r string) string {
	if r == "" {
		return "origin"
	}
	return r
}

// rejection finds why a porcelain push was refused ("" if it was not).
func rejection(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "!\t") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) == 3 {
			return strings.TrimSpace(f[2])
		}
		return strings.TrimSpace(line)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "[rejected]") || strings.Contains(line, "[remote rejected]") || strings.Contains(line, "pre-receive hook declined") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}
