package report

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// Stage is where a run is, as the status comment tells it.
type Stage string

// Stages of the status comment, in order.
const (
	StageWorking  Stage = "working"
	StageChecking Stage = "checking"
	StageRound    Stage = "round"
	StageDone     Stage = "done"
)

// StatusMarker is the hidden marker of the one status comment agentfix
// keeps on an issue or PR; it is found again by it and edited in place.
var StatusMarker = Marker("status", "")

// maxDiffInComment bounds the diff an unverified fix shows in the comment.
const maxDiffInComment = 30000

// StatusComment is the status comment's text at stage. For StageRound,
// r.Rounds is the current round.
func StatusComment(r *Run, stage Stage) string {
	var b strings.Builder
	b.WriteString(StatusMarker + "\n")
	switch stage {
	case StageWorking:
		fmt.Fprintf(&b, "⏳ **agentfix is working on this** (%s).\n", r.Trigger)
	case StageChecking:
		fmt.Fprintf(&b, "⏳ **agentfix is running the checks** (%s).\n", r.Trigger)
	case StageRound:
		fmt.Fprintf(&b, "⏳ **agentfix is working on this**: round %d of %d.\n", r.Rounds, r.MaxRounds)
	}
	if r.Waiting != "" && stage != StageDone {
		fmt.Fprintf(&b, "\nThe model server is %s (%s).\n", untrusted.Plain(r.Waiting), untrusted.Code(r.Model))
	}
	switch stage {
	case StageDone:
		done(&b, r)
		if link := sessionLink(r); link != "" {
			b.WriteString("\nSession record: " + link + " of this run; `agentfix replay` re-runs it offline.\n")
		}
	}
	if r.RunURL != "" {
		fmt.Fprintf(&b, "\n[Workflow run](%s)\n", r.RunURL)
	}
	var h strings.Builder
	history(&h, r)
	s := b.String()
	if len(s)+h.Len() > MaxBody {
		s = cut(s, MaxBody-len(StatusMarker)-1-h.Len())
	}
	return s + h.String()
}

// done writes the final state of the run.
func done(b *strings.Builder, r *Run) {
	switch r.Result {
	case Fixed:
		if r.PR != nil && r.PR.Number > 0 {
			verb := "opened"
			if !r.PR.Created {
				verb = "updated"
			}
			if r.PR.Unchanged {
				verb = "already has this fix"
			}
			fmt.Fprintf(b, "✅ **Fixed**: pull request #%d %s (branch %s, %d round(s), %s).\n", r.PR.Number, verb, untrusted.Code(r.PR.Branch), r.Rounds, duration(r.Elapsed))
			if r.PR.Draft {
				b.WriteString("\nThe pull request is a draft.\n")
			}
		} else {
			fmt.Fprintf(b, "✅ **Fixed** in %d round(s); no pull request was opened.\n", r.Rounds)
		}
		if p := r.Proof; p != nil && p.Kind == ProofReproduced {
			fmt.Fprintf(b, "\nProven by %s, written first: it fails on the base and passes with the fix.\n", codeList(p.Tests))
		}
	case NothingToDo:
		b.WriteString("✅ **Nothing to do**: the checks pass.\n")
	case Checked:
		checked(b, r)
	case Refused:
		fmt.Fprintf(b, "🚫 **Not run**: %s\n", untrusted.Markdown(r.Reason))
	case Unproven:
		fmt.Fprintf(b, "⚠️ **Unproven** after %d round(s): agentfix found a change that passes the checks, but could not write a test that fails without it, and the checks passed before the change too. Nothing shows the change solves this issue, so no pull request is ready.\n", r.Rounds)
		if r.PR != nil && r.PR.Number > 0 {
			fmt.Fprintf(b, "\nThe unproven change is in draft pull request #%d, for a person to check.\n", r.PR.Number)
		}
	default:
		fmt.Fprintf(b, "❌ **Not fixed** after %d round(s)", r.Rounds)
		if r.Reason != "" {
			fmt.Fprintf(b, ": %s", untrusted.Markdown(r.Reason))
		}
		b.WriteString(".\n")
		if r.PR != nil && r.PR.Number > 0 {
			fmt.Fprintf(b, "\nThe unverified attempt is in draft pull request #%d.\n", r.PR.Number)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "\n> %s\n", n)
	}
	if note := unsandboxedNote(r); note != "" {
		b.WriteString("\n" + strings.TrimSuffix(note, "\n"))
	}
	if r.Before != nil || r.After != nil {
		b.WriteString("\n")
		verification(b, r)
	}
	if (r.Result == NotFixed || r.Result == Fixed || r.Result == Unproven) && r.Diff != "" && (r.PR == nil || r.PR.Number == 0) {
		title := "Best attempt (unverified diff)"
		switch r.Result {
		case Fixed:
			title = "The fix (verified diff)"
		case Unproven:
			title = "The change (passes the checks; no test proves it)"
		}
		b.WriteString("<details><summary>" + title + "</summary>\n\n")
		b.WriteString(codeBlock("diff", cut(r.Diff, maxDiffInComment)))
		b.WriteString("\n</details>\n")
	}
}

// checked writes the result of /agent check.
func checked(b *strings.Builder, r *Run) {
	c := r.Before
	switch {
	case c != nil && c.Passed:
		b.WriteString("✅ **Checks pass** on the pull request's head.\n")
	case r.PR != nil && r.PR.Number > 0:
		fmt.Fprintf(b, "❌ **Checks fail** on the pull request's head; agentfix fixed them in #%d, which merges into %s.\n", r.PR.Number, untrusted.Code(r.PR.Base))
	default:
		b.WriteString("❌ **Checks fail** on the pull request's head")
		if r.Reason != "" {
			fmt.Fprintf(b, "; agentfix could not fix them: %s", untrusted.Markdown(r.Reason))
		}
		b.WriteString(".\n")
	}
	if c != nil && !c.Passed && c.Summary != "" {
		b.WriteString("\n<details><summary>Failure summary</summary>\n\n")
		b.WriteString(codeBlock("", cut(c.Summary, 20000)))
		b.WriteString("\n</details>\n")
	}
}
