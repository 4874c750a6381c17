package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/workspace"
)

// fixOptions are the flags of agentfix fix.
type fixOptions struct {
	cf        configFlags
	task      string
	issueFile string
	failing   bool
	outDiff   string
	session   string
	dryRun    bool
	json      bool
}

// localBranchPrefix starts the branch a local fix is committed on.
const localBranchPrefix = "agent-fix/local-"

func runFix(ctx context.Context, e *Env, args []string) error {
	opts, err := parseFixFlags(e, args)
	if err != nil {
		return done(err)
	}
	return fix(ctx, e, opts)
}

func parseFixFlags(e *Env, args []string) (*fixOptions, error) {
	opts := &fixOptions{}
	fs := newFlagSet(e, "fix", "--repo DIR (--task TEXT | --issue-file F | --failing) [flags]", `
Plan, patch and verify a fix with the Ollama model, on a local checkout.

On success (exit 0) the fix is committed on a new branch agent-fix/local-<slug>
(with --dry-run the tree is left untouched and only the diff is written).
When no fix passes the checks (exit 1) the tree is back where it started and
the best attempt and the reason are reported. Exit 2: usage or configuration
error, including an unreachable Ollama server or a model it does not have.`)
	opts.cf.register(fs, true)
	fs.StringVar(&opts.task, "task", "", "what to fix, as `TEXT`")
	fs.StringVar(&opts.issueFile, "issue-file", "", "Markdown `FILE` with the task: first heading is the title, the rest the body")
	fs.BoolVar(&opts.failing, "failing", false, "run the verify commands first; their failures are the task (nothing to do if they pass)")
	fs.StringVar(&opts.outDiff, "out-diff", "", "write the final unified diff to `FILE`")
	fs.StringVar(&opts.session, "session", "", "write the session record to `FILE` (default under .git/agentfix/sessions, or RUNNER_TEMP in Actions)")
	fs.BoolVar(&opts.dryRun, "dry-run", false, "leave the work tree untouched; only report and write the diff")
	fs.BoolVar(&opts.json, "json", false, "print the result as JSON")
	if err := parseFlags(e, fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, exitcode.Usagef("fix: unexpected argument %q", fs.Arg(0))
	}
	n := 0
	for _, set := range []bool{opts.task != "", opts.issueFile != "", opts.failing} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, exitcode.Usagef("fix: give exactly one of --task, --issue-file or --failing")
	}
	return opts, nil
}

// fixReport is what --json prints: the loop's result and what the command
// did with it.
type fixReport struct {
	*agent.Result
	Branch  string `json:"branch,omitempty"`
	Commit  string `json:"commit,omitempty"`
	OutDiff string `json:"out_diff,omitempty"`
	Session string `json:"session,omitempty"`
	DryRun  bool   `json:"dry_run,omitempty"`
}

func fix(ctx context.Context, e *Env, opts *fixOptions) error {
	repo, err := workspace.Open(ctx, opts.cf.repo)
	if err != nil {
		return exitcode.UsageError(fmt.Errorf("--repo: %w", err))
	}
	// --repo may name a directory inside the work tree; the config file and
	// the detected verify command are the root's.
	opts.cf.repo = repo.Root
	cfg, _, err := opts.cf.load(e, true)
	if err != nil {
		return err
	}
	cp, err := repo.Checkpoint(ctx)
	if err != nil {
		return exitcode.UsageError(err)
	}
	task, err := readTask(opts)
	if err != nil {
		return err
	}
	model, err := llm.New(cfg.Ollama.Host, llm.Options{Timeout: cfg.Ollama.Timeout.D(), Log: e.Stderr, Seed: agent.Seed})
	if err != nil {
		return err
	}
	sessionPath, sessionFile, err := openSession(ctx, e, repo, opts.session, task)
	if err != nil {
		return exitcode.UsageError(err)
	}
	defer sessionFile.Close()

	res, err := agent.Run(ctx, agent.Job{
		Repo: repo.Root, Config: cfg, Task: task, Model: model,
		Session: sessionFile, Log: e.Stderr, Environ: os.Environ(), Version: Version,
	})
	if err != nil {
		return runError(err)
	}
	rep := &fixReport{Result: res, Session: sessionPath, DryRun: opts.dryRun}
	if res.Result == agent.Fixed {
		if err := keepFix(ctx, repo, cp, cfg, opts, task, res, rep); err != nil {
			return err
		}
	}
	if opts.json {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printFix(e.Stdout, rep)
	}
	if res.Result == agent.NotFixed {
		return exitcode.Silent(exitcode.NotSucceeded)
	}
	return nil
}

