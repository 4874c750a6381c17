// Package event turns the GitHub Actions event that started a run
// (GITHUB_EVENT_NAME and the payload at GITHUB_EVENT_PATH) into a typed Job:
// what agentfix should do, on which issue or pull request, for whom, with
// which command. It decides nothing about trust; see package trust.
package event

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Kind is what a job asks agentfix to do.
type Kind string

// Job kinds.
const (
	// KindFixIssue fixes an issue and opens a PR that says "Fixes #N".
	KindFixIssue Kind = "fix-issue"
	// KindCheckPR runs the allowlisted checks on a PR's head, and fixes them
	// into the PR's head branch when they fail.
	KindCheckPR Kind = "check-pr"
	// KindHelp replies with the commands and who may use them.
	KindHelp Kind = "help"
	// KindNightly verifies the default branch and fixes what is red.
	KindNightly Kind = "nightly"
	// KindRevisePR revises agentfix's own pull request: one new commit on
	// its branch that answers a review, an inline `/agent fix` or an
	// `/agent fix` comment on it. Job.Review and Job.Comment say what was
	// asked.
	KindRevisePR Kind = "revise-pr"
	// KindFixPR is `/agent fix` on someone else's pull request: fix what
	// the comment asks into the PR's head branch (a PR into it, as
	// check-pr does; for a fork's PR, a diff in a comment). An
	// issue_comment payload does not say whose PR it is: Settle turns the
	// job into KindRevisePR once the PR is known to be agentfix's.
	KindFixPR Kind = "fix-pr"
	// KindIgnore means the event is not for agentfix; Job.IgnoreReason says
	// why, for the log only. Nothing is posted.
	KindIgnore Kind = "ignore"
)

// Trigger is how a job was started.
type Trigger string

// Triggers.
const (
	TriggerLabel    Trigger = "label"
	TriggerComment  Trigger = "comment"
	TriggerSchedule Trigger = "schedule"
	TriggerDispatch Trigger = "dispatch"
	// TriggerReview is a submitted pull request review.
	TriggerReview Trigger = "review"
	// TriggerReviewComment is an inline review comment holding a command.
	TriggerReviewComment Trigger = "review-comment"
)

// Marker is the hidden HTML comment agentfix puts in every comment, issue
// and PR body it writes. Comments carrying it never trigger agentfix, so the
// bot cannot answer itself; this is how agentfix recognises its own writing,
// because the Actions token may not call GET /user to learn who it is.
// Publishers may add a qualifier (`<!-- agentfix:status issue-7 -->`);
// HasMarker recognises those too.
const Marker = "<!-- agentfix -->"

var markerRE = regexp.MustCompile(`<!--\s*agentfix\b`)

// HasMarker reports whether body carries agentfix's hidden marker, bare or
// qualified.
func HasMarker(body string) bool { return markerRE.MatchString(body) }

// Actor is the account that triggered the job: the commenter, the labeler,
// or whoever dispatched the workflow. Scheduled runs have no actor.
type Actor struct {
	Login string
	// Type is the account type from the payload: "User", "Bot" or
	// "Organization".
	Type string
}

// IsBot reports whether the actor is an app or bot account: its type is Bot,
// or its login ends in "[bot]" (the payload's type is not always there).
func (a Actor) IsBot() bool {
	return strings.EqualFold(a.Type, "Bot") || strings.HasSuffix(strings.ToLower(a.Login), "[bot]")
}

// Comment is the comment that carried the command.
type Comment struct {
	ID      int64
	Body    string
	HTMLURL string
	// Inline is true for a review comment on a line of the diff
	// (pull_request_review_comment); Path, Line, DiffHunk and ReviewID
	// say where it sits.
	Inline   bool
	Path     string
	Line     int
	DiffHunk string
	ReviewID int64
}

// Review is a submitted pull request review.
type Review struct {
	ID int64
	// State is the payload's, lower case: "changes_requested",
	// "commented", "approved". (The REST API spells it in upper case.)
	State    string
	Body     string
	HTMLURL  string
	CommitID string
}

