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
		id = "local"
	}
	// One file per loop, even when two steps of a job run agentfix.
	path := filepath.Join(dir, fmt.Sprintf("agentfix-session-%s-%s-%d.jsonl", id, a.job.Kind, time.Now().UnixNano()))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
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
		cmd := report.Command{Command: shownCommand(cr.Argv), Passed: cr.Passed, Duration: time.Duration(cr.DurationMS) * time.Millisecond, TimedOut: cr.TimedOut}
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

// sessionExcerpt is the session record told one event per line, for the
// collapsed section of the PR body; the full record stays in RUNNER_TEMP.
func sessionExcerpt(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for n := 0; sc.Scan() && n < 200 && b.Len() < 20000; n++ {
		b.WriteString(describeEvent(sc.Bytes()) + "\n")
	}
	return b.String()
}

// describeEvent is one session event as a short line.
func describeEvent(line []byte) string {
	var ev struct {
		Seq  int            `json:"seq"`
		Kind string         `json:"kind"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(line, &ev); err != nil {
		s := string(line)
		if len(s) > 200 {
			s = s[:200] + " …"
		}
		return s
	}
	d := ev.Data
	str := func(k string) string { v, _ := d[k].(string); return v }
	num := func(k string) int { v, _ := d[k].(float64); return int(v) }
	var s string
	switch ev.Kind {
	case "transition":
		s = fmt.Sprintf("%s → %s", str("from"), str("to"))
		if r := num("round"); r > 0 {
			s += fmt.Sprintf(" (round %d)", r)
		}
		if why := str("reason"); why != "" {
			s += ": " + why
		}
	case "chat":
		s = fmt.Sprintf("%s request, round %d attempt %d: %d prompt + %d reply tokens in %dms", str("purpose"), num("round"), num("attempt"), num("prompt_tokens"), num("completion_tokens"), num("duration_ms"))
		if e := str("error"); e != "" {
			s += ", error: " + e
		}
	case "check":
		passed := "failed"
		if rep, _ := d["report"].(map[string]any); rep != nil && rep["passed"] == true {
			passed = "passed"
		}
		s = fmt.Sprintf("%s check %v: %s in %dms", str("stage"), d["commands"], passed, num("duration_ms"))
	case "patch":
		s = fmt.Sprintf("patch round %d attempt %d (%s): applied %v", num("round"), num("attempt"), str("form"), d["applied"])
	case "result":
		s = fmt.Sprintf("result %s after %d round(s): %s", str("result"), num("rounds"), str("stop_detail"))
	default:
		s = ev.Kind
	}
	if len(s) > 300 {
		s = s[:300] + " …"
	}
	return fmt.Sprintf("%3d %s", ev.Seq, s)
}

// shownCommand is the command as the user configured it: without the
// -json agentfix adds to go test.
func shownCommand(argv []string) string {
	if len(argv) > 2 && argv[0] == "go" && argv[1] == "test" {
		out := []string{"go", "test"}
		for _, a := range argv[2:] {
			if a != "-json" {
				out = append(out, a)
			}
		}
		argv = out
	}
	return strings.Join(argv, " ")
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