// keepFix writes the diff where asked and commits the fix on a new local
// branch, or with --dry-run puts the tree back. The fix is verified by now:
// an interrupt no longer stops the few git commands that keep it.
func keepFix(ctx context.Context, repo *workspace.Repo, cp *workspace.Checkpoint, cfg *config.Config, opts *fixOptions, task agent.Task, res *agent.Result, rep *fixReport) error {
	ctx = context.WithoutCancel(ctx)
	if opts.outDiff != "" {
		if err := writeFileAtomic(opts.outDiff, []byte(res.Diff)); err != nil {
			return fmt.Errorf("--out-diff: %w", err)
		}
		rep.OutDiff = opts.outDiff
	}
	if opts.dryRun {
		if err := repo.Restore(ctx, cp, res.Files...); err != nil {
			return fmt.Errorf("workspace: undo the fix after --dry-run: %w", err)
		}
		return nil
	}
	branch := freeBranch(ctx, repo, localBranchPrefix+workspace.Slug(taskName(task, res)))
	if err := repo.CreateBranch(ctx, branch); err != nil {
		return fmt.Errorf("workspace: create branch %s: %w", branch, err)
	}
	sha, err := repo.Commit(ctx, workspace.DefaultIdentity, localCommitMessage(task, res, cfg), res.Files)
	if err != nil {
		return fmt.Errorf("workspace: commit on %s: %w", branch, err)
	}
	rep.Branch, rep.Commit = branch, sha
	return nil
}

// freeBranch is name, or name-2, name-3, ... when it is taken.
func freeBranch(ctx context.Context, repo *workspace.Repo, name string) string {
	candidate := name
	for i := 2; repo.BranchExists(ctx, candidate); i++ {
		candidate = fmt.Sprintf("%s-%d", name, i)
	}
	return candidate
}

// taskName is what the branch and the commit are named after.
func taskName(task agent.Task, res *agent.Result) string {
	if task.Title != "" {
		return task.Title
	}
	if res.Before != nil {
		for _, f := range res.Before.Failures() {
			if f.Test != "" {
				return "fix " + f.Test
			}
		}
	}
	return "fix failing checks"
}

func localCommitMessage(task agent.Task, res *agent.Result, cfg *config.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agentfix: %s\n\n", firstLine(taskName(task, res), 68))
	if res.Plan != nil {
		for _, s := range res.Plan.Steps {
			fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(s))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Verified with: %s\nModel: %s\n", strings.Join(cfg.Verify.Commands, "; "), res.Model)
	return b.String()
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > n {
		s = strings.TrimSpace(s[:n])
	}
	return s
}

// readTask builds the task from --task, --issue-file or --failing.
func readTask(opts *fixOptions) (agent.Task, error) {
	switch {
	case opts.task != "":
		return agent.Task{Title: opts.task}, nil
	case opts.issueFile != "":
		data, err := os.ReadFile(opts.issueFile)
		if err != nil {
			return agent.Task{}, exitcode.Usagef("--issue-file: %v", err)
		}
		t := parseIssue(string(data))
		if t.Title == "" && t.Body == "" {
			return agent.Task{}, exitcode.Usagef("--issue-file %s is empty", opts.issueFile)
		}
		return t, nil
	}
	return agent.Task{}, nil // --failing: the failing checks are the task
}

// parseIssue reads a Markdown issue: the first heading is the title, the
// rest the body; without a heading the first line is the title.
func parseIssue(md string) agent.Task {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") {
			t = strings.TrimSpace(strings.TrimLeft(t, "#"))
		}
		return agent.Task{Title: t, Body: strings.TrimSpace(strings.Join(lines[i+1:], "\n"))}
	}
	return agent.Task{}
}

