package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/sethvargo/go-githubactions"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/event"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/trust"
	"github.com/agentfix/agentfix/internal/workspace"
)

const actionHelp = `Run as a GitHub Action: read the event GitHub Actions describes in the
environment, decide whether its actor may trigger agentfix, then fix the
issue, check the pull request or run the nightly checks, and publish the
result as a pull request, a status comment or a tracking issue.

Environment: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY,
GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_WORKSPACE, GITHUB_RUN_ID,
GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and the inputs INPUT_*
(github-token, ollama-host, model, test-command, config, max-rounds,
dry-run, trigger-label).

Outputs: result (fixed, nothing-to-do, not-fixed, refused, checked),
pr-number, pr-url, branch, rounds.`

func runAction(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "action", "", actionHelp)
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	a := &actionRun{
		env:   e,
		gha:   githubactions.New(githubactions.WithGetenv(e.Getenv), githubactions.WithWriter(e.Stdout)),
		start: time.Now(),
		rep:   &report.Run{},
	}
	err := a.run(ctx)
	if err != nil && a.statusID != 0 && !errors.As(err, new(*notFixedError)) {
		// The status comment still says "working"; say how it ended.
		a.rep.Result, a.rep.Reason = report.NotFixed, err.Error()
		a.status(ctx, report.StageDone)
	}
	a.finish(err)
	return err
}

// actionRun is one run of the action and everything its stages share.
type actionRun struct {
	env   *Env
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
	// statusID is the status comment once found or created.
	statusID int64
	// base is the default branch.
	base string
}

// run is the pipeline: config → event → trust → (help | fix | check |
// nightly) → publish, each stage's error wrapped with its name. The config
// comes first because it says what triggers agentfix (label, command,
// bots, forks). Outputs and the step summary are written by finish,
// whatever happened.
func (a *actionRun) run(ctx context.Context) error {
	getenv := a.env.Getenv
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

	cfg, err := a.loadConfig()
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	a.cfg = cfg
	a.rep.Model, a.rep.MaxRounds = cfg.Model, cfg.Limits.MaxRounds

	job, err := event.Decode(getenv, os.ReadFile, cfg.Triggers)
	if err != nil {
		return exitcode.UsageError(fmt.Errorf("event: %w", err))
	}
	a.job = job
	a.describeJob()
	if job.Kind == event.KindIgnore {
		a.logf("event: ignored: %s", job.IgnoreReason)
		a.rep.Result, a.rep.Reason = report.NothingToDo, job.IgnoreReason
		return nil
	}

	if a.gh, err = newGitHub(ctx, getenv, a.token, a.logf); err != nil {
		return exitcode.UsageError(fmt.Errorf("github: %w", err))
	}
	a.pub = &publish.Publisher{
		GH: a.gh, Owner: job.Owner, Repo: job.Repo, Log: a.env.Stderr,
		Remote: workspace.RemoteOptions{Dir: a.dir, Token: a.token, Env: os.Environ()},
	}
	if err := a.resolve(ctx); err != nil {
		return fmt.Errorf("event: %w", err)
	}

	decision, err := trust.Decide(ctx, a.gh.Repositories, job, cfg.Triggers)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	a.rep.Decision = decision.Reason
	if !decision.Allowed {
		return a.refuse(ctx, decision)
	}

	switch job.Kind {
	case event.KindHelp:
		return a.help(ctx)
	case event.KindFixIssue:
		return a.fixIssue(ctx)
	case event.KindCheckPR:
		return a.checkPR(ctx)
	case event.KindNightly:
		return a.nightly(ctx)
	}
	return fmt.Errorf("event: job kind %q is not handled", job.Kind)
}

// loadConfig reads the effective config from the workspace and the inputs.
func (a *actionRun) loadConfig() (*config.Config, error) {
	root, err := filepath.Abs(a.dir)
	if err != nil {
		return nil, exitcode.UsageError(err)
	}
	cfg, _, err := config.Load(config.LoadOptions{RepoDir: root, Getenv: a.env.Getenv})
	if err != nil {
		return nil, exitcode.UsageError(err)
	}
	return cfg, nil
}

