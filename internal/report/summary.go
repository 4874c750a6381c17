package report

import (
	"fmt"
	"path"
	"strings"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// StepSummary is the Markdown report of the run for the workflow's step
// summary: trigger, decision, result, rounds, verification, PR link.
func StepSummary(r *Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## agentfix: %s\n\n", r.Result)
	b.WriteString("| | |\n|---|---|\n")
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "| %s | %s |\n", k, strings.ReplaceAll(v, "\n", " "))
		}
	}
	row("repository", r.Repo)
	row("trigger", r.Trigger)
	row("job", r.Kind)
	if r.Number > 0 {
		row("about", subject(r)+" "+untrusted.Markdown(r.Title))
	}
	row("decision", untrusted.Markdown(r.Decision))
	row("result", "**"+string(r.Result)+"**")
	row("reason", untrusted.Markdown(r.Reason))
	if r.Rounds > 0 || r.MaxRounds > 0 {
		row("rounds", fmt.Sprintf("%d of %d", r.Rounds, r.MaxRounds))
	}
	if r.Model != "" {
		row("model", cell(untrusted.Code(r.Model)))
	}
	if r.Elapsed > 0 {
		row("time", duration(r.Elapsed))
	}
	row("sandbox limits", cell(r.Limits))
	if r.PR != nil && r.PR.Number > 0 {
		what := "pull request"
		if r.PR.Draft {
			what = "draft pull request"
		}
		state := "opened"
		switch {
		case r.PR.Unchanged:
			state = "unchanged"
		case !r.PR.Created:
			state = "updated"
		}
		row(what, fmt.Sprintf("[#%d](%s) (%s; %s → %s)", r.PR.Number, r.PR.URL, state, cell(untrusted.Code(r.PR.Branch)), cell(untrusted.Code(r.PR.Base))))
	}
	if r.Tracking != nil && r.Tracking.Number > 0 {
		row("tracking issue", fmt.Sprintf("[#%d](%s)", r.Tracking.Number, r.Tracking.URL))
	}
	row("run", r.RunURL)
	row("session record", sessionLink(r))
	b.WriteString("\n")
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "> %s\n\n", n)
	}
	b.WriteString(unsandboxedNote(r))
	if r.Result == Unproven {
		b.WriteString(unprovenWarning)
	}
	proofSection(&b, r, "### Proof")
	if name := r.sessionArtifact(); name != "" {
		runID := r.RunURL[strings.LastIndexByte(r.RunURL, '/')+1:]
		if runID == "" {
			runID = "RUN_ID"
		}
		b.WriteString("### Session record\n\nEvery prompt, reply, patch and command of this run. To replay it offline, in a checkout of the recorded commit:\n\n")
		b.WriteString(codeBlock("sh", fmt.Sprintf("gh run download %s --name %s --dir agentfix-session\nagentfix replay agentfix-session/%s", runID, name, path.Base(r.SessionFile))))
		b.WriteString("\n")
	}
	if r.Before != nil || r.After != nil {
		b.WriteString("### Verification\n\n")
		verification(&b, r)
	}
	if len(r.Files) > 0 {
		b.WriteString("### Files\n\n")
		for _, f := range r.Files {
			fmt.Fprintf(&b, "- %s\n", untrusted.Code(f))
		}
		b.WriteString("\n")
	}
	if r.DryRun && r.Diff != "" {
		b.WriteString("### Diff (dry run: nothing was published)\n\n")
		b.WriteString(codeBlock("diff", cut(r.Diff, MaxBody/2)))
		b.WriteString("\n")
	}
	return b.String()
}
