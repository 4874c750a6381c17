package trust

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Writers says whose words may become the model's task: people with
// write, maintain or admin permission, asked of the collaborator-
// permission API once per login and run (an issue thread names the same
// few people many times).
type Writers struct {
	gh          PermissionGetter
	owner, repo string
	mu          sync.Mutex
	known       map[string]bool // by lower-case login
}

// NewWriters asks gh about owner/repo.
func NewWriters(gh PermissionGetter, owner, repo string) *Writers {
	return &Writers{gh: gh, owner: owner, repo: repo, known: map[string]bool{}}
}

// CanWrite reports whether login has write permission or more. A login
// the API does not know as a collaborator (404) cannot; any other API
// error is returned, since the caller cannot tell yes from no.
func (w *Writers) CanWrite(ctx context.Context, login string) (bool, error) {
	key := strings.ToLower(login)
	w.mu.Lock()
	ok, seen := w.known[key]
	w.mu.Unlock()
	if seen {
		return ok, nil
	}
	lvl, resp, err := w.gh.GetPermissionLevel(ctx, w.owner, w.repo, login)
	switch {
	case err != nil && notFound(resp, err):
		ok = false
	case err != nil:
		return false, fmt.Errorf("get collaborator permission of %s on %s/%s: %w", login, w.owner, w.repo, err)
	default:
		ok = slices.Contains(writeRoles, strings.ToLower(lvl.GetPermission()))
	}
	w.mu.Lock()
	w.known[key] = ok
	w.mu.Unlock()
	return ok, nil
}
