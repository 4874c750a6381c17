package patch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Apply extracts every edit from a model reply (diffs, SEARCH/REPLACE,
// whole-file blocks), repairs, locates, validates, and applies all-or-nothing
// to the work tree of repo (not staged). Refusals are in Result.Errors with
// Applied=false; err is only for unexpected I/O failures.
func Apply(repo, reply string, pol Policy, opts Options) (*Result, error) {
	res := &Result{Files: []string{}, Repairs: []string{}, Errors: []Problem{}}
	root, err := filepath.Abs(repo)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, fmt.Errorf("patch: repository %s: %w", repo, err)
	}
	edits, repairs, probs := extract(reply)
	res.Repairs = append(res.Repairs, repairs...)
	res.Errors = append(res.Errors, probs...)
	if len(edits) == 0 && len(probs) == 0 {
		res.Errors = append(res.Errors, Problem{Message: noEditMessage(reply)})
		return res, nil
	}
	w := &workTree{root: root, pol: pol, only: opts.Only, files: map[string]*fileState{}}
	seen := map[string][]*edit{}
	for _, e := range edits {
		k := e.key()
		if restates(e, seen[k]) {
			res.Repairs = append(res.Repairs, fmt.Sprintf("%s: the same edit appears again at reply line %d; applied it once", e.label, e.line))
			continue
		}
		seen[k] = append(seen[k], e)
		if err := w.apply(e, res); err != nil {
			return nil, err
		}
	}
	changes := w.changes()
	switch {
	case len(changes) == 0 && len(res.Errors) == 0 && len(res.Skipped) > 0:
		res.Errors = append(res.Errors, Problem{Message: "the edit changes none of the files asked for; it changes only " + strings.Join(res.Skipped, ", ")})
	case len(changes) == 0 && len(res.Errors) == 0:
		res.Errors = append(res.Errors, Problem{Message: "the edit changes nothing: every file would stay as it is; send the change you intend"})
	}
	for _, c := range changes {
		res.Files = append(res.Files, c.path())
	}
	res.Diff = formatDiff(changes)
	res.Errors = append(res.Errors, checkLimits(changes, pol)...)
	res.Errors = append(res.Errors, checkSecrets(changes)...)
	res.Errors = append(res.Errors, checkText(changes)...)
	if len(res.Errors) > 0 {
		return res, nil
	}
	if !opts.Check {
		if err := write(root, changes); err != nil {
			return nil, err
		}
	}
	res.Applied = true
	return res, nil
}

func noEditMessage(reply string) string {
	for _, r := range reply {
		if r != ' ' && r != '\n' && r != '\t' && r != '\r' {
			return "the reply contains no edit; answer with a unified diff in a ```diff block, or SEARCH/REPLACE blocks with the file path on the line before <<<<<<< SEARCH"
		}
	}
	return "the reply is empty; answer with a unified diff in a ```diff block"
}

// fileState is one path of the work tree as the edits so far leave it.
type fileState struct {
	path     string
	existed  bool
	orig     text
	origMode int
	perm     fs.FileMode
	cur      *text // nil: absent
	mode     int
	from     string // renamed from this path
	bad      bool   // refused: later edits of it are skipped
}

// moved maps the file's lines as the reply found it to where earlier edits
// left them (see movedLines).
func (st *fileState) moved() []int {
	if !st.existed || st.cur == nil {
		return nil
	}
	return movedLines(st.orig, *st.cur)
}

// workTree holds the files the edits touch, in memory, in the order first
// touched.
type workTree struct {
	root  string
	pol   Policy
	only  func(string) bool
	files map[string]*fileState
	order []string
}

// state loads rel from disk the first time it is needed.
func (w *workTree) state(rel string) (*fileState, error) {
	if st, ok := w.files[rel]; ok {
		return st, nil
	}
	st := &fileState{path: rel}
	full := filepath.Join(w.root, filepath.FromSlash(rel))
	fi, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) || isNotDir(err):
	case err != nil:
		return nil, fmt.Errorf("patch: %s: %w", rel, err)
	case !fi.Mode().IsRegular():
		st.bad = true // reported by the caller
		st.existed = true
	default:
		b, err := os.ReadFile(full)
		if err != nil {
			return nil, fmt.Errorf("patch: read %s: %w", rel, err)
		}
		t := parseText(b)
		st.existed, st.orig, st.cur, st.perm = true, t, &t, fi.Mode().Perm()
		st.origMode = modeRegular
		if fi.Mode()&0o111 != 0 {
			st.origMode = modeExec
		}
		st.mode = st.origMode
	}
	w.files[rel] = st
	w.order = append(w.order, rel)
	return st, nil
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// changes lists what differs from disk, renames as one change.
func (w *workTree) changes() []*change {
	var out []*change
	renamed := map[string]bool{}
	for _, rel := range w.order {
		if st := w.files[rel]; st.from != "" && st.cur != nil {
			renamed[st.from] = true
		}
	}
	for _, rel := range w.order {
		st := w.files[rel]
		if st.bad || renamed[rel] && st.cur == nil {
			continue
		}
		c := &change{oldPath: rel, newPath: rel, oldMode: st.origMode, newMode: st.mode, new: st.cur}
		if st.existed {
			c.old = &st.orig
		}
		if st.from != "" && st.cur != nil {
			from := w.files[st.from]
			c.oldPath, c.old, c.oldMode = from.path, &from.orig, from.origMode
		}
		if c.old == nil && c.new == nil {
			continue
		}
		if c.old != nil && c.new != nil && c.oldPath == c.newPath && c.oldMode == c.newMode &&
			string(c.old.bytes()) == string(c.new.bytes()) {
			continue
		}
		out = append(out, c)
	}
	return out
}
