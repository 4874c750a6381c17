package event

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/config"
)

// Event names agentfix handles (GITHUB_EVENT_NAME).
const (
	EventIssues           = "issues"
	EventIssueComment     = "issue_comment"
	EventSchedule         = "schedule"
	EventWorkflowDispatch = "workflow_dispatch"
	// EventReview is a pull request review; EventReviewComment an inline
	// review comment.
	EventReview        = "pull_request_review"
	EventReviewComment = "pull_request_review_comment"
)

// DefaultLabel is the trigger label when the config leaves triggers.label
// empty.
const DefaultLabel = "agent-fix"

// Decode reads the event the Actions runner describes in the environment
// (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY) and decodes it
// with Parse. readFile reads the payload file (os.ReadFile outside tests).
// A schedule event may come without a payload file.
func Decode(getenv func(string) string, readFile func(string) ([]byte, error), t config.Triggers) (*Job, error) {
	name := strings.TrimSpace(getenv("GITHUB_EVENT_NAME"))
	if name == "" {
		return nil, errors.New("GITHUB_EVENT_NAME is not set (agentfix action runs inside GitHub Actions; use the CLI commands locally)")
	}
	path := getenv("GITHUB_EVENT_PATH")
	var payload []byte
	if path == "" {
		if name != EventSchedule {
			return nil, fmt.Errorf("event %s: GITHUB_EVENT_PATH is not set", name)
		}
	} else {
		b, err := readFile(path)
		switch {
		case err == nil:
			payload = b
		case errors.Is(err, fs.ErrNotExist) && name == EventSchedule:
		default:
			return nil, fmt.Errorf("event %s: read payload %s: %w", name, path, err)
		}
	}
	return Parse(name, payload, getenv("GITHUB_REPOSITORY"), t)
}

// Parse decodes the payload of event name into a Job. repository is
// GITHUB_REPOSITORY ("owner/name"); when empty, the payload's repository is
// used. Events and actions that are not for agentfix give a Job of kind
// KindIgnore, not an error; errors are for payloads and inputs that are
// broken (the run should fail and say why).
func Parse(name string, payload []byte, repository string, t config.Triggers) (*Job, error) {
	j := &Job{EventName: name}
	if err := setRepo(j, repository, payload); err != nil {
		return nil, fmt.Errorf("event %s: %w", name, err)
	}
	var err error
	switch name {
	case EventIssues:
		err = parseIssues(j, payload, t)
	case EventIssueComment:
		err = parseIssueComment(j, payload, t)
	case EventSchedule:
		err = parseSchedule(j, payload)
	case EventWorkflowDispatch:
		err = parseDispatch(j, payload)
	case EventReview:
		err = parseReview(j, payload)
	case EventReviewComment:
		err = parseReviewComment(j, payload, t)
	default:
		ignore(j, fmt.Sprintf("event %s does not trigger agentfix", name))
	}
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", name, err)
	}
	return j, nil
}

// payloadRepo is the part of every payload that names the repository.
type payloadRepo struct {
	Repository *github.Repository `json:"repository"`
}

func setRepo(j *Job, repository string, payload []byte) error {
	var p payloadRepo
	if len(payload) > 0 {
		// A payload that is not JSON is reported by the event's own parser.
		_ = json.Unmarshal(payload, &p)
	}
	if p.Repository != nil {
		j.DefaultBranch = p.Repository.GetDefaultBranch()
		if repository == "" {
			repository = p.Repository.GetFullName()
		}
	}
	owner, name, ok := strings.Cut(strings.TrimSpace(repository), "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return fmt.Errorf("GITHUB_REPOSITORY %q is not owner/name", repository)
	}
	j.Owner, j.Repo = owner, name
	return nil
}

func unmarshal(payload []byte, v any) error {
	if len(payload) == 0 {
		return errors.New("payload is empty")
	}
	if err := json.Unmarshal(payload, v); err != nil {
		return fmt.Errorf("decode payload: %w", err)
	}
	return nil
}

func actor(u *github.User) Actor {
	return Actor{Login: u.GetLogin(), Type: u.GetType()}
}

func setIssue(j *Job, is *github.Issue) error {
	if is == nil || is.GetNumber() <= 0 {
		return errors.New("payload has no issue number")
	}
	j.Number = is.GetNumber()
	j.Title = is.GetTitle()
	j.Body = is.GetBody()
	for _, l := range is.Labels {
		j.IssueLabels = append(j.IssueLabels, l.GetName())
	}
	if is.IsPullRequest() {
		j.IsPR = true
		j.PR = &PullRequest{Number: j.Number, APIURL: is.GetPullRequestLinks().GetURL()}
	}
	return nil
}

func parseIssues(j *Job, payload []byte, t config.Triggers) error {
	var ev github.IssuesEvent
	if err := unmarshal(payload, &ev); err != nil {
		return err
	}
	j.Action = ev.GetAction()
	j.Trigger = TriggerLabel
	if err := setIssue(j, ev.Issue); err != nil {
		return err
	}
	j.Actor = actor(ev.Sender)
	j.Label = ev.GetLabel().GetName()
	j.At = ev.GetIssue().GetUpdatedAt().Time
	want := t.Label
	if want == "" {
		want = DefaultLabel
	}
	switch {
	case j.Action != "labeled":
		ignore(j, fmt.Sprintf("issues/%s does not trigger agentfix (only labeled)", j.Action))
	case !strings.EqualFold(j.Label, want):
		ignore(j, fmt.Sprintf("label %q is not the trigger label %q", j.Label, want))
	case j.IsPR:
		ignore(j, "the trigger label works on issues, not pull requests")
	default:
		j.Kind = KindFixIssue
	}
	return nil
}

