package event

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/config"
)

const prefix = "agent-fix/"

func TestDecodeReview(t *testing.T) {
	t.Parallel()
	j, err := Decode(env("pull_request_review", "pull_request_review.submitted.json"), os.ReadFile, defaults)
	if err != nil {
		t.Fatal(err)
	}
	j.Settle(prefix)
	if j.Kind != KindRevisePR || j.Trigger != TriggerReview || j.Number != 13 || !j.IsPR || j.Actor != (Actor{"maintainer", "User"}) {
		t.Fatalf("job %+v", *j)
	}
	r := j.Review
	if r == nil || r.ID != 80001 || r.State != ReviewChangesRequested || !strings.Contains(r.Body, "doc comment") || r.CommitID == "" {
		t.Errorf("review %+v", r)
	}
	p := j.PR
	if !p.Resolved || p.Fork || p.HeadRef != "agent-fix/issue-7" || p.BaseRef != "main" || p.State != "open" || p.Author != "github-actions[bot]" {
		t.Errorf("PR %+v", *p)
	}
	if j.Task != r.Body || j.Quote() != "review by @maintainer (changes requested)" {
		t.Errorf("task %q quote %q", j.Task, j.Quote())
	}
}

func TestDecodeReviewComment(t *testing.T) {
	t.Parallel()
	j, err := Decode(env("pull_request_review_comment", "pull_request_review_comment.created.json"), os.ReadFile, defaults)
	if err != nil {
		t.Fatal(err)
	}
	j.Settle(prefix)
	if j.Kind != KindRevisePR || j.Trigger != TriggerReviewComment || j.Number != 13 || j.Task != "return ErrEmpty" {
		t.Fatalf("job %+v", *j)
	}
	c := j.Comment
	if c == nil || !c.Inline || c.ID != 90001 || c.Path != "parse.go" || c.Line != 6 || c.ReviewID != 80002 || !strings.HasPrefix(c.DiffHunk, "@@ -3,4 +3,4 @@") {
		t.Errorf("comment %+v", c)
	}
	if j.Quote() != "/agent fix return ErrEmpty" {
		t.Errorf("quote %q", j.Quote())
	}
}

