package pipeline

import (
	"context"
	"fmt"
	"os"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/workspace"
)

// ReplayOptions are what a replay needs besides the record.
type ReplayOptions struct {
	// Repo is the work tree to replay in; it must be clean and at the
	// recorded commit. It is left as it was found.
	Repo string
	// SessionOut keeps the replay's own record; "" keeps none.
	SessionOut string
}

// ReplayReport compares a replay with its record.
type ReplayReport struct {
	Outcome *Outcome
	// Identical is true when the final diffs are byte-identical.
	Identical bool
	// Divergence describes the first step where the runs differ; "" when
	// none does.
	Divergence string
}

// HeadMismatchError says the work tree is not at the commit the session
// was recorded at.
type HeadMismatchError struct{ Recorded, Head string }

func (e *HeadMismatchError) Error() string {
	return fmt.Sprintf("the session was recorded at commit %s but the work tree is at %s; check out the recorded commit first (git switch --detach %s)", gitrun.Short(e.Recorded), gitrun.Short(e.Head), e.Recorded)
}

// Replay runs a recorded session again through Run, with the recorded
// model replies and no model server; the verify commands run for real.
// The job is the recorded one (its task, its config, whether the failing
// checks were the task), so the replay takes the same path as the record.
func Replay(ctx context.Context, rec *agent.Recording, opts ReplayOptions, d Deps) (*ReplayReport, error) {
	repo, err := workspace.Open(ctx, opts.Repo)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if head != rec.Start.Head {
		return nil, &HeadMismatchError{Recorded: rec.Start.Head, Head: head}
	}
	own := opts.SessionOut
	if own == "" {
		f, err := os.CreateTemp("", "agentfix-replay-*.jsonl")
		if err != nil {
			return nil, fmt.Errorf("session: %w", err)
		}
		f.Close()
		own = f.Name()
		defer os.Remove(own)
	}
	job := recordedJob(rec)
	job.Repo, job.Session = repo.Root, own
	cmp := &replayCompare{rec: rec}
	job.Deliver = cmp
	d.NewModel = func(*config.Config, Deps) (agent.Model, error) { return agent.NewReplayModel(rec), nil }
	out, err := Run(ctx, job, d)
	switch {
	case cmp.err != nil:
		return nil, cmp.err
	case out.Err != nil:
		return nil, err // a stage failed: a dirty tree, a refused command
	}
	return cmp.report, nil
}

// recordedJob is the job a record was made of. Records from before the job
// event had the failing checks as the task exactly when the task had no
// text.
func recordedJob(rec *agent.Recording) Job {
	task := rec.Start.Task
	task.Failing = nil
	job := Job{Name: "replay", Config: rec.Config, Task: task, FromFailures: task.Title == "" && task.Body == ""}
	// The instructions the model read, not what the branch says today.
	job.Instructions = instructions.Recorded(rec.Start.Instructions)
	for _, e := range rec.Events {
		var je JobEvent
		if e.Kind == "job" && e.Decode(&je) == nil {
			job.Name, job.FromFailures, job.Commands = je.Name, je.FromFailures, je.Commands
			job.Revision, job.Frozen = je.Revision, je.Frozen
			break
		}
	}
	return job
}

// replayCompare is the deliverer of a replay: it compares the run with the
// record, then puts the work tree back (a replay checks a record; it keeps
// no fix).
type replayCompare struct {
	rec    *agent.Recording
	report *ReplayReport
	err    error
}

func (c *replayCompare) Progress(Progress) {}

func (c *replayCompare) Deliver(ctx context.Context, o *Outcome) error {
	rep := &ReplayReport{Outcome: o}
	c.report = rep
	if o.Loop != nil && o.Result == Fixed {
		if err := o.Repo.Restore(ctx, o.Checkpoint, o.Loop.Files...); err != nil {
			c.err = fmt.Errorf("workspace: restore after replay: %w", err)
			return c.err
		}
	}
	recorded := ""
	if c.rec.Result != nil {
		recorded = c.rec.Result.Diff
	}
	rep.Identical = c.rec.Result != nil && recorded == o.Diff() && o.Err == nil
	if !rep.Identical {
		mine, err := session.ReadFile(o.Session)
		if err != nil && o.Session != "" {
			c.err = fmt.Errorf("replay: read own record: %w", err)
			return c.err
		}
		rep.Divergence = agent.Divergence(c.rec.Events, mine)
	}
	return nil
}
