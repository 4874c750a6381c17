package cli

import (
	"context"
	"fmt"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/ghclient"
)

// newGitHub is the API client of the run: GITHUB_API_URL, the token of the
// github-token input (or GITHUB_TOKEN), and a transport that waits out
// rate limits and retries server errors.
func newGitHub(_ context.Context, getenv func(string) string, token string, logf func(string, ...any)) (*github.Client, error) {
	o := ghclient.FromEnv(getenv)
	o.Token = token
	o.Logf = logf
	c, err := ghclient.New(o)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	return c, nil
}
