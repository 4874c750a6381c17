package pipeline

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/untrusted"
)

// Title is what a fix is named after, in its commit and branch: the task's
// title, else the first test that failed before, else "fix failing checks".
func (o *Outcome) Title() string {
	if t := strings.TrimSpace(o.Job.Task.Title); t != "" {
		return t
	}
	if o.Before != nil {
		for _, f := range o.Before.Failures() {
			if f.Test != "" {
				return "fix " + f.Test
			}
		}
	}
	return "fix failing checks"
}

// CommitInfo is what a commit message says beyond the outcome.
type CommitInfo struct {
	// Fixes is the issue the commit closes; 0 for none.
	Fixes int
	// Refs is an issue the commit is about but does not close (an
	// unproven change); 0 for none.
	Refs int
	// RunURL links the workflow run that made the commit.
	RunURL string
	// Subject replaces the subject made from the task's title: a
	// revision says what it answers.
	Subject string
}

// CommitMessage is the message of the commit that carries a fix, the same
// in every mode: a subject naming the task, the plan's steps, the issue it
// fixes, the commands that verified it and the model that wrote it.
func CommitMessage(o *Outcome, info CommitInfo) string {
	var b strings.Builder
	// The title and the steps are the and the model's words:
	// GitHub reads a commit message for closing keywords and mentions.
	// A revision's subject is agentfix's own (the PR and who asked).
	subject := untrusted.Plain(firstLine(o.Title(), 200))
	if info.Subject != "" {
		subject = info.Subject
	}
	fmt.Fprintf(&b, "agentfix: %s\n\n", firstLine(subject, 68))
	if o.Loop != nil && o.Loop.Plan != nil && len(o.Loop.Plan.Steps) > 0 {
		for _, s := range o.Loop.Plan.Steps {
			fmt.Fprintf(&b, "- %s\n", untrusted.Plain(s))
		}
		b.WriteString("\n")
	}
	if o.Result == Unproven {
		b.WriteString("Unproven: no test reproduces the task, and the verify commands\npassed before this change too; nothing shows that it fixes the task.\n\n")
	}
	if info.Fixes > 0 {
		fmt.Fprintf(&b, "Fixes #%d\n\n", info.Fixes)
	}
	if info.Refs > 0 {
		fmt.Fprintf(&b, "Refs #%d\n\n", info.Refs)
	}
	if p := o.Proof(); p != nil && p.Kind == agent.ProofReproduced {
		fmt.Fprintf(&b, "Reproduced by: %s (%s)\n", strings.Join(p.Tests, ", "), strings.Join(p.Files, ", "))
	}
	cmds := o.Job.Commands
	if cmds == nil {
		cmds = o.Job.Config.Verify.Commands
	}
	fmt.Fprintf(&b, "Verified with: %s\n", strings.Join(cmds, "; "))
	if o.Loop != nil && o.Loop.Model != "" {
		fmt.Fprintf(&b, "Model: %s\n", o.Loop.Model)
	}
	if info.RunURL != "" {
		fmt.Fprintf(&b, "Run: %s\n", info.RunURL)
	}
	b.WriteString("Generated-by: agentfix\n")
	return b.String()
}

// firstLine is the first line of s, at most n bytes.
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > n {
		s = strings.TrimSpace(s[:n])
	}
	return s
}
