package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/verify"
)

// Packed is a session event: what context the model was given.
type Packed struct {
	Budget     int            `json:"budget"`
	Query      string         `json:"query"`
	Files      []repoctx.File `json:"files"`
	TokensUsed int            `json:"tokens_used"`
	RepoFiles  int            `json:"repo_files"`
	TookMS     int64          `json:"took_ms"`
}

// pack builds the repository context for the task and starts the
// conversation with the stable prefix.
func (r *run) pack(ctx context.Context) error {
	if err := r.enter(StateContext, ""); err != nil {
		return err
	}
	accepted := checkedWith
	if r.job.Reproduce {
		accepted = reproducedWith
	}
	r.task = taskText(r.job.Task, r.before) + fmt.Sprintf(accepted, strings.Join(r.cfg.Verify.Commands, "\n"))
	query := taskQuery(r.job.Task, r.before)
	budget := ContextBudget(r.window())
	start := time.Now()
	ix, err := repoctx.Open(ctx, r.repo.Root)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	ranked, err := ix.Rank(ctx, query)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	p, err := ranked.Pack(ctx, repoctx.Options{Budget: budget})
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	p.TookMS = time.Since(start).Milliseconds()
	r.index, r.ranked = ix, ranked
	r.shown = map[string][]repoctx.Chunk{}
	for _, f := range p.Files {
		r.shown[f.Path] = f.Chunks
	}
	r.conv = prefix(r.job.Instructions, p.Text(), r.task)
	r.fixed = len(r.conv)
	for _, f := range r.job.Instructions {
		shown := "all shown"
		if f.Cut {
			shown = fmt.Sprintf("the first %d shown", instructions.MaxBytes)
		}
		r.logf("instructions: %s at %s (%d bytes, %s)", f.Path, f.Ref, f.Size, shown)
	}
	r.logf("context: %d files, %d tokens of %d", len(p.Files), p.TokensUsed, budget)
	return r.record("context", Packed{Budget: budget, Query: query, Files: p.Files, TokensUsed: p.TokensUsed, RepoFiles: p.RepoFiles, TookMS: p.TookMS})
}

// ContextBudget is the share of a model's context window (in tokens) that
// the context pack may take: what is left after room for the reply and the
// conversation, within bounds. A window of 0 (unknown) gets the largest
// pack. `agentfix context` uses the same rule, so that it shows what a fix
// would pack.
func ContextBudget(window int) int {
	if window <= 0 {
		return maxBudget
	}
	return max(minBudget, min(maxBudget, window-patchReplyTokens-reservedTokens))
}

// taskText is the task as the model reads it.
func taskText(t Task, before *verify.Report) string {
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "%s\n", strings.TrimSpace(t.Title))
	}
	if body := strings.TrimSpace(t.Body); body != "" {
		fmt.Fprintf(&b, "\n%s\n", body)
	}
	if before != nil && !before.Passed {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "These checks fail and must pass:\n\n%s\n", strings.TrimSpace(before.Summary(feedbackBytes)))
	}
	return b.String()
}

// taskQuery is what the context engine ranks files against: the task's
// text and the names and places of the failures.
func taskQuery(t Task, before *verify.Report) string {
	q := t.Title + "\n" + t.Body
	if before != nil {
		q += "\n" + FailuresQuery(before.Failures())
	}
	return q
}

// FailuresQuery is what the context engine ranks files against for
// failures: their names and places, and what they printed.
func FailuresQuery(fs []verify.Failure) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, f.Test, f.Package, f.File, f.Output)
	}
	return strings.Join(parts, "\n")
}
