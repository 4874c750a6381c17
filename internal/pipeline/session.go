package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/workspace"
)

// sessionFile is the run's session record. The file is created on the
// first event, so a run that records nothing leaves no empty file behind.
type sessionFile struct {
	*session.Recorder
	w *lazyFile
}

// Path is where the record is; "" when nothing was written.
func (s *sessionFile) Path() string { return s.w.written() }

// Close closes the file.
func (s *sessionFile) Close() error { return s.w.close() }

// openSession prepares the session record of job: job.Session when given
// (appended to), else a new file under SessionDir.
func openSession(ctx context.Context, job Job, repo *workspace.Repo, d Deps) (*sessionFile, error) {
	w := &lazyFile{path: job.Session, flag: os.O_CREATE | os.O_WRONLY | os.O_APPEND}
	if w.path == "" {
		dir, err := SessionDir(ctx, repo, d.Getenv)
		if err != nil {
			return nil, err
		}
		name := job.Name
		if job.Task.Title != "" {
			name += " " + job.Task.Title
		}
		name = d.Now().UTC().Format("20060102T150405Z") + "-" + workspace.Slug(name)
		w.path, w.flag, w.unique = filepath.Join(dir, name+".jsonl"), os.O_CREATE|os.O_WRONLY|os.O_EXCL, true
	}
	return &sessionFile{Recorder: session.NewRecorder(w), w: w}, nil
}

// SessionDir is where session records go unless a path is given: under
// RUNNER_TEMP inside GitHub Actions (the job's scratch space, next to the
// checkout rather than in it), else in the repository's git directory,
// where they are never committed.
func SessionDir(ctx context.Context, repo *workspace.Repo, getenv func(string) string) (string, error) {
	if getenv("GITHUB_ACTIONS") == "true" && getenv("RUNNER_TEMP") != "" {
		return filepath.Join(getenv("RUNNER_TEMP"), "agentfix", "sessions"), nil
	}
	gitDir, err := repo.GitDir(ctx)
	if err != nil {
		return "", err
	}
	return filepath.Join(gitDir, "agentfix", "sessions"), nil
}

// lazyFile opens its file on the first write. A unique file that exists
// already (two runs in the same second) gets a -2, -3, ... suffix.
type lazyFile struct {
	mu     sync.Mutex
	path   string
	flag   int
	unique bool
	f      *os.File
}

func (l *lazyFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		if err := l.open(); err != nil {
			return 0, err
		}
	}
	return l.f.Write(p)
}

func (l *lazyFile) open() error {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return fmt.Errorf("session record: %w", err)
	}
	base := l.path
	for i := 2; ; i++ {
		f, err := os.OpenFile(l.path, l.flag, 0o600)
		if err == nil {
			l.f = f
			return nil
		}
		if !l.unique || !errors.Is(err, fs.ErrExist) || i > 100 {
			return fmt.Errorf("session record: %w", err)
		}
		l.path = fmt.Sprintf("%s-%d.jsonl", base[:len(base)-len(".jsonl")], i)
	}
}

// written is the path of the file once something was written to it.
func (l *lazyFile) written() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return ""
	}
	return l.path
}

func (l *lazyFile) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}