// Review states that ask for a change.
const (
	ReviewChangesRequested = "changes_requested"
	ReviewCommented        = "commented"
)

// Command is a parsed slash command: `/agent <Verb> <Args>`.
type Command struct {
	// Verb is "fix", "check" or "help", lower case.
	Verb string
	// Args is the rest of the command line, trimmed: extra instructions for
	// fix, the command to run for check.
	Args string
	// Line is the command line as written, for quoting in replies.
	Line string
}

// PullRequest is what is known about the pull request a check-pr job runs
// on. The issue_comment payload carries only the PR's API URL, so Head* and
// Fork are filled by SetPullRequest once the caller has fetched the PR;
// until then Resolved is false and trust refuses code-running commands.
type PullRequest struct {
	Number int
	// APIURL is the PR's REST URL from the payload (issue.pull_request.url).
	APIURL string
	// Resolved is true once SetPullRequest filled the fields below.
	Resolved bool
	// HeadRepo is the head repository's owner/name; empty when the fork
	// was deleted.
	HeadRepo string
	HeadRef  string
	HeadSHA  string
	BaseRepo string
	BaseRef  string
	// Fork is true when the head lives in another repository than the base
	// (or that repository is gone).
	Fork bool
	// State is "open" or "closed"; Author is the PR's author's login.
	State  string
	Author string
	// HTMLURL is the PR's page.
	HTMLURL string
}

// Job is one decoded event: what to do, where, and for whom.
type Job struct {
	Kind Kind
	// IgnoreReason says why Kind is KindIgnore (log only).
	IgnoreReason string
	Trigger      Trigger
	// EventName is GITHUB_EVENT_NAME; Action is the payload's action.
	EventName string
	Action    string

	// Owner and Repo name the repository the workflow runs in.
	Owner string
	Repo  string
	// DefaultBranch is the repository's default branch when the payload
	// has it (schedule payloads do not).
	DefaultBranch string

	// Number is the issue or PR number; 0 for nightly.
	Number int
	// IsPR is true when Number is a pull request.
	IsPR bool
	// Title and Body are the issue's or PR's, when the payload has them
	// (workflow_dispatch only has the number: fetch them).
	Title string
	Body  string
	// IssueLabels are the labels the issue carried in the payload.
	IssueLabels []string

	Actor Actor
	// Label is the label that was added (label trigger).
	Label string
	// Comment is the triggering comment (comment trigger), else nil.
	Comment *Comment
	// Command is the parsed slash command (comment trigger), else nil.
	Command *Command
	// Review is the review that asks for a revision (review trigger),
	// else nil.
	Review *Review
	// PR is set when IsPR; see PullRequest.
	PR *PullRequest

	// Task is free text: the workflow_dispatch `task` input, or the extra
	// instructions / check command after the slash command.
	Task string
	// At is when the trigger happened: the command comment's creation, or
	// the issue's last update for a label (adding it updates the issue);
	// zero when the payload does not say. Only comments written before it
	// were seen by whoever triggered the run.
	At time.Time
	// Schedule is the cron expression of a scheduled run, when known.
	Schedule string
	// Ref is the workflow_dispatch ref (refs/heads/main).
	Ref string
}

// FullName is "owner/repo".
func (j *Job) FullName() string { return j.Owner + "/" + j.Repo }

// Quote is the trigger as the user wrote it, for refusal and status
// comments: the command line, or a description of the label or dispatch.
func (j *Job) Quote() string {
	switch {
	case j.Command != nil:
		return j.Command.Line
	case j.Review != nil:
		return fmt.Sprintf("review by @%s (%s)", j.Actor.Login, strings.ReplaceAll(j.Review.State, "_", " "))
	case j.Trigger == TriggerLabel:
		return "label `" + j.Label + "` added"
	case j.Trigger == TriggerDispatch:
		return "workflow_dispatch " + string(j.Kind)
	case j.Trigger == TriggerSchedule:
		return "schedule " + j.Schedule
	}
	return string(j.Kind)
}

func ignore(j *Job, reason string) *Job {
	j.Kind = KindIgnore
	j.IgnoreReason = reason
	return j
}
