package patch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// write puts every change on disk, each file through a temporary file and
// a rename. If any step fails, what was already written is undone.
func write(root string, changes []*change) (err error) {
	var undo []func() error
	defer func() {
		if err == nil {
			return
		}
		for i := len(undo) - 1; i >= 0; i-- {
			if uerr := undo[i](); uerr != nil {
				err = errors.Join(err, fmt.Errorf("undo: %w", uerr))
			}
		}
	}()
	for _, c := range changes {
		if c.new != nil {
			full := filepath.Join(root, filepath.FromSlash(c.newPath))
			u, err := writeFile(full, c.new.bytes(), perm(c.newMode, full))
			undo = append(undo, u...)
			if err != nil {
				return fmt.Errorf("patch: write %s: %w", c.newPath, err)
			}
		}
		if c.old != nil && (c.new == nil || c.oldPath != c.newPath) {
			full := filepath.Join(root, filepath.FromSlash(c.oldPath))
			data, mode := c.old.bytes(), perm(c.oldMode, full)
			if err := os.Remove(full); err != nil {
				return fmt.Errorf("patch: delete %s: %w", c.oldPath, err)
			}
			undo = append(undo, func() error { return os.WriteFile(full, data, mode) })
		}
	}
	return nil
}

// perm is the permission a file is written with: its current one when it
// exists and keeps its git mode, else what the git mode says.
func perm(mode int, full string) fs.FileMode {
	if fi, err := os.Lstat(full); err == nil && fi.Mode().IsRegular() {
		p := fi.Mode().Perm()
		if (p&0o111 != 0) == (mode == modeExec) {
			return p
		}
	}
	if mode == modeExec {
		return 0o755
	}
	return 0o644
}

// writeFile writes data to full atomically and returns how to undo it.
func writeFile(full string, data []byte, mode fs.FileMode) ([]func() error, error) {
	var undo []func() error
	dir := filepath.Dir(full)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		top := dir
		for {
			parent := filepath.Dir(top)
			if _, err := os.Stat(parent); err == nil || parent == top {
				break
			}
			top = parent
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		undo = append(undo, func() error { return os.RemoveAll(top) })
	}
	old, readErr := os.ReadFile(full)
	oldPerm := mode
	if fi, err := os.Lstat(full); err == nil {
		oldPerm = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, ".agentfix-*")
	if err != nil {
		return undo, err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), mode)); err != nil {
		os.Remove(tmp.Name())
		return undo, err
	}
	if err := os.Rename(tmp.Name(), full); err != nil {
		os.Remove(tmp.Name())
		return undo, err
	}
	if readErr == nil {
		undo = append(undo, func() error { return os.WriteFile(full, old, oldPerm) })
	} else {
		undo = append(undo, func() error { return os.Remove(full) })
	}
	return undo, nil
}
