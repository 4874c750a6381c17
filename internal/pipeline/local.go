package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/workspace"
)

// Local delivers to the local checkout, for `agentfix fix`: a verified fix
// is committed on a new branch (and the checkout switched to it), or with
// DryRun put back; the commit is the validated diff applied to the commit
// the run started from, whatever the work tree holds; the diff goes to OutDiff whatever the result, so that a
// failed run still leaves its best attempt.
type Local struct {
	// OutDiff is the file the diff is written to; "" writes none.
	OutDiff string
	DryRun  bool
	// AllowUnproven keeps an unproven change as a fix is kept (on a
	// branch, its commit saying no test proves it); otherwise it is only
	// the diff.
	AllowUnproven bool
	// Log receives one line per progress stage; nil discards.
	Log io.Writer

	// Set by Deliver.
	Branch, Commit string
	// DiffWritten is OutDiff once written.
	DiffWritten string
}

var _ Deliverer = (*Local)(nil)

// Progress is already in the loop's own log lines; Local adds nothing.
func (l *Local) Progress(Progress) {}

// Deliver writes the diff, then keeps or undoes a verified fix. The fix is
// verified by now: an interrupt no longer stops the few git commands that
// keep it.
func (l *Local) Deliver(ctx context.Context, o *Outcome) error {
	if diff := o.Diff(); l.OutDiff != "" && diff != "" {
		if err := WriteFileAtomic(l.OutDiff, []byte(diff)); err != nil {
			return fmt.Errorf("--out-diff: %w", err)
		}
		l.DiffWritten = l.OutDiff
	}
	keep := o.Result == Fixed || (o.Result == Unproven && l.AllowUnproven)
	if !keep {
		return nil
	}
	repo, cp := o.Repo, o.Checkpoint
	if o.Result == Unproven {
		if l.DryRun {
			return nil // the loop put the tree back already
		}
		if err := repo.ApplyDiff(ctx, o.Diff()); err != nil {
			return fmt.Errorf("workspace: apply the unproven change: %w", err)
		}
	}
	if l.DryRun {
		if err := repo.Restore(ctx, cp, o.Loop.Files...); err != nil {
			return fmt.Errorf("workspace: undo the fix after --dry-run: %w", err)
		}
		return nil
	}
	branch := freeBranch(ctx, repo, publish.BranchName(o.Job.Config.PR.BranchPrefix, publish.BranchLocal, workspace.Slug(o.Title())))
	// The branch holds the validated diff, not what the tests left in the
	// work tree (Loop.Drift, which the loop logged and recorded).
	sha, err := repo.CommitDiff(ctx, branch, cp.Head, o.Diff(), CommitMessage(o, CommitInfo{}), workspace.DefaultIdentity)
	if err != nil {
		return fmt.Errorf("workspace: commit on %s: %w", branch, err)
	}
	l.Branch, l.Commit = branch, sha
	return nil
}

// freeBranch is name, or name-2, name-3, ... when it is taken: a local run
// never moves a branch someone has.
func freeBranch(ctx context.Context, repo *workspace.Repo, name string) string {
	candidate := name
	for i := 2; repo.BranchExists(ctx, candidate); i++ {
		candidate = fmt.Sprintf("%s-%d", name, i)
	}
	return candidate
}

// WriteFileAtomic writes data to path through a temporary file and a
// rename, so a reader never sees half a file.
func WriteFileAtomic(path string, data []byte) error {
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
