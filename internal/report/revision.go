package report

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// Revision is a revision of agentfix's own pull request: one commit on its
// branch in answer to a review, an inline `/agent fix` or an `/agent fix`
// comment.
type Revision struct {
	// N is this revision's number, Max limits.max_revisions.
	N, Max int
	// Commit is the commit pushed; "" when none was.
	Commit string
	// Requester asked for the revision; Request says how ("review",
	// "inline comment", "comment") and RequestURL links to it.
	Requester  string
	Request    string
	RequestURL string
	// Fixes is the issue the pull request fixes (its branch is
	// <prefix>issue-N); Into the pull request whose branch it merges into
	// (<prefix>pr-N). Both 0 for a nightly fix.
	Fixes int
	Into  int
	// Kept are the test files of the pull request's first version, its
	// proof: the revision could not change them, and they pass with it.
	Kept []string
	// Answered are the inline comments the revision changed the files of.
	Answered []Thread
	// Unanswered are the request's inline comments on files the revision
	// did not change.
	Unanswered []Thread
}

// Thread is an inline review comment.
type Thread struct {
	ID   int64
	Path string
	Line int
	URL  string
}

// RevisionMarker marks agentfix's replies about revisions of PR number.
func RevisionMarker(number int) string { return Marker("revision", fmt.Sprintf("pr-%d", number)) }

// revisionHead opens the body of a revised pull request: what it fixes,
// as the first version said, and which revision it is now.
func revisionHead(b *strings.Builder, v *Revision) {
	switch {
	case v.Fixes > 0:
		fmt.Fprintf(b, "Fixes #%d\n\n", v.Fixes)
	case v.Into > 0:
		fmt.Fprintf(b, "Fixes the failing checks of #%d (this PR merges into its branch).\n\n", v.Into)
	}
	if v.Commit != "" {
		fmt.Fprintf(b, "Revision %d (`%.12s`) answers %s. The evidence below is this revision's.\n\n", v.N, v.Commit, request(v))
		if len(v.Kept) > 0 {
			fmt.Fprintf(b, "The tests of the first version (%s) were kept as they were: the revision could not change them, and the full suite below, which runs them, passes.\n\n", strings.Join(quoted(v.Kept), ", "))
		}
	}
}

// request is what asked for the revision, as a link when there is one.
func request(v *Revision) string {
	what := fmt.Sprintf("the %s by @%s", v.Request, untrusted.Plain(v.Requester))
	if v.RequestURL != "" {
		return fmt.Sprintf("[%s](%s)", what, v.RequestURL)
	}
	return what
}

// RevisionReply is the one reply on the pull request once a revision is
// pushed, or once agentfix knows it will not push one: the commit and
// what changed, or why nothing was pushed.
func RevisionReply(r *Run) string {
	v := r.Revision
	var b strings.Builder
	b.WriteString(RevisionMarker(r.Number) + "\n")
	if v.Commit == "" {
		fmt.Fprintf(&b, "@%s, agentfix did not revise this pull request in answer to %s: nothing was pushed.\n\n", untrusted.Plain(v.Requester), request(v))
		if r.Reason != "" {
			fmt.Fprintf(&b, "**Why**: %s.\n", untrusted.Markdown(strings.TrimSuffix(strings.TrimSpace(r.Reason), ".")))
		}
		if r.RunURL != "" {
			fmt.Fprintf(&b, "\n[Workflow run](%s)\n", r.RunURL)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "@%s, agentfix pushed %s to %s in answer to %s (revision %d of at most %d).\n\n", untrusted.Plain(v.Requester), commitRef(r), untrusted.Code(r.PR.Branch), request(v), v.N, v.Max)
	if len(r.Files) > 0 {
		fmt.Fprintf(&b, "**Changed**: %s\n\n", strings.Join(quoted(r.Files), ", "))
	}
	for _, s := range r.Plan {
		fmt.Fprintf(&b, "- %s\n", untrusted.Markdown(strings.TrimSpace(s)))
	}
	if len(r.Plan) > 0 {
		b.WriteString("\n")
	}
	if r.After != nil {
		var cmds []string
		for _, c := range r.After.Commands {
			cmds = append(cmds, untrusted.Code(c.Command))
		}
		fmt.Fprintf(&b, "**Verified**: %s pass after %d round(s).\n\n", strings.Join(cmds, ", "), r.Rounds)
	}
	if len(v.Unanswered) > 0 {
		b.WriteString("These inline comments are on files the revision did not change:")
		for _, t := range v.Unanswered {
			fmt.Fprintf(&b, " [%s](%s)", untrusted.Code(fmt.Sprintf("%s:%d", t.Path, t.Line)), t.URL)
		}
		b.WriteString(".\n\n")
	}
	if r.Diff != "" {
		b.WriteString("<details><summary>Diff of this revision</summary>\n\n")
		b.WriteString(codeBlock("diff", cut(r.Diff, 20000)))
		b.WriteString("\n</details>\n")
	}
	s := b.String()
	if len(s) > MaxBody {
		s = cut(s, MaxBody)
	}
	return s
}

// ThreadReply answers one inline comment the revision addressed.
func ThreadReply(r *Run, t Thread) string {
	return fmt.Sprintf("%s\nChanged %s in %s (revision %d) in answer to this comment.\n", RevisionMarker(r.Number), untrusted.Code(t.Path), commitRef(r), r.Revision.N)
}

// commitRef is the revision's commit, linked to the pull request's view
// of it when the PR's URL is known.
func commitRef(r *Run) string {
	c := r.Revision.Commit
	if r.PR != nil && r.PR.URL != "" {
		return fmt.Sprintf("[`%.12s`](%s/commits/%s)", c, r.PR.URL, c)
	}
	return fmt.Sprintf("`%.12s`", c)
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = untrusted.Code(s)
	}
	return out
}