// openSession creates the session record file, append-only.
func openSession(ctx context.Context, e *Env, repo *workspace.Repo, path string, task agent.Task) (string, *os.File, error) {
	if path == "" {
		dir := ""
		if e.Getenv("GITHUB_ACTIONS") == "true" && e.Getenv("RUNNER_TEMP") != "" {
			dir = filepath.Join(e.Getenv("RUNNER_TEMP"), "agentfix", "sessions")
		} else {
			gitDir, err := repo.GitDir(ctx)
			if err != nil {
				return "", nil, err
			}
			dir = filepath.Join(gitDir, "agentfix", "sessions")
		}
		name := task.Title
		if name == "" {
			name = "failing"
		}
		path = filepath.Join(dir, time.Now().UTC().Format("20060102T150405Z")+"-"+workspace.Slug(name)+".jsonl")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", nil, fmt.Errorf("--session: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return "", nil, fmt.Errorf("--session: %w", err)
	}
	return path, f, nil
}

// runError maps the errors agent.Run returns to exit codes: a tree or a
// server the user has to fix first is a usage error.
func runError(err error) error {
	var dirty *workspace.DirtyError
	var notRepo *workspace.NotARepoError
	var head *agent.HeadMismatchError
	if errors.As(err, &dirty) || errors.As(err, &notRepo) || errors.As(err, &head) {
		return exitcode.UsageError(err)
	}
	return err
}

func printFix(w io.Writer, rep *fixReport) {
	r := rep.Result
	switch r.Result {
	case agent.NothingToDo:
		fmt.Fprintln(w, "nothing to do: the verify commands pass")
	case agent.Fixed:
		fmt.Fprintf(w, "fixed in %d round(s): %s\n", r.Rounds, r.StopDetail)
		fmt.Fprintf(w, "files: %s\n", strings.Join(r.Files, ", "))
		switch {
		case rep.Branch != "":
			fmt.Fprintf(w, "committed on branch %s (%s)\n", rep.Branch, shortSHA(rep.Commit))
		case rep.DryRun && rep.OutDiff == "":
			fmt.Fprintf(w, "dry run: the work tree is unchanged; the fix:\n%s", r.Diff)
		case rep.DryRun:
			fmt.Fprintln(w, "dry run: the work tree is unchanged")
		}
		if rep.OutDiff != "" {
			fmt.Fprintf(w, "diff written to %s\n", rep.OutDiff)
		}
	default:
		fmt.Fprintf(w, "not fixed after %d round(s): %s: %s\n", r.Rounds, r.StopReason, r.StopDetail)
		fmt.Fprintf(w, "the work tree is back at %s\n", shortSHA(r.Head))
		if r.Diff != "" {
			fmt.Fprintf(w, "best attempt:\n%s", r.Diff)
		}
	}
	fmt.Fprintf(w, "time: model %dms, verify %dms, agentfix %dms, total %dms; tokens: %d prompt, %d completion\n",
		r.Timings.ModelMS, r.Timings.VerifyMS, r.Timings.OverheadMS(), r.Timings.TotalMS, r.Tokens.Prompt, r.Tokens.Completion)
	if rep.Session != "" {
		fmt.Fprintf(w, "session record: %s\n", rep.Session)
	}
}

func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// writeFileAtomic writes data to path through a temporary file and a
// rename, so a reader never sees half a file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".agentfix-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
