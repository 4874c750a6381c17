// Package report turns one agentfix run into what people and workflows read:
// the action outputs, the step summary, the pull request body, the status
// comment, the check results, the help reply and the tracking issue. It only
// formats; it calls no API. Every text agentfix posts carries a hidden marker
// so that agentfix recognises its own writing (and never answers itself).
package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// Result is the action output `result`.
type Result string

// Results.
const (
	Fixed       Result = "fixed"
	NothingToDo Result = "nothing-to-do"
	NotFixed    Result = "not-fixed"
	Refused     Result = "refused"
	Checked     Result = "checked"
	// Unproven: the change passes the checks, but nothing shows it fixes
	// the issue (no test reproduced it; the checks passed before too).
	Unproven Result = "unproven"
)

// Proof is the evidence that a change fixes its task.
type Proof struct {
	// Kind is reproduced, failing-checks or none.
	Kind string
	// Tests are the tests that failed on the base, as the runner names
	// them; Files the test files of a reproduction.
	Tests, Files []string
	// Before is the check of those tests on the base; After the same
	// check with the fix.
	Before, After *Check
}

// Proof kinds.
const (
	ProofReproduced    = "reproduced"
	ProofFailingChecks = "failing-checks"
)

// Check is one verification of the code: the commands that ran and what
// failed.
type Check struct {
	Passed   bool
	Commands []Command
	// Flaky names failures that passed on a re-run.
	Flaky []string
	// Summary is the failure summary as the model saw it (trimmed).
	Summary string
}

// Command is one verify command's outcome.
type Command struct {
	Command  string
	Passed   bool
	Duration time.Duration
	TimedOut bool
	// Failures are the failing tests or packages, by id.
	Failures []string
}

// PR is the pull request (or tracking issue) a run opened or updated.
type PR struct {
	Number int
	URL    string
	Branch string
	// Base is the branch the PR merges into.
	Base    string
	Draft   bool
	Created bool
	// Unchanged means the fix was already on the branch; nothing was pushed.
	Unchanged bool
}

// Run is everything the texts are made from. Fields left zero are omitted.
type Run struct {
	// Repo is owner/name.
	Repo string
	// Trigger says what started the run, as a person would ("label
	// `agent-fix` on #7 by @alice").
	Trigger string
	// Kind is the job kind (fix-issue, check-pr, nightly, help).
	Kind string
	// Number is the issue or PR the run is about; 0 for nightly.
	Number int
	IsPR   bool
	// Title is the task's title.
	Title  string
	Result Result
	// Decision is the trust decision and its reason.
	Decision string
	// Reason says why the run ended the way it did (stop reason, refusal,
	// human-changed branch, ...).
	Reason    string
	Rounds    int
	MaxRounds int
	Model     string
	// Waiting is what the model server is doing while the run waits on
	// it (loading the model, evaluating the prompt, generating); shown
	// under a working stage.
	Waiting string
	Elapsed time.Duration
	// RunURL links to the workflow run.
	RunURL string
	// Summary says what the fix does, in a sentence or two.
	Summary string
	Plan    []string
	Files   []string
	Diff    string
	// Before is the check that found the failure; After the one that
	// proved the fix.
	Before *Check
	After  *Check
	// Verified is true when After passed with the full commands.
	Verified bool
	// Proof is the evidence that the change fixes the task; nil when the
	// loop did not run.
	Proof *Proof
	// Session is an excerpt of the session record.
	Session string
	// SessionFile is the session record's path on the runner ("" when
	// nothing was recorded); SessionArtifact is the name of the workflow
	// artifact the action uploads it as, "" outside Actions.
	SessionFile, SessionArtifact string
	PR                           *PR
	// Tracking is the tracking issue a nightly run opened or updated.
	Tracking *PR
	// DryRun means nothing was published; the step summary shows the diff.
	DryRun bool
	// Notes are extra lines worth telling ("the branch was changed by
	// someone else; left alone").
	Notes []string
	// History is the status comment's record of earlier runs on the same
	// issue or PR, newest first (see EarlierRuns).
	History []string
	// Unsandboxed says why the verify commands ran without the sandbox;
	// "" when they ran in it.
	Unsandboxed string
	// Limits says how the sandbox limited the verify commands' memory and
	// processes, and by what (cgroup v2, cgroup v1, rlimits); "" when
	// unsandboxed.
	Limits string
	// Revision is set when the run revised agentfix's own pull request
	// (PR) in answer to a review.
	Revision *Revision
}

