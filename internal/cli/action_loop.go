package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/verify"
)

// loop runs the plan → patch → verify loop on task with the run's config.
func (a *actionRun) loop(ctx context.Context, task agent.Task) (*agent.Result, error) {
	return a.loopWith(ctx, a.cfg, task)
}

// loopWith runs the loop with cfg. Its errors are configuration problems
// (server, model, refused command: exit 2) or a run that could not start.
func (a *actionRun) loopWith(ctx context.Context, cfg *config.Config, task agent.Task) (*agent.Result, error) {
	model, err := llm.New(cfg.Ollama.Host, llm.Options{Timeout: cfg.Ollama.Timeout.D(), Log: a.env.Stderr})
	if err != nil {
		return nil, err
	}
	sess, path, err := a.sessionFile()
	if err != nil {
		return nil, fmt.Errorf("session record: %w", err)
	}
	defer sess.Close()
	// The status comment follows the rounds as the session records them.
	rounds := &roundWatcher{w: sess, onRound: func(k int) {
		a.rep.Rounds = k
		a.status(ctx, report.StageRound)
	}}
	res, err := agent.Run(ctx, agent.Job{
		Repo: a.dir, Config: cfg, Task: task, Model: model,
		Session: rounds, Log: a.env.Stderr, Environ: environ(), Version: Version, Actions: true,
	})
	if err != nil {
		if llm.IsConfig(err) || isRefused(err) {
			return nil, exitcode.UsageError(err)
		}
		return nil, err
	}
	a.rep.Session = sessionExcerpt(path)
	a.logf("loop: %s after %d round(s) (%s); session record %s", res.Result, res.Rounds, res.StopReason, path)
	return res, nil
}

// sessionFile opens the session record under RUNNER_TEMP (or the system's
// temporary directory).
func (a *actionRun) sessionFile() (*os.File, string, error) {
	dir := a.env.Getenv("RUNNER_TEMP")
	if dir == "" {
		dir = os.TempDir()
	}
	id := a.env.Getenv("GITHUB_RUN_ID")
	if id == "" {
		id = fmt.Sprint(time.Now().Unix())
	}
	path := filepath.Join(dir, fmt.Sprintf("agentfix-session-%s-%s.jsonl", id, a.job.Kind))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	return f, path, err
}

// verify runs cmds on the work tree the way the loop would.
func (a *actionRun) verify(ctx context.Context, cmds []string) (*verify.Report, error) {
	c := a.cfg.Verify
	return verify.Run(ctx, cmds, verify.Options{
		Dir: a.dir, Timeout: c.Timeout.D(), Allow: c.Allow, EnvPassthrough: c.EnvPassthrough,
		Environ: environ(), Log: a.env.Stderr, Actions: true, FlakyReruns: c.FlakyReruns,
	})
}

// fill copies the loop's result into the report.
func (a *actionRun) fill(res *agent.Result) {
	r := a.rep
	r.Rounds, r.Files, r.Diff = res.Rounds, res.Files, res.Diff
	if res.Model != "" {
		r.Model = res.Model
	}
	if res.Plan != nil {
		r.Plan = res.Plan.Steps
	}
	if res.Before != nil && r.Before == nil {
		r.Before = checkOf(res.Before)
	}
	if res.Verify != nil {
		r.After = checkOf(res.Verify)
	}
	r.Verified = res.Result == agent.Fixed
	if res.Result != agent.Fixed {
		r.Reason = res.StopReason
		if res.StopDetail != "" {
			r.Reason += ": " + res.StopDetail
		}
	}
	if len(res.Files) > 0 {
		r.Summary = fmt.Sprintf("agentfix changed %s; %s.", strings.Join(quoteAll(res.Files), ", "), stopText(res))
	}
	r.Elapsed = time.Since(a.start).Round(time.Second)
}

