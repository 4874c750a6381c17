package instructions

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/google/go-github/v60/github"
)

// Commit reads the instructions of a commit of a local repository: for
// `agentfix fix`, the checkout's HEAD, never its uncommitted files.
type Commit struct {
	// Dir is a directory of the work tree.
	Dir string
	// Rev is the commit; its id is resolved once, by Resolve.
	Rev string
}

var _ Reader = (*Commit)(nil)

// Resolve pins c.Rev to its commit id, so that every file is read from the
// same commit and the record names it.
func (c *Commit) Resolve(ctx context.Context) error {
	out, err := gitrun.Runner{Dir: c.Dir}.Run(ctx, "rev-parse", "--verify", "--quiet", c.Rev+"^{commit}")
	if err != nil {
		return fmt.Errorf("resolve %s: %w", c.Rev, err)
	}
	c.Rev = strings.TrimSpace(out)
	return nil
}

// Ref is the commit read.
func (c *Commit) Ref() string { return c.Rev }

// Read returns path's content at the commit; fs.ErrNotExist when the
// commit has no such file (or has a directory there).
func (c *Commit) Read(ctx context.Context, path string) ([]byte, error) {
	git := gitrun.Runner{Dir: c.Dir}
	// "<mode> <type> <object>\t<path>", or nothing for no such path.
	entry, err := git.Run(ctx, "ls-tree", c.Rev, "--", path)
	if err != nil {
		return nil, err
	}
	if f := strings.Fields(entry); len(f) < 2 || f[1] != "blob" {
		return nil, fs.ErrNotExist
	}
	out, err := git.Run(ctx, "cat-file", "blob", c.Rev+":"+path)
	return []byte(out), err
}

// GitHub reads the instructions of a branch through the GitHub contents
// API: in the action, the default branch, whatever the checkout holds.
// https://docs.github.com/en/rest/repos/contents#get-repository-content
type GitHub struct {
	Repos       *github.RepositoriesService
	Owner, Repo string
	Branch      string
}

var _ Reader = (*GitHub)(nil)

// Ref is the branch read.
func (g *GitHub) Ref() string { return g.Branch }

// Read returns path's content on the branch; fs.ErrNotExist when it has
// no such file (or a directory there).
func (g *GitHub) Read(ctx context.Context, path string) ([]byte, error) {
	file, _, resp, err := g.Repos.GetContents(ctx, g.Owner, g.Repo, path, &github.RepositoryContentGetOptions{Ref: g.Branch})
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	if file == nil || file.GetType() != "file" {
		return nil, fs.ErrNotExist
	}
	text, err := file.GetContent()
	if err != nil {
		return nil, err
	}
	if text == "" && file.GetSize() > 0 {
		// Above 1 MB the API sends no content; the start is all that is
		// shown anyway, but an empty file must not pass for it.
		return nil, errors.New("the file is too large for the contents API")
	}
	return []byte(text), nil
}
