package workspace

// The remote side of the workspace: fetching and pushing one agentfix branch.
// The token reaches git only through the environment of the one git process
// that needs it (GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, read by
// git ≥ 2.31), so it is never written to .git/config and never shows in the
// process list. Pushes are never forced.

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
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
	// Env is the environment git runs with (os.Environ() when nil). It
	// should already be scrubbed of secrets; the token is added to it.
	Env []string
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
	out, err := remoteGit(ctx, opts.RemoteOptions, "push", "--porcelain", "--no-verify", remoteName(opts.Remote), refspec)
	if err == nil {
		return nil
	}
	if reason := rejection(out); reason != "" {
		return &PushRejectedError{Branch: branch, Reason: reason}
	}
	return fmt.Errorf("push %s to %s: %w", branch, remoteName(opts.Remote), err)
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
	out, err := remoteGit(ctx, opts, "ls-remote", remoteName(opts.Remote), ref)
	if err != nil {
		return "", fmt.Errorf("fetch %s: list remote refs: %w", branch, err)
	}
	if !lsRemoteHas(out, ref) {
		return "", nil
	}
	if _, err := remoteGit(ctx, opts, "fetch", "--no-tags", "--depth=1", remoteName(opts.Remote), "+"+ref+":"+local); err != nil {
		return "", fmt.Errorf("fetch %s: %w", branch, err)
	}
	sha, err := remoteGit(ctx, RemoteOptions{Dir: opts.Dir, Env: opts.Env}, "rev-parse", "--verify", local+"^{commit}")
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

// AuthEnv returns the variables that make one git process send token as
// the HTTP Authorization header, the way actions/checkout does, without
// writing it anywhere. git ≥ 2.31 reads them.
func AuthEnv(token string) []string {
	if token == "" {
		return nil
	}
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
	return []string{
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=http.extraheader",
		"GIT_CONFIG_VALUE_0=AUTHORIZATION: basic " + basic,
	}
}

// remoteGit runs one git command in opts.Dir with the token in its
// environment only. Its error carries git's stderr with the token masked.
func remoteGit(ctx context.Context, opts RemoteOptions, args ...string) (string, error) {
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	// A token or config injected by the caller's environment must not
	// mix with ours; never prompt for credentials on a runner.
	clean := make([]string, 0, len(env)+6)
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_CONFIG_") {
			continue
		}
		clean = append(clean, kv)
	}
	clean = append(clean, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=")
	clean = append(clean, AuthEnv(opts.Token)...)

	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", opts.Dir}, args...)...)
	cmd.Env = clean
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := stdout.String() + stderr.String()
	if opts.Token != "" {
		out = strings.ReplaceAll(out, opts.Token, "***")
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if opts.Token != "" {
			msg = strings.ReplaceAll(msg, opts.Token, "***")
		}
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.String(), nil
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