func stopText(res *agent.Result) string {
	if res.Result == agent.Fixed {
		return fmt.Sprintf("the verify commands pass after %d round(s)", res.Rounds)
	}
	if res.StopDetail != "" {
		return res.StopDetail
	}
	return res.StopReason
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "`" + s + "`"
	}
	return out
}

// checkOf turns a verify report into the report package's view of it.
func checkOf(rep *verify.Report) *report.Check {
	if rep == nil {
		return nil
	}
	c := &report.Check{Passed: rep.Passed}
	for _, cr := range rep.Commands {
		cmd := report.Command{Command: strings.Join(cr.Argv, " "), Passed: cr.Passed, Duration: time.Duration(cr.DurationMS) * time.Millisecond, TimedOut: cr.TimedOut}
		for _, f := range cr.Failures {
			cmd.Failures = append(cmd.Failures, f.ID())
		}
		c.Commands = append(c.Commands, cmd)
	}
	for _, f := range rep.Flaky {
		c.Flaky = append(c.Flaky, f.ID())
	}
	if !rep.Passed || len(rep.Flaky) > 0 {
		c.Summary = failureSummary(rep, 8000)
	}
	return c
}

// actionCommitMessage is the fix commit's message.
func actionCommitMessage(r *report.Run) string {
	msg := strings.TrimPrefix(report.PRTitle(r), "agentfix: ")
	var b strings.Builder
	b.WriteString(msg + "\n\n")
	if r.Number > 0 && !r.IsPR {
		fmt.Fprintf(&b, "Fixes #%d\n\n", r.Number)
	}
	if r.RunURL != "" {
		fmt.Fprintf(&b, "Run: %s\n", r.RunURL)
	}
	b.WriteString("Generated-by: agentfix\n")
	return b.String()
}

// applyDiff applies an unverified diff to the work tree (for a draft PR).
func applyDiff(ctx context.Context, dir, diff string) error {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "apply", "--whitespace=nowarn", "-")
	cmd.Stdin = strings.NewReader(diff)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git apply: %s", strings.TrimSpace(errb.String()))
	}
	return nil
}

// sessionExcerpt is the start of the session record: each event cut to a
// line a person can scan.
func sessionExcerpt(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for n := 0; sc.Scan() && n < 80 && b.Len() < 16000; n++ {
		line := sc.Text()
		if len(line) > 240 {
			line = line[:240] + " …"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func isRefused(err error) bool {
	var r *verify.RefusedError
	return errors.As(err, &r)
}

// failureSummary lists each failure with what the tool printed about it,
// within max bytes.
func failureSummary(rep *verify.Report, max int) string {
	var b strings.Builder
	for _, f := range append(rep.Failures(), rep.Flaky...) {
		fmt.Fprintf(&b, "%s", f.ID())
		if loc := f.Location(); loc != "" {
			fmt.Fprintf(&b, " (%s)", loc)
		}
		b.WriteString("\n")
		if out := strings.TrimSpace(f.Output); out != "" {
			if len(out) > 2000 {
				out = out[:2000] + " …"
			}
			b.WriteString(out + "\n")
		}
		if b.Len() > max {
			break
		}
	}
	s := b.String()
	if len(s) > max {
		s = s[:max] + "\n…"
	}
	return s
}

// roundWatcher passes the session record through to w and calls onRound
// when a transition event starts a new round. The recorder writes one
// whole event per Write.
type roundWatcher struct {
	w       io.Writer
	onRound func(round int)
	last    int
}

func (rw *roundWatcher) Write(p []byte) (int, error) {
	n, err := rw.w.Write(p)
	var ev struct {
		Kind string `json:"kind"`
		Data struct {
			Round int `json:"round"`
		} `json:"data"`
	}
	if json.Unmarshal(bytes.TrimSpace(p), &ev) == nil && ev.Kind == "transition" && ev.Data.Round > rw.last {
		rw.last = ev.Data.Round
		rw.onRound(ev.Data.Round)
	}
	return n, err
}
