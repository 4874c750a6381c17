package action

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/event"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/untrusted"
)

// maxPRDiff caps the PR's diff shown to the model.
const maxPRDiff = 24000

// request is what a person asked of a pull request: a review with its
// inline comments, an inline `/agent fix`, or an `/agent fix` comment.
type request struct {
	number int
	title  string
	// original is the task the PR was made for.
	original string
	base     string
	// diff is the PR's change against its base.
	diff         string
	asker        string
	review       *event.Review
	threads      []publish.ReviewComment
	comment      *event.Comment
	instructions string
}

// requestTask is the task the model reads for a request on a pull
// request. Review bodies and comments are text agentfix did not write:
// this is the one place they are put into a prompt, and each is cleaned
// of what a reader on GitHub does not see, as an issue's text is. It
// returns how many hidden passages were left out.
func requestTask(r request) (agent.Task, int) {
	hidden := 0
	clean := func(s string) string {
		c := untrusted.Clean(s)
		hidden += c.Hidden
		return strings.TrimSpace(c.Text)
	}
	var b strings.Builder
	if original := clean(r.original); original != "" {
		fmt.Fprintf(&b, "## The pull request's original task\n\n%s\n\n", original)
	}
	diff := r.diff
	if len(diff) > maxPRDiff {
		diff = strings.ToValidUTF8(diff[:maxPRDiff], "") + "\n… (cut)\n"
	}
	fmt.Fprintf(&b, "## The pull request's change so far (against %s)\n\nThe repository you are shown already has this change.\n\n```diff\n%s```\n\n", r.base, ensureNewline(diff))
	if r.review != nil {
		fmt.Fprintf(&b, "## The review by @%s (%s)\n\n", r.asker, strings.ReplaceAll(r.review.State, "_", " "))
		if body := clean(r.review.Body); body != "" {
			fmt.Fprintf(&b, "%s\n\n", body)
		}
	}
	for _, c := range r.threads {
		inline(&b, c.Author, c.Path, c.Line, c.DiffHunk, clean(c.Body))
	}
	if c := r.comment; c != nil {
		if c.Inline {
			inline(&b, r.asker, c.Path, c.Line, c.DiffHunk, clean(c.Body))
		} else {
			fmt.Fprintf(&b, "## The comment by @%s\n\n%s\n\n", r.asker, clean(c.Body))
		}
	}
	if r.review == nil && r.comment == nil && r.instructions != "" {
		// A review's or a comment's text already holds its instructions.
		fmt.Fprintf(&b, "## What @%s asks\n\n%s\n\n", r.asker, clean(r.instructions))
	}
	b.WriteString("Change the code so that it does what is asked above, keeping what the pull request already does right.")
	title := untrusted.Line(clean(r.title))
	return agent.Task{Title: fmt.Sprintf("Change pull request #%d (%s) as @%s asks", r.number, title, r.asker), Body: b.String()}, hidden
}

// inline writes one inline review comment with where it sits.
func inline(b *strings.Builder, author, path string, line int, hunk, body string) {
	fmt.Fprintf(b, "### Comment by @%s on %s line %d\n\n", author, path, line)
	if hunk != "" {
		fmt.Fprintf(b, "```diff\n%s```\n\n", ensureNewline(hunk))
	}
	fmt.Fprintf(b, "%s\n\n", body)
}

// noteRequest tells the maintainer, in the step summary, what of the
// request the model did not read.
func (a *run) noteRequest(hidden int) {
	if hidden == 0 {
		return
	}
	n := fmt.Sprintf("%d hidden passage(s) in the request and the pull request's task were ignored (%s): the model did not see them.", hidden, untrusted.HiddenKinds)
	a.logf("task: %s", n)
	a.rep.Notes = append(a.rep.Notes, n)
}

func ensureNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
