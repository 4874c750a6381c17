package workspace

// Publishing never runs git in the work tree's .git. The code under test
// runs in the work tree; where it is not sandboxed (verify.sandbox: off, or
// a runner without bubblewrap) it can write .git/config: a
// url.<attacker>.insteadOf that sends the push elsewhere, an include of a
// file of its own, a different remote. No git option undoes what a
// repository's config says, so the git that fetches and pushes with the
// token runs in a git directory agentfix creates for it, whose config is
// agentfix's, and which reads the work tree's objects through alternates
// (objects are named by their hash; the receiving side checks every one).
// Where origin points is read before the job runs any code.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// Origin is what publishing needs of a work tree, read from it before the
// job ran any code (ReadOrigin).
type Origin struct {
	// FetchURL and PushURL are where the remote pointed, with the
	// url.<base>.insteadOf and pushInsteadOf rules of that moment applied.
	FetchURL, PushURL string
	objects           string // the work tree's object directory
	format            string // sha1 or sha256
	shallow           []byte // the shallow list of a depth-limited checkout
}

// ReadOrigin reads opts.Remote's URLs and where the work tree's objects
// are. Call it before the job runs any code in the work tree.
func ReadOrigin(ctx context.Context, opts RemoteOptions) (*Origin, error) {
	git := gitrun.Runner{Dir: opts.Dir, Env: opts.Env}
	name := remoteName(opts.Remote)
	fetch, err := git.Run(ctx, "remote", "get-url", name)
	if err != nil {
		return nil, fmt.Errorf("read the URL of remote %s: %w", name, err)
	}
	push, err := git.Run(ctx, "remote", "get-url", "--push", name)
	if err != nil {
		return nil, fmt.Errorf("read the push URL of remote %s: %w", name, err)
	}
	paths, err := git.Run(ctx, "rev-parse", "--path-format=absolute", "--git-path", "objects", "--git-path", "shallow", "--show-object-format")
	if err != nil {
		return nil, fmt.Errorf("find the repository's objects: %w", err)
	}
	f := strings.Split(strings.TrimSpace(paths), "\n")
	if len(f) != 3 {
		return nil, fmt.Errorf("find the repository's objects: git rev-parse said %q", paths)
	}
	o := &Origin{FetchURL: strings.TrimSpace(fetch), PushURL: strings.TrimSpace(push), objects: f[0], format: f[2]}
	if b, err := os.ReadFile(f[1]); err == nil {
		o.shallow = b
	} else if !os.IsNotExist(err) {
		return nil, fmt.Errorf("read the shallow list: %w", err)
	}
	return o, nil
}

// Private creates a bare git directory of agentfix's own that sees the
// work tree's objects, and returns the remote options that fetch into it
// and push from it (opts with Dir set to it), and how to remove it. Its
// config is git's default plus the remote's URLs as they were read: no
// insteadOf, no include, no hook.
func (o *Origin) Private(ctx context.Context, opts RemoteOptions) (RemoteOptions, func(), error) {
	dir, err := os.MkdirTemp("", "agentfix-publish-")
	if err != nil {
		return opts, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	git := gitrun.Runner{Dir: dir, Env: opts.Env}
	if _, err := git.Run(ctx, "init", "--quiet", "--bare", "--object-format="+o.format, dir); err != nil {
		cleanup()
		return opts, nil, fmt.Errorf("create a git directory to publish from: %w", err)
	}
	name := remoteName(opts.Remote)
	for _, kv := range [][2]string{{"url", o.FetchURL}, {"pushurl", o.PushURL}} {
		if _, err := git.Run(ctx, "config", "remote."+name+"."+kv[0], kv[1]); err != nil {
			cleanup()
			return opts, nil, fmt.Errorf("create a git directory to publish from: %w", err)
		}
	}
	files := map[string][]byte{filepath.Join("objects", "info", "alternates"): []byte(o.objects + "\n")}
	if o.shallow != nil {
		files["shallow"] = o.shallow
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			cleanup()
			return opts, nil, fmt.Errorf("create a git directory to publish from: %w", err)
		}
	}
	opts.Dir = dir
	return opts, cleanup, nil
}
