package trust

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// CheckNoPersistedToken refuses to run pull request code in the git
// checkout at dir when its local git config (with includes, which is where
// newer actions/checkout versions keep it) holds an http.<url>.extraheader:
// that is the workflow token actions/checkout persisted, and the PR's code
// could read it from disk. It needs git on PATH.
func CheckNoPersistedToken(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "config", "--local", "--includes", "--name-only", "--get-regexp", `^http\..*extraheader$`)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() == 1 && errb.Len() == 0:
		return nil // no such key
	default:
		return fmt.Errorf("trust: read git config of %s: %v: %s", dir, err, strings.TrimSpace(errb.String()))
	}
	keys := strings.Fields(out.String())
	return fmt.Errorf("workspace %s: git config holds %s, a token persisted by actions/checkout; agentfix will not run pull request code with a token on disk: set `persist-credentials: false` on the actions/checkout step", dir, strings.Join(keys, ", "))
}
