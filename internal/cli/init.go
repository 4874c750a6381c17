package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/patch"
)

// WorkflowPath is where init writes the workflow, relative to the
// repository root.
const WorkflowPath = ".github/workflows/agent-fix.yml"

type initOptions struct {
	repo   string
	force  bool
	dryRun bool
}

func runInit(ctx context.Context, e *Env, args []string) error {
	var opts initOptions
	fs := newFlagSet(e, "init", "[--repo DIR] [--force] [--dry-run]", `
Set agentfix up in a repository: write `+WorkflowPath+` (the
triggers, minimal permissions, one run at a time per issue or PR,
persist-credentials: false, the action pinned by release tag and commit SHA,
the toolchain setup for the detected language, runner labels
[self-hosted, ollama]) and a commented `+config.DefaultPath+` with the
detected test command. A file that exists and differs is never overwritten
without --force: its diff is shown instead. --dry-run prints the files and
writes nothing. Then commit both files.`)
	fs.StringVar(&opts.repo, "repo", ".", "repository `DIR` (its root or any directory inside it)")
	fs.BoolVar(&opts.force, "force", false, "overwrite files that exist and differ")
	fs.BoolVar(&opts.dryRun, "dry-run", false, "print the files instead of writing them")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	if fs.NArg() > 0 {
		return exitcode.Usagef("init: unexpected argument %q", fs.Arg(0))
	}
	return opts.run(e)
}

// initFile is one file init writes.
type initFile struct {
	rel  string // relative to the repository root, slash-separated
	data []byte
}

func (o *initOptions) run(e *Env) error {
	repo, err := repoRoot(o.repo)
	if err != nil {
		return err
	}
	cfg := config.Default()
	cmd, marker := config.DetectVerify(repo)
	allow := ""
	if cmd == "" {
		if below := config.DetectBelow(repo); len(below) == 1 && below[0].Marker == "go.mod" {
			// The one Go module, in a directory: tested from the root.
			cmd, marker, allow = below[0].FromRoot, below[0].Dir+"/go.mod", below[0].Allow
		}
	}
	files := []initFile{
		{WorkflowPath, []byte(workflowFile(cfg, marker, Version, Commit))},
		{config.DefaultPath, []byte(configFile(cfg, cmd, marker, allow))},
	}
	switch {
	case cmd == "":
		fmt.Fprintf(e.Stderr, "agentfix init: %s\n", config.NoVerifyHint(repo, config.DefaultPath))
	case allow != "":
		fmt.Fprintf(e.Stderr, "agentfix init: test command %q (detected from %s), allowed with verify.allow: [%q]\n", cmd, marker, allow)
	default:
		fmt.Fprintf(e.Stderr, "agentfix init: test command %q (detected from %s)\n", cmd, marker)
	}
	if _, note := actionRef(Version, Commit); note != "" {
		fmt.Fprintf(e.Stderr, "agentfix init: %s\n", note)
	}
	var conflicts []string
	for _, f := range files {
		full := filepath.Join(repo, filepath.FromSlash(f.rel))
		old, err := os.ReadFile(full)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			old = nil
		case err != nil:
			return exitcode.Failed(fmt.Errorf("init: read %s: %w", f.rel, err))
		case bytes.Equal(old, f.data):
			fmt.Fprintf(e.Stderr, "agentfix init: %s is up to date\n", f.rel)
			continue
		}
		if o.dryRun {
			if old == nil {
				fmt.Fprintf(e.Stdout, "# %s (would be created)\n%s", f.rel, f.data)
			} else {
				fmt.Fprintf(e.Stdout, "# %s (would change)\n%s", f.rel, patch.Unified(f.rel, old, f.data))
			}
			continue
		}
		if old != nil && !o.force {
			fmt.Fprint(e.Stdout, patch.Unified(f.rel, old, f.data))
			conflicts = append(conflicts, f.rel)
			continue
		}
		if err := writeAtomic(full, f.data); err != nil {
			return exitcode.Failed(fmt.Errorf("init: write %s: %w", f.rel, err))
		}
		verb := "wrote"
		if old != nil {
			verb = "overwrote"
		}
		fmt.Fprintf(e.Stderr, "agentfix init: %s %s\n", verb, f.rel)
	}
	if len(conflicts) > 0 {
		return exitcode.Failed(fmt.Errorf("init: %v already exist and differ (the diff above is what init would change); nothing was overwritten: merge the changes by hand, or run agentfix init --force to replace them", conflicts))
	}
	if !o.dryRun {
		fmt.Fprintf(e.Stderr, "agentfix init: next, commit them (git add %s %s && git commit -m \"agentfix\"), and run agentfix doctor on the runner\n", WorkflowPath, config.DefaultPath)
	}
	return nil
}

// writeAtomic writes data to path through a temporary file and a rename, so
// an interrupted init never leaves half a workflow.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".agentfix-init-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
