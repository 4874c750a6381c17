// Package action is agentfix as a GitHub Action. It reads the event GitHub
// Actions describes in the environment, decides whether its actor may
// trigger agentfix, and either replies (help, a refusal) or turns the event
// into a pipeline job whose outcome the GitHub deliverer publishes: a pull
// request, a status comment, a tracking issue. Whatever happens, it ends
// by writing the action outputs and the step summary.
package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/sethvargo/go-githubactions"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/event"
	"github.com/agentfix/agentfix/internal/ghclient"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/trust"
	"github.com/agentfix/agentfix/internal/untrusted"
	"github.com/agentfix/agentfix/internal/workspace"
)

// Options are the run's environment: the Actions variables and inputs,
// the log, and the pipeline's dependencies.
type Options struct {
	Getenv   func(string) string
	ReadFile func(string) ([]byte, error)
	// Stdout is the job log the runner parses (workflow commands); Stderr
	// receives agentfix's own lines.
	Stdout, Stderr io.Writer
	Deps           pipeline.Deps
	// NewGitHub makes the API client; ghclient.New when nil.
	NewGitHub func(ghclient.Options) (*github.Client, error)
}

// ConfigError is a problem with the run's configuration: the config file,
// the inputs, the event, the API client. The user fixes it; a re-run does
// not.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Run runs the action once. The error is nil when the run did its job
// (including "nothing to do" and a refusal), a *pipeline.NotFixedError
// when it ran without a verified fix, a *pipeline.UnprovenError when its
// change passes the checks with no test to prove it, and the failed
// stage's error otherwise.
func Run(ctx context.Context, o Options) error {
	if o.ReadFile == nil {
		o.ReadFile = os.ReadFile
	}
	if o.Deps.Now == nil {
		o.Deps.Now = time.Now
	}
	if o.NewGitHub == nil {
		o.NewGitHub = ghclient.New
	}
	// The status poster logs from its own goroutine.
	o.Stdout, o.Stderr = &lockedWriter{w: o.Stdout}, &lockedWriter{w: o.Stderr}
	o.Deps.Log = o.Stderr
	a := &run{
		opts:  o,
		gha:   githubactions.New(githubactions.WithGetenv(o.Getenv), githubactions.WithWriter(o.Stdout)),
		start: o.Deps.Now(),
		rep:   &report.Run{},
	}
	err := a.run(ctx)
	switch {
	case err != nil && !a.delivered && a.rep.Revision != nil:
		// A revision that failed before it was delivered still answers.
		a.rep.Result, a.rep.Reason = report.NotFixed, err.Error()
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalPostTimeout)
		if aerr := a.answer(actx, nil); aerr != nil {
			a.logf("revise: %v", aerr)
		}
		cancel()
	case err != nil && !a.delivered && a.status != nil:
		// The status comment may still say "working": say how it ended.
		a.rep.Result, a.rep.Reason = report.NotFixed, err.Error()
		a.status.done(ctx)
	}
	a.finish(err)
	return err
}

// run is one run of the action and what its steps share.
type run struct {
	opts  Options
	gha   *githubactions.Action
	start time.Time

	dir    string // GITHUB_WORKSPACE
	token  string
	dryRun bool
	cfg    *config.Config
	job    *event.Job
	gh     *github.Client
	pub    *publish.Publisher
	rep    *report.Run
	status *status
	// delivered: the pipeline told its outcome (and settled the status).
	delivered bool
	// base is the default branch.
	base string
	// threads are the inline comments of the review a revision answers.
	threads []publish.ReviewComment
}