// unsandboxedNote is the warning a reader of the PR, the status comment
// and the step summary gets when the tests ran outside the sandbox.
func unsandboxedNote(r *Run) string {
	if r.Unsandboxed == "" {
		return ""
	}
	return "> [!CAUTION]\n> The verify commands (the code this change adds among them) ran **without a sandbox**: " + r.Unsandboxed + ".\n\n"
}

// Outputs are the action outputs, in the order they are written.
func (r *Run) Outputs() [][2]string {
	var num, url, branch string
	if r.PR != nil {
		if r.PR.Number > 0 {
			num = strconv.Itoa(r.PR.Number)
		}
		url, branch = r.PR.URL, r.PR.Branch
	}
	return [][2]string{
		{"result", string(r.Result)},
		{"pr-number", num},
		{"pr-url", url},
		{"branch", branch},
		{"rounds", strconv.Itoa(r.Rounds)},
		{"session", r.SessionFile},
		{"session-artifact", r.sessionArtifact()},
	}
}

// SessionArtifactName is the name action.yml uploads the session record
// under: unique per run, attempt and job, so that re-runs and several jobs
// of one run never collide (upload-artifact refuses a name twice).
func SessionArtifactName(runID, attempt, job string) string {
	if runID == "" {
		return ""
	}
	name := "agentfix-session-" + runID
	if attempt != "" {
		name += "-" + attempt
	}
	if job != "" {
		name += "-" + job
	}
	return name
}

// sessionArtifact is the artifact name when there is a record to upload.
func (r *Run) sessionArtifact() string {
	if r.SessionFile == "" {
		return ""
	}
	return r.SessionArtifact
}

// sessionLink says where the session record is kept; "" when there is
// none or it is not uploaded.
func sessionLink(r *Run) string {
	name := r.sessionArtifact()
	if name == "" {
		return ""
	}
	where := "artifact `" + name + "`"
	if r.RunURL != "" {
		where = "artifact [`" + name + "`](" + r.RunURL + "#artifacts)"
	}
	return where
}

// SetOutputer is what writes action outputs (githubactions.Action).
type SetOutputer interface {
	SetOutput(name, value string)
}

// WriteOutputs sets every action output of r.
func WriteOutputs(a SetOutputer, r *Run) {
	for _, kv := range r.Outputs() {
		a.SetOutput(kv[0], kv[1])
	}
}

// Marker returns the hidden marker of a text agentfix writes, qualified by
// kind and key ("status", "issue-7"), so it can be found again.
func Marker(kind, key string) string {
	if key == "" {
		return fmt.Sprintf("<!-- agentfix:%s -->", kind)
	}
	return fmt.Sprintf("<!-- agentfix:%s %s -->", kind, key)
}

// RunURL is the link to a workflow run.
func RunURL(serverURL, repo, runID string) string {
	if serverURL == "" || repo == "" || runID == "" {
		return ""
	}
	return strings.TrimRight(serverURL, "/") + "/" + repo + "/actions/runs/" + runID
}

// duration formats d for people: 1m05s, 12s, 850ms.
func duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(time.Second).String()
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// fence returns a code fence longer than any backtick run in s.
func fence(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			if run > longest {
				longest = run
			}
		} else {
			run = 0
		}
	}
	if longest < 3 {
		return "```"
	}
	return strings.Repeat("`", longest+1)
}

// codeBlock wraps s in a fenced block of lang.
func codeBlock(lang, s string) string {
	f := fence(s)
	return f + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + f + "\n"
}

// cut returns s shortened to at most n bytes (on a line boundary when it
// can), saying how much was left out.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	note := fmt.Sprintf("\n… (%d more bytes cut)\n", len(s)-n)
	keep := n - len(note)
	if keep < 0 {
		keep = 0
	}
	head := s[:keep]
	if i := strings.LastIndexByte(head, '\n'); i > keep/2 {
		head = head[:i]
	}
	for len(head) > 0 && !validUTF8End(head) {
		head = head[:len(head)-1]
	}
	return head + note
}

