package githubfake

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
)

// Client returns a real go-github client for the fake, built the way
// agentfix builds its own from GITHUB_API_URL (WithEnterpriseURLs, which
// adds the trailing slash go-github needs).
func (s *Server) Client(tb testing.TB) *github.Client {
	tb.Helper()
	c, err := github.NewClient(&http.Client{}).WithEnterpriseURLs(s.APIURL(), s.APIURL())
	if err != nil {
		tb.Fatalf("githubfake: client for %s: %v", s.APIURL(), err)
	}
	return c
}
