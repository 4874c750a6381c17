package report

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// MaxBody is the longest issue, PR or comment body GitHub accepts; longer
// ones get 422.
const MaxBody = 65536

// PRTitle is the pull request's title: the task's, prefixed with what it
// fixes.
func PRTitle(r *Run) string {
	title := untrusted.Line(strings.SplitN(r.Title, "\n", 2)[0])
	prefix := "agentfix: "
	if r.Result == Unproven {
		prefix = "agentfix (unproven, no test proves it): "
	}
	switch {
	case r.Kind == "nightly" && title == "":
		title = "fix failing checks on the default branch"
	case title == "":
		title = "fix " + subject(r)
	}
	if len(title) > 200 {
		title = cut(title, 200)
		title = strings.TrimSpace(strings.ReplaceAll(title, "\n", " "))
	}
	return prefix + title
}

// PRBody is the pull request's description: summary, plan, files, the
// verification evidence, rounds, model, time, the run link, "Fixes #N"
// where there is an issue, and a collapsed session excerpt. It never
// exceeds MaxBody: the diff and the session excerpt are cut first.
func PRBody(r *Run) string {
	head := prHead(r)
	var tail strings.Builder
	fmt.Fprintf(&tail, "\n---\n<sub>Opened by agentfix. Review it like any other change: nothing reaches the default branch until a person merges it.</sub>\n%s\n", Marker("pr", prKey(r)))

	room := MaxBody - len(head) - len(tail.String())
	var mid strings.Builder
	if r.Session != "" {
		const open, closing = "<details><summary>Session record (excerpt)</summary>\n\n", "\n</details>\n"
		sess := r.Session
		if max := room/2 - len(open) - len(closing) - 16; len(sess) > max {
			sess = cut(sess, max)
		}
		if len(open)+len(closing)+len(sess) < room {
			mid.WriteString(open)
			mid.WriteString(codeBlock("", sess))
			mid.WriteString(closing)
		}
	}
	body := head + mid.String() + tail.String()
	if len(body) > MaxBody {
		body = cut(head, MaxBody-len(tail.String())-64) + tail.String()
	}
	return body
}

func prKey(r *Run) string {
	if r.PR != nil && r.PR.Branch != "" {
		return r.PR.Branch
	}
	return subject(r)
}

// prHead is the PR body without the session excerpt and the footer.
func prHead(r *Run) string {
	var b strings.Builder
	switch {
	case r.Revision != nil:
		revisionHead(&b, r.Revision)
	case r.Number > 0 && !r.IsPR && r.Result == Unproven:
		// Not a closing keyword: merging an unproven change must not
		// close the issue.
		fmt.Fprintf(&b, "Refs #%d\n\n", r.Number)
	case r.Number > 0 && !r.IsPR:
		fmt.Fprintf(&b, "Fixes #%d\n\n", r.Number)
	case r.IsPR && r.Number > 0:
		fmt.Fprintf(&b, "Fixes the failing checks of #%d (this PR merges into its branch).\n\n", r.Number)
	}
	b.WriteString(unsandboxedNote(r))
	if r.Result == Unproven {
		b.WriteString(unprovenWarning)
	} else if !r.Verified {
		b.WriteString("> [!WARNING]\n> This fix did **not** pass verification")
		if r.Reason != "" {
			fmt.Fprintf(&b, " (%s)", untrusted.Markdown(r.Reason))
		}
		b.WriteString(". It is a draft for a person to finish.\n\n")
	}
	b.WriteString("## Summary\n\n")
	if r.Summary != "" {
		b.WriteString(strings.TrimSpace(r.Summary) + "\n\n")
	} else {
		fmt.Fprintf(&b, "agentfix changed %d file(s) to %s.\n\n", len(r.Files), untrusted.Markdown(strings.SplitN(PRTitle(r), ": ", 2)[1]))
	}
	if len(r.Plan) > 0 {
		b.WriteString("## Plan\n\n")
		for i, step := range r.Plan {
			fmt.Fprintf(&b, "%d. %s\n", i+1, untrusted.Markdown(step))
		}
		b.WriteString("\n")
	}
	if len(r.Files) > 0 {
		b.WriteString("## Files changed\n\n")
		for _, f := range r.Files {
			fmt.Fprintf(&b, "- %s\n", untrusted.Code(f))
		}
		b.WriteString("\n")
	}
	proofSection(&b, r, "## Proof")
	b.WriteString("## Verification\n\n")
	if r.Before == nil && r.After == nil {
		b.WriteString("No verification ran.\n\n")
	}
	verification(&b, r)
	b.WriteString("## Run\n\n")
	b.WriteString("| | |\n|---|---|\n")
	if r.Trigger != "" {
		fmt.Fprintf(&b, "| trigger | %s |\n", r.Trigger)
	}
	fmt.Fprintf(&b, "| rounds | %d", r.Rounds)
	if r.MaxRounds > 0 {
		fmt.Fprintf(&b, " of %d", r.MaxRounds)
	}
	b.WriteString(" |\n")
	if r.Model != "" {
		fmt.Fprintf(&b, "| model | %s |\n", cell(untrusted.Code(r.Model)))
	}
	fmt.Fprintf(&b, "| time | %s |\n", duration(r.Elapsed))
	if r.Limits != "" {
		fmt.Fprintf(&b, "| sandbox limits | %s |\n", cell(r.Limits))
	}
	if r.RunURL != "" {
		fmt.Fprintf(&b, "| run | %s |\n", r.RunURL)
	}
	b.WriteString("\n")
	return b.String()
}