// run is the front of the pipeline: config → event → trust → (help | a
// pipeline job). The config comes first because it says what triggers
// agentfix (label, command, bots, forks).
func (a *run) run(ctx context.Context) error {
	getenv := a.opts.Getenv
	a.dir = getenv("GITHUB_WORKSPACE")
	if a.dir == "" {
		a.dir = "."
	}
	a.token = config.Input(getenv, "github-token")
	if a.token == "" {
		a.token = getenv("GITHUB_TOKEN")
	}
	a.dryRun = strings.EqualFold(config.Input(getenv, "dry-run"), "true")
	if a.token != "" {
		a.gha.AddMask(a.token)
	}

	root, err := filepath.Abs(a.dir)
	if err != nil {
		return &ConfigError{fmt.Errorf("config: %w", err)}
	}
	a.dir = root
	a.cfg, _, err = config.Load(config.LoadOptions{RepoDir: root, Getenv: getenv})
	if err != nil {
		return &ConfigError{fmt.Errorf("config: %w", err)}
	}
	a.rep.Model, a.rep.MaxRounds = a.cfg.Model, a.cfg.Limits.MaxRounds

	a.job, err = event.Decode(getenv, a.opts.ReadFile, a.cfg.Triggers)
	if err != nil {
		return &ConfigError{fmt.Errorf("event: %w", err)}
	}
	// A review payload names the PR's head: a review of someone else's
	// PR is ignored before anything is asked of the API.
	a.job.Settle(a.cfg.PR.BranchPrefix)
	a.describeJob()
	if a.job.Kind == event.KindIgnore {
		return a.ignored()
	}

	gho := ghclient.FromEnv(getenv)
	gho.Token, gho.Logf, gho.Sleep, gho.Now = a.token, a.logf, a.opts.Deps.Sleep, a.opts.Deps.Now
	if a.gh, err = a.opts.NewGitHub(gho); err != nil {
		return &ConfigError{fmt.Errorf("github: %w", err)}
	}
	a.pub = &publish.Publisher{
		GH: a.gh, Owner: a.job.Owner, Repo: a.job.Repo, Log: a.opts.Stderr,
		Remote: workspace.RemoteOptions{Dir: a.dir, Token: a.token, Env: a.opts.Deps.Environ, Server: getenv("GITHUB_SERVER_URL")},
	}
	a.status = &status{a: a}
	if err := a.resolve(ctx); err != nil {
		return fmt.Errorf("event: %w", err)
	}
	if a.job.Kind == event.KindIgnore {
		return a.ignored()
	}

	decision, err := trust.Decide(ctx, a.gh.Repositories, a.job, a.cfg.Triggers)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	a.rep.Decision = decision.Reason
	if !decision.Allowed {
		return a.refuse(ctx, decision)
	}
	// Marked comments count as agentfix's own only when it wrote them.
	if err := a.pub.Identify(ctx); err != nil {
		a.logf("github: %v", err)
	}

	switch a.job.Kind {
	case event.KindHelp:
		return a.help(ctx)
	case event.KindFixIssue:
		return a.fixIssue(ctx)
	case event.KindCheckPR:
		return a.checkPR(ctx)
	case event.KindFixPR:
		return a.fixPR(ctx)
	case event.KindRevisePR:
		return a.revisePR(ctx)
	case event.KindNightly:
		return a.nightly(ctx)
	}
	return fmt.Errorf("event: job kind %q is not handled", a.job.Kind)
}

// ignored ends a run whose event is not for agentfix: nothing is posted,
// the log and the step summary say why.
func (a *run) ignored() error {
	a.logf("event: ignored: %s", a.job.IgnoreReason)
	a.rep.Result, a.rep.Reason = report.NothingToDo, a.job.IgnoreReason
	return nil
}

// resolve fetches what the payload lacks: a PR's head and fork status
// (trust needs them; a review payload's may be stale), whether the PR is
// agentfix's own, the review's inline comments, an issue's title and body
// on workflow_dispatch, and the default branch.
func (a *run) resolve(ctx context.Context) error {
	j := a.job
	if j.Kind == event.KindCheckPR || j.Kind == event.KindFixPR || j.Kind == event.KindRevisePR {
		pr, _, err := a.gh.PullRequests.Get(ctx, j.Owner, j.Repo, j.Number)
		if err != nil {
			return fmt.Errorf("get pull request #%d: %w", j.Number, err)
		}
		j.SetPullRequest(pr)
		j.Settle(a.cfg.PR.BranchPrefix)
	}
	if j.Kind == event.KindRevisePR && j.Review != nil {
		if err := a.readReview(ctx); err != nil {
			return err
		}
	}
	if j.Kind == event.KindFixIssue && j.Title == "" {
		is, _, err := a.gh.Issues.Get(ctx, j.Owner, j.Repo, j.Number)
		if err != nil {
			return fmt.Errorf("get issue #%d: %w", j.Number, err)
		}
		if is.IsPullRequest() {
			return &ConfigError{fmt.Errorf("#%d is a pull request; fix-issue needs an issue (use mode check-pr)", j.Number)}
		}
		j.Title, j.Body = is.GetTitle(), is.GetBody()
	}
	a.base = j.DefaultBranch
	if a.base == "" && j.Kind != event.KindHelp {
		repo, _, err := a.gh.Repositories.Get(ctx, j.Owner, j.Repo)
		if err != nil {
			return fmt.Errorf("get repository %s: %w", j.FullName(), err)
		}
		a.base = repo.GetDefaultBranch()
	}
	a.rep.Title = j.Title
	return nil
}