// validUTF8End reports whether s does not end inside a multi-byte rune.
func validUTF8End(s string) bool {
	for i := len(s) - 1; i >= 0 && i >= len(s)-4; i-- {
		c := s[i]
		if c < 0x80 {
			return true
		}
		if c >= 0xC0 {
			need := 2
			if c >= 0xE0 {
				need = 3
			}
			if c >= 0xF0 {
				need = 4
			}
			return len(s)-i >= need
		}
	}
	return true
}

// checkTable is a Markdown table of a check's commands.
func checkTable(b *strings.Builder, label string, c *Check) {
	if c == nil {
		return
	}
	for _, cmd := range c.Commands {
		status := "✅ pass"
		if !cmd.Passed {
			status = "❌ fail"
			if cmd.TimedOut {
				status = "⏱ timed out"
			}
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", label, cell(untrusted.Code(cmd.Command)), status, duration(cmd.Duration), testList(cmd.Failures))
	}
	if len(c.Flaky) > 0 {
		fmt.Fprintf(b, "| %s | flaky (passed on re-run) | ⚠️ | | %s |\n", label, testList(c.Flaky))
	}
}

// testList is failing tests' names for a table cell, at most about 300
// bytes of them. The names come from the tests' output, which the model's
// code can write: they are rendered as untrusted text.
func testList(ids []string) string {
	var names []string
	n := 0
	for i, id := range ids {
		if n > 300 {
			names = append(names, fmt.Sprintf("… (%d more)", len(ids)-i))
			break
		}
		names = append(names, untrusted.Markdown(id))
		n += len(id)
	}
	return strings.Join(names, ", ")
}

// cell is inline Markdown made fit for a table cell: GitHub splits cells
// at "|" even inside code, unless it is escaped.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// verification writes the before/after evidence table.
func verification(b *strings.Builder, r *Run) {
	if r.Before == nil && r.After == nil {
		return
	}
	b.WriteString("| when | command | result | time | failures |\n|---|---|---|---|---|\n")
	checkTable(b, "before", r.Before)
	checkTable(b, "after", r.After)
	b.WriteString("\n")
}

// proofSection writes the evidence a reproduction gives, side by side:
// the reproducing test failing on the base (its output, trimmed), then the
// same test passing with the fix. The full suite is the verification
// table.
func proofSection(b *strings.Builder, r *Run, heading string) {
	p := r.Proof
	if p == nil || p.Kind != ProofReproduced || p.Before == nil {
		return
	}
	b.WriteString(heading + "\n\n")
	fmt.Fprintf(b, "%s (in %s) reproduces the issue: it was written first and fails on the base:\n\n", codeList(p.Tests), codeList(p.Files))
	if p.Before.Summary != "" {
		b.WriteString(codeBlock("", cut(p.Before.Summary, 6000)))
		b.WriteString("\n")
	}
	b.WriteString("| when | command | result | time | failures |\n|---|---|---|---|---|\n")
	checkTable(b, "base", p.Before)
	if p.After != nil {
		checkTable(b, "with the fix", p.After)
		b.WriteString("\nWith the fix it passes, and so does the full suite below. The test is part of this change and was frozen before the fix was written: the fix could not edit it.\n\n")
	} else {
		b.WriteString("\nNo change made it pass.\n\n")
	}
}

func codeList(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "`" + strings.ReplaceAll(s, "`", "'") + "`"
	}
	return strings.Join(out, ", ")
}

// unprovenWarning says plainly that nothing proves the change.
const unprovenWarning = "> [!CAUTION]\n> **Unproven: no test shows that this change solves the issue.** agentfix could not write a test that fails without it. The checks pass with the change, but they passed without it too. Check by hand that it does what the issue asks before merging.\n\n"

// subject is "#7" or "" for runs without an issue or PR.
func subject(r *Run) string {
	if r.Number == 0 {
		return ""
	}
	return fmt.Sprintf("#%d", r.Number)
}
