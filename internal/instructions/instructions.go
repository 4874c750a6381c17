// Package instructions reads a repository's own instructions for coding
// agents: AGENTS.md, then .github/agent-fix.md, both when both exist. They
// are read from the base branch only (the default branch through the
// GitHub contents API in the action, the HEAD commit of a local checkout),
// never from a pull request's head or a fork: a maintainer wrote them, so
// the model is told to follow them, and whoever can change them can steer
// it. Trusted still means bounded: each file is cut at MaxBytes.
package instructions

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// Paths are the files read, in the order they are shown: the instructions
// every agent reads first, then those for agentfix, which come later so
// that they can refine the general ones.
var Paths = []string{"AGENTS.md", ".github/agent-fix.md"}

// MaxBytes caps each file: longer instructions are cut at the last line
// that fits, and the model is told they were cut.
const MaxBytes = 4096

// File is one instruction file as the model reads it.
type File struct {
	Path string `json:"path"`
	// Ref is where it was read: a branch or a commit.
	Ref  string `json:"ref"`
	Text string `json:"text"`
	// Size is the file's size in bytes.
	Size int `json:"size"`
	// Cut says the file was longer than MaxBytes: Text is its start.
	Cut bool `json:"cut,omitempty"`
}

// Reader returns the content of path on the base branch, or an error that
// wraps fs.ErrNotExist when there is no such file.
type Reader interface {
	Read(ctx context.Context, path string) ([]byte, error)
	// Ref names what is read, for the record: "main", a commit.
	Ref() string
}

// Read reads every file of Paths that exists, each cut at MaxBytes.
func Read(ctx context.Context, r Reader) ([]File, error) {
	var files []File
	for _, p := range Paths {
		data, err := r.Read(ctx, p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s at %s: %w", p, r.Ref(), err)
		}
		text := strings.TrimSpace(cut(string(data), MaxBytes))
		if text == "" {
			continue
		}
		files = append(files, File{Path: p, Ref: r.Ref(), Text: text, Size: len(data), Cut: len(data) > MaxBytes})
	}
	return files, nil
}

// cut is s when it fits in n bytes, else its longest prefix of whole lines
// that does (of whole runes when the first line is too long).
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i+1]
	}
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// Text is the files as one prompt section: each under a heading naming it.
func Text(files []File) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "## %s\n\n%s\n", f.Path, f.Text)
		if f.Cut {
			fmt.Fprintf(&b, "\n(%s is %d bytes; only its first %d are shown.)\n", f.Path, f.Size, MaxBytes)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Source gives the instructions of a job: read from the base branch, or
// those a session recorded.
type Source func(ctx context.Context) ([]File, error)

// AtCommit reads the instructions of rev (resolved to its commit first) in
// the repository at dir.
func AtCommit(dir, rev string) Source {
	return func(ctx context.Context) ([]File, error) {
		c := &Commit{Dir: dir, Rev: rev}
		if err := c.Resolve(ctx); err != nil {
			return nil, err
		}
		return Read(ctx, c)
	}
}

// Recorded gives files as they were recorded, for a replay.
func Recorded(files []File) Source {
	return func(context.Context) ([]File, error) { return files, nil }
}