// describeJob fills the report's description of the trigger.
func (a *run) describeJob() {
	j := a.job
	a.rep.Repo, a.rep.Kind, a.rep.Number, a.rep.IsPR, a.rep.Title = j.FullName(), string(j.Kind), j.Number, j.IsPR, j.Title
	getenv := a.opts.Getenv
	a.rep.RunURL = report.RunURL(getenv("GITHUB_SERVER_URL"), j.FullName(), getenv("GITHUB_RUN_ID"))
	a.rep.SessionArtifact = report.SessionArtifactName(getenv("GITHUB_RUN_ID"), getenv("GITHUB_RUN_ATTEMPT"), getenv("GITHUB_JOB"))
	var t string
	switch {
	case j.Command != nil && j.Comment != nil && j.Comment.Inline:
		t = fmt.Sprintf("%s on %s of #%d", untrusted.Code(j.Command.Line), untrusted.Code(fmt.Sprintf("%s:%d", j.Comment.Path, j.Comment.Line)), j.Number)
	case j.Command != nil:
		t = fmt.Sprintf("%s on #%d", untrusted.Code(j.Command.Line), j.Number)
	case j.Review != nil:
		t = fmt.Sprintf("review (%s) on #%d", strings.ReplaceAll(j.Review.State, "_", " "), j.Number)
	case j.Trigger == event.TriggerLabel:
		t = fmt.Sprintf("label %s on #%d", untrusted.Code(j.Label), j.Number)
	case j.Trigger == event.TriggerSchedule:
		t = "schedule"
		if j.Schedule != "" {
			t += " " + untrusted.Code(j.Schedule)
		}
	case j.Trigger == event.TriggerDispatch:
		t = "workflow_dispatch " + string(j.Kind)
		if j.Number > 0 {
			t += fmt.Sprintf(" #%d", j.Number)
		}
	default:
		t = j.EventName
	}
	if j.Actor.Login != "" {
		t += " by @" + j.Actor.Login
	}
	a.rep.Trigger = t
}

// refuse posts one reply quoting the command and the reason; the run ends
// refused with exit 0, so a stranger's comment does not turn the workflow
// red.
func (a *run) refuse(ctx context.Context, d trust.Decision) error {
	a.rep.Result, a.rep.Reason = report.Refused, d.Reason
	a.logf("trust: refused: %s", d.Reason)
	if a.job.Number == 0 || a.dryRun {
		return nil
	}
	if _, err := a.pub.Comment(ctx, a.job.Number, trust.RefusalComment(a.job, d)); err != nil {
		return fmt.Errorf("trust: post refusal: %w", err)
	}
	return nil
}

// help replies with the commands and who may use them.
func (a *run) help(ctx context.Context) error {
	a.rep.Result = report.NothingToDo
	if a.dryRun {
		return nil
	}
	t := a.cfg.Triggers
	body := report.Help(report.HelpOptions{Prefix: event.NewCommands(t.Command).Prefix(), Label: t.Label, AllowForks: t.AllowForks, AllowBots: t.AllowBots})
	if _, err := a.pub.Comment(ctx, a.job.Number, body); err != nil {
		return fmt.Errorf("help: %w", err)
	}
	return nil
}

// finish writes the outputs and the step summary, and annotates an error.
func (a *run) finish(err error) {
	a.rep.Elapsed = a.opts.Deps.Now().Sub(a.start).Round(time.Second)
	if a.rep.Result == "" {
		a.rep.Result = report.NotFixed
		if err != nil && a.rep.Reason == "" {
			a.rep.Reason = err.Error()
		}
	}
	var notFixed *pipeline.NotFixedError
	var unproven *pipeline.UnprovenError
	switch {
	case err != nil && !errors.As(err, &notFixed) && !errors.As(err, &unproven):
		a.gha.Errorf("%v", err)
	case a.rep.Result == report.NotFixed:
		a.gha.Warningf("agentfix: not fixed: %s", a.rep.Reason)
	case a.rep.Result == report.Unproven:
		a.gha.Warningf("agentfix: unproven: %s", a.rep.Reason)
	case a.rep.PR != nil && a.rep.PR.URL != "":
		a.gha.Noticef("agentfix: %s: %s", a.rep.Result, a.rep.PR.URL)
	}
	if a.opts.Getenv("GITHUB_OUTPUT") != "" {
		report.WriteOutputs(a.gha, a.rep)
	}
	if a.opts.Getenv("GITHUB_STEP_SUMMARY") != "" {
		a.rep.DryRun = a.dryRun
		a.gha.AddStepSummary(report.StepSummary(a.rep))
	}
}

func (a *run) logf(format string, args ...any) {
	untrusted.Logf(a.opts.Stderr, "agentfix: "+format, args...)
}