// TestReviewVariants covers which reviews and review comments ask for a
// revision. The head branch decides whose PR it is: agentfix's own is
// revised, anyone else's is left alone (a review) or fixed into (a fix
// command).
func TestReviewVariants(t *testing.T) {
	t.Parallel()
	review := func(edit func(m map[string]any)) []byte {
		return fixture(t, "pull_request_review.submitted.json", edit)
	}
	comment := func(edit func(m map[string]any)) []byte {
		return fixture(t, "pull_request_review_comment.created.json", edit)
	}
	head := func(m map[string]any, repo, ref string) {
		h := sub(sub(m, "pull_request"), "head")
		h["ref"] = ref
		if repo == "" {
			delete(h, "repo")
		} else {
			sub(h, "repo")["full_name"] = repo
		}
	}
	state := func(s string) func(map[string]any) { return func(m map[string]any) { sub(m, "review")["state"] = s } }
	body := func(key, b string) func(map[string]any) { return func(m map[string]any) { sub(m, key)["body"] = b } }
	tests := []struct {
		name, event string
		payload     []byte
		kind        Kind
		reason      string // part of the ignore reason
	}{
		{"changes requested", EventReview, review(func(map[string]any) {}), KindRevisePR, ""},
		{"commented", EventReview, review(state("commented")), KindRevisePR, ""},
		{"commented, upper case", EventReview, review(state("COMMENTED")), KindRevisePR, ""},
		{"commented without a body", EventReview, review(func(m map[string]any) { state("commented")(m); sub(m, "review")["body"] = nil }), KindRevisePR, ""},
		{"approved", EventReview, review(state("approved")), KindIgnore, "asks for no change"},
		{"dismissed", EventReview, review(func(m map[string]any) { m["action"] = "dismissed" }), KindIgnore, "only submitted"},
		{"edited", EventReview, review(func(m map[string]any) { m["action"] = "edited" }), KindIgnore, "only submitted"},
		{"agentfix's own review", EventReview, review(body("review", Marker+"\nsee the reply")), KindIgnore, "written by agentfix"},
		{"a person's PR", EventReview, review(func(m map[string]any) { head(m, "acme/widgets", "feature") }), KindIgnore, "own pull requests"},
		{"a fork's PR under the prefix", EventReview, review(func(m map[string]any) { head(m, "mallory/widgets", "agent-fix/issue-7") }), KindIgnore, "own pull requests"},
		{"a deleted fork", EventReview, review(func(m map[string]any) { head(m, "", "agent-fix/issue-7") }), KindIgnore, "a deleted repository"},
		{"a closed PR", EventReview, review(func(m map[string]any) { sub(m, "pull_request")["state"] = "closed" }), KindIgnore, "is closed"},

		{"inline fix", EventReviewComment, comment(func(map[string]any) {}), KindRevisePR, ""},
		{"inline fix on a person's PR", EventReviewComment, comment(func(m map[string]any) { head(m, "acme/widgets", "feature") }), KindFixPR, ""},
		{"inline fix on a fork's PR", EventReviewComment, comment(func(m map[string]any) { head(m, "mallory/widgets", "feature") }), KindFixPR, ""},
		{"inline check", EventReviewComment, comment(body("comment", "/agent check")), KindCheckPR, ""},
		{"inline help", EventReviewComment, comment(body("comment", "/agent help")), KindHelp, ""},
		{"inline remark", EventReviewComment, comment(body("comment", "nit: naming")), KindIgnore, "no command"},
		{"inline quoted command", EventReviewComment, comment(body("comment", "> /agent fix\nwhy?")), KindIgnore, "no command"},
		{"agentfix's reply", EventReviewComment, comment(body("comment", Marker+"\n/agent fix")), KindIgnore, "written by agentfix"},
		{"inline edited", EventReviewComment, comment(func(m map[string]any) { m["action"] = "edited" }), KindIgnore, "only created"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			j, err := Parse(tc.event, tc.payload, "acme/widgets", defaults)
			if err != nil {
				t.Fatal(err)
			}
			j.Settle(prefix)
			if j.Kind != tc.kind || !strings.Contains(j.IgnoreReason, tc.reason) {
				t.Errorf("kind %s (%s), want %s (%s)", j.Kind, j.IgnoreReason, tc.kind, tc.reason)
			}
		})
	}
}

// TestSettleFixOnPR: `/agent fix` on a PR from issue_comment is settled
// once the PR is fetched.
func TestSettleFixOnPR(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		head, ref, state string
		kind             Kind
	}{
		{"acme/widgets", "agent-fix/issue-7", "open", KindRevisePR},
		{"acme/widgets", "agent-fix/issue-7", "closed", KindIgnore},
		{"acme/widgets", "feature", "open", KindFixPR},
		{"stranger/widgets", "agent-fix/issue-7", "open", KindFixPR},
	} {
		j, err := Parse("issue_comment", fixture(t, "issue_comment.created.pr.json", func(m map[string]any) { sub(m, "comment")["body"] = "/agent fix keep it short" }), "acme/widgets", config.Triggers{})
		if err != nil {
			t.Fatal(err)
		}
		j.Settle(prefix) // unresolved: nothing to settle yet
		if j.Kind != KindFixPR {
			t.Fatalf("unresolved PR settled to %s", j.Kind)
		}
		pr := fixturePR(tc.head, tc.ref)
		pr.State = &tc.state
		j.SetPullRequest(pr)
		j.Settle(prefix)
		if j.Kind != tc.kind || j.Task != "keep it short" {
			t.Errorf("%s:%s (%s): kind %s (%s) task %q, want %s", tc.head, tc.ref, tc.state, j.Kind, j.IgnoreReason, j.Task, tc.kind)
		}
	}
}

// fixturePR is pull request 12 of acme/widgets from head (owner/name) ref.
func fixturePR(head, ref string) *github.PullRequest {
	return &github.PullRequest{
		Number: github.Int(12), Title: github.String("t"), State: github.String("open"),
		Head: &github.PullRequestBranch{Ref: github.String(ref), SHA: github.String("abc"), Repo: &github.Repository{FullName: github.String(head)}},
		Base: &github.PullRequestBranch{Ref: github.String("main"), Repo: &github.Repository{FullName: github.String("acme/widgets")}},
	}
}