func parseIssueComment(j *Job, payload []byte, t config.Triggers) error {
	var ev github.IssueCommentEvent
	if err := unmarshal(payload, &ev); err != nil {
		return err
	}
	j.Action = ev.GetAction()
	j.Trigger = TriggerComment
	if err := setIssue(j, ev.Issue); err != nil {
		return err
	}
	c := ev.GetComment()
	j.Comment = &Comment{ID: c.GetID(), Body: c.GetBody(), HTMLURL: c.GetHTMLURL()}
	j.At = c.GetCreatedAt().Time
	cmd := commentCommand(j, c.GetUser(), ev.Sender, t)
	if cmd == nil {
		return nil
	}
	switch {
	case cmd.Verb == VerbHelp:
		j.Kind = KindHelp
	case cmd.Verb == VerbFix && !j.IsPR:
		j.Kind = KindFixIssue
	case cmd.Verb == VerbCheck && j.IsPR:
		j.Kind = KindCheckPR
	case cmd.Verb == VerbFix:
		// Whose PR it is decides what fix does there (see Settle).
		j.Kind = KindFixPR
	default:
		ignore(j, "check works on pull requests, not on issues")
	}
	return nil
}

// commentCommand sets the actor of a comment job (its author, else the
// sender) and returns the comment's command, or nil when the job is
// ignored: an edit, agentfix's own comment, no command.
func commentCommand(j *Job, author, sender *github.User, t config.Triggers) *Command {
	j.Actor = actor(author)
	if j.Actor.Login == "" {
		j.Actor = actor(sender)
	}
	switch {
	case j.Action != "created":
		ignore(j, fmt.Sprintf("%s/%s does not trigger agentfix (only created; edits never do)", j.EventName, j.Action))
	case HasMarker(j.Comment.Body):
		ignore(j, "the comment was written by agentfix (it carries the hidden marker)")
	default:
		j.Command = NewCommands(t.Command).Parse(j.Comment.Body)
		if j.Command == nil {
			ignore(j, "the comment holds no command")
			return nil
		}
		j.Task = j.Command.Args
	}
	return j.Command
}

func parseSchedule(j *Job, payload []byte) error {
	j.Trigger = TriggerSchedule
	j.Kind = KindNightly
	if len(payload) == 0 {
		return nil
	}
	var ev struct {
		Schedule string `json:"schedule"`
	}
	if err := json.Unmarshal(payload, &ev); err != nil {
		return fmt.Errorf("decode payload: %w", err)
	}
	j.Schedule = ev.Schedule
	return nil
}

// Dispatch modes (the workflow_dispatch input `mode`).
const (
	ModeFixIssue = "fix-issue"
	ModeCheckPR  = "check-pr"
	ModeNightly  = "nightly"
)

func parseDispatch(j *Job, payload []byte) error {
	var ev github.WorkflowDispatchEvent
	if err := unmarshal(payload, &ev); err != nil {
		return err
	}
	j.Trigger = TriggerDispatch
	j.Ref = ev.GetRef()
	j.Actor = actor(ev.Sender)
	in, err := dispatchInputs(ev.Inputs)
	if err != nil {
		return err
	}
	j.Task = strings.TrimSpace(in["task"])
	num := strings.TrimPrefix(strings.TrimSpace(in["number"]), "#")
	if num != "" {
		n, err := strconv.Atoi(num)
		if err != nil || n <= 0 {
			return fmt.Errorf("input number %q is not an issue or pull request number", in["number"])
		}
		j.Number = n
	}
	mode := strings.ToLower(strings.TrimSpace(in["mode"]))
	if mode == "" {
		// No mode: a number means an issue to fix, none means nightly.
		mode = ModeNightly
		if j.Number > 0 {
			mode = ModeFixIssue
		}
	}
	switch mode {
	case ModeFixIssue, "fix", "issue":
		j.Kind = KindFixIssue
	case ModeCheckPR, "check", "pr":
		j.Kind = KindCheckPR
		j.IsPR = true
		j.PR = &PullRequest{Number: j.Number}
	case ModeNightly:
		j.Kind = KindNightly
		j.Number = 0
		return nil
	default:
		return fmt.Errorf("input mode %q is not one of %s, %s, %s", in["mode"], ModeFixIssue, ModeCheckPR, ModeNightly)
	}
	if j.Number == 0 {
		return fmt.Errorf("input mode %s needs input number (the issue or pull request)", mode)
	}
	return nil
}

// dispatchInputs flattens the inputs object; a boolean or number input
// may arrive as a JSON boolean or number rather than a string.
func dispatchInputs(raw json.RawMessage) (map[string]string, error) {
	out := map[string]string{}
	if len(raw) == 0 || string(raw) == "null" {
		return out, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode inputs: %w", err)
	}
	for k, v := range m {
		switch v := v.(type) {
		case nil:
		case string:
			out[strings.ToLower(k)] = v
		default:
			b, _ := json.Marshal(v)
			out[strings.ToLower(k)] = string(b)
		}
	}
	return out, nil
}
