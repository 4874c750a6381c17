package githubfake_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

// A test seeds the fake, drives it through the real go-github client, and
// asserts on the state it ends in.
func Example() {
	s := githubfake.NewServer() // in a test: githubfake.New(t)
	defer s.Close()
	s.AddRepo("octo/calc", "main")
	s.SetBranch("octo/calc", "main", "1111111111111111111111111111111111111111")
	s.SetBranch("octo/calc", "agent-fix/issue-1", "2222222222222222222222222222222222222222")
	s.SetPermission("octo/calc", "alice", "maintain")
	issue := s.AddIssue("octo/calc", githubfake.Issue{Title: "Add overflows", User: "bob"})

	// GITHUB_API_URL=s.APIURL() for the binary; WithEnterpriseURLs adds the
	// trailing slash go-github needs.
	gh, _ := github.NewClient(&http.Client{}).WithEnterpriseURLs(s.APIURL(), s.APIURL())
	ctx := context.Background()
	lvl, _, _ := gh.Repositories.GetPermissionLevel(ctx, "octo", "calc", "alice")
	fmt.Println("alice:", lvl.GetPermission(), "role", lvl.GetUser().GetRoleName())

	_, _, _ = gh.PullRequests.Create(ctx, "octo", "calc", &github.NewPullRequest{
		Title: github.String("Fix overflow"), Head: github.String("agent-fix/issue-1"),
		Base: github.String("main"), Body: github.String(fmt.Sprintf("Fixes #%d", issue)),
	})
	_, _, err := gh.PullRequests.Create(ctx, "octo", "calc", &github.NewPullRequest{
		Title: github.String("Again"), Head: github.String("agent-fix/issue-1"), Base: github.String("main"),
	})
	fmt.Println(err.(*github.ErrorResponse).Errors[0].Message)

	for _, pr := range s.OpenPRsByHead("octo/calc", "agent-fix/issue-1") {
		fmt.Printf("#%d %q by %s: %s\n", pr.Number, pr.Title, pr.User, pr.Body)
	}
	// Output:
	// alice: write role maintain
	// A pull request already exists for octo:agent-fix/issue-1.
	// #2 "Fix overflow" by github-actions[bot]: Fixes #1
}