// resolve fetches what the payload lacks: a PR's head and fork status
// (trust needs them), an issue's title and body on workflow_dispatch, and
// the default branch.
func (a *actionRun) resolve(ctx context.Context) error {
	j := a.job
	if j.Kind == event.KindCheckPR {
		pr, _, err := a.gh.PullRequests.Get(ctx, j.Owner, j.Repo, j.Number)
		if err != nil {
			return fmt.Errorf("get pull request #%d: %w", j.Number, err)
		}
		j.SetPullRequest(pr)
	}
	if j.Kind == event.KindFixIssue && j.Title == "" {
		is, _, err := a.gh.Issues.Get(ctx, j.Owner, j.Repo, j.Number)
		if err != nil {
			return fmt.Errorf("get issue #%d: %w", j.Number, err)
		}
		if is.IsPullRequest() {
			return exitcode.Usagef("#%d is a pull request; fix-issue needs an issue (use mode check-pr)", j.Number)
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
func (a *actionRun) describeJob() {
	j := a.job
	a.rep.Repo, a.rep.Kind, a.rep.Number, a.rep.IsPR, a.rep.Title = j.FullName(), string(j.Kind), j.Number, j.IsPR, j.Title
	a.rep.RunURL = report.RunURL(a.env.Getenv("GITHUB_SERVER_URL"), j.FullName(), a.env.Getenv("GITHUB_RUN_ID"))
	var t string
	switch {
	case j.Command != nil:
		t = fmt.Sprintf("`%s` on #%d", j.Command.Line, j.Number)
	case j.Trigger == event.TriggerLabel:
		t = fmt.Sprintf("label `%s` on #%d", j.Label, j.Number)
	case j.Trigger == event.TriggerSchedule:
		t = "schedule"
		if j.Schedule != "" {
			t += " `" + j.Schedule + "`"
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
func (a *actionRun) refuse(ctx context.Context, d trust.Decision) error {
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
func (a *actionRun) help(ctx context.Context) error {
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

// status edits the status comment on the job's issue or PR to stage. A
// failure to post is logged, not fatal: the work matters more than the
// comment about it.
func (a *actionRun) status(ctx context.Context, stage report.Stage) {
	if a.job == nil || a.job.Number == 0 || a.dryRun || a.pub == nil {
		return
	}
	if ctx.Err() != nil {
		// Cancelled (SIGTERM, the workflow cancelled): the comment must
		// still say how the run ended, within the runner's grace period.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
	}
	id, err := a.pub.StatusComment(ctx, a.job.Number, a.statusID, report.StatusMarker, report.StatusComment(a.rep, stage))
	if err != nil {
		a.gha.Warningf("status comment: %v", err)
		return
	}
	a.statusID = id
}

// finish writes the outputs and the step summary, and annotates an error.
func (a *actionRun) finish(err error) {
	a.rep.Elapsed = time.Since(a.start).Round(time.Second)
	if a.rep.Result == "" {
		a.rep.Result = report.NotFixed
		if err != nil && a.rep.Reason == "" {
			a.rep.Reason = err.Error()
		}
	}
	switch {
	case err != nil && exitcode.Code(err) != exitcode.OK && !errors.As(err, new(*notFixedError)):
		a.gha.Errorf("%v", err)
	case a.rep.Result == report.NotFixed:
		a.gha.Warningf("agentfix: not fixed: %s", a.rep.Reason)
	case a.rep.PR != nil && a.rep.PR.URL != "":
		a.gha.Noticef("agentfix: %s: %s", a.rep.Result, a.rep.PR.URL)
	}
	if a.env.Getenv("GITHUB_OUTPUT") != "" {
		report.WriteOutputs(a.gha, a.rep)
	}
	if a.env.Getenv("GITHUB_STEP_SUMMARY") != "" {
		a.rep.DryRun = a.dryRun
		a.gha.AddStepSummary(report.StepSummary(a.rep))
	}
}

func (a *actionRun) logf(format string, args ...any) {
	fmt.Fprintf(a.env.Stderr, "agentfix: "+format+"\n", args...)
}

// notFixedError ends a run that did its job but could not fix the code
// (exit 1); the report already says why.
type notFixedError struct{ reason string }

func (e *notFixedError) Error() string { return "not fixed: " + e.reason }
