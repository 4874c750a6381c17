package trust

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// CheckNoPersistedToken refuses to run pull request code in the git
// checkout at dir when its local git config (with includes, which is where
// newer actions/checkout versions keep it) holds an http.<url>.extraheader:
// that is the workflow token actions/checkout persisted, and the PR's code
// could read it from disk. It needs git on PATH.
func CheckNoPersistedToken(ctx context.Context, dir string) error {
	out, err := gitrun.Runner{Dir: dir}.Run(ctx, "config", "--local", "--includes", "--name-only", "--get-regexp", `^http\..*extraheader$`)
	var ge *gitrun.Error
	switch {
	case err == nil:
	case errors.As(err, &ge) && ge.ExitCode == 1 && ge.Stderr == "":
		return nil // no such key
	default:
		return fmt.Errorf("trust: read git config of %s: %w", dir, err)
	}
	keys := strings.Fields(out)
	return fmt.Errorf("workspace %s: git config holds %s, a token persisted by actions/checkout; agentfix will not run pull request code with a token on disk: set `persist-credentials: false` on the actions/checkout step", dir, strings.Join(keys, ", "))
}
