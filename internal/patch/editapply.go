package patch

import (
	"fmt"
	"strings"
	"unicode"
)

// maxWholeLines is the longest existing file a whole-file block may replace;
// longer files must be changed with a diff or SEARCH/REPLACE blocks.
const maxWholeLines = 400

// apply carries out one edit on the in-memory work tree, adding what went
// wrong or was repaired to res.
func (w *workTree) apply(e *edit, res *Result) error {
	var oldP, newP string
	if e.oldPath != "" {
		oldP = resolveName(w.root, e.oldPath, e.kind == editDiff && !e.unprefixed)
	}
	if e.newPath != "" {
		newP = resolveName(w.root, e.newPath, e.kind == editDiff && !e.unprefixed)
	}
	if !e.isNew && oldP == newP && oldP != "" && checkName(oldP, w.pol) == nil && !exists(w.root, oldP) && needsOld(e) {
		if p, note := w.relocate(oldP); p != "" {
			res.Repairs = append(res.Repairs, note)
			oldP, newP = p, p
		}
	}
	name := newP
	if name == "" {
		name = oldP
	}
	fail := func(msg string) error {
		res.Errors = append(res.Errors, Problem{File: name, Message: msg})
		return nil
	}
	if name == "" {
		return fail(fmt.Sprintf("the edit at reply line %d names no file; give the path relative to the repository root", e.line))
	}
	if w.only != nil && !w.only(name) {
		res.Skipped = append(res.Skipped, name)
		return nil
	}
	if oldP != "" && newP != "" && oldP != newP && !e.isRename {
		switch {
		case exists(w.root, oldP) && !exists(w.root, newP):
			res.Repairs = append(res.Repairs, fmt.Sprintf("%s: the +++ line named %s; used %s, the file that exists", oldP, newP, oldP))
			newP, name = oldP, oldP
		case exists(w.root, newP) && !exists(w.root, oldP):
			res.Repairs = append(res.Repairs, fmt.Sprintf("%s: the --- line named %s; used %s, the file that exists", newP, oldP, newP))
			oldP = newP
		default:
			return fail(fmt.Sprintf("the --- line names %s and the +++ line names %s; to rename a file use a git diff with rename from / rename to lines", oldP, newP))
		}
	}
	for _, p := range []string{oldP, newP} {
		if p == "" {
			continue
		}
		if err := checkPath(w.root, p, w.pol); err != nil {
			res.Errors = append(res.Errors, Problem{File: p, Message: err.Error()})
			return nil
		}
	}
	if m := modeProblem(e); m != "" {
		return fail(m)
	}
	switch {
	case e.isRename && oldP != newP:
		return w.rename(e, oldP, newP, res, fail)
	case e.isDelete:
		return w.delete(e, oldP, res, fail)
	case e.kind == editWhole:
		return w.whole(e, newP, fail)
	}
	st, err := w.state(newP)
	if err != nil {
		return err
	}
	if st.bad {
		return fail("is not a regular file; only regular files can be changed")
	}
	if e.isNew || st.cur == nil {
		if st.cur != nil {
			if e.kind == editSearchReplace {
				return fail(e.label + ": the SEARCH section is empty but the file exists; copy the lines to replace into the SEARCH section")
			}
			return fail("the diff creates this file but it already exists; send a diff against its current content")
		}
		if needsOld(e) {
			msg := "does not exist in the repository; check the path (relative to the repository root), or create the file with --- /dev/null"
			if _, same := findBySuffix(w.root, newP); len(same) > 0 {
				msg += fmt.Sprintf("; files with that name: %s", strings.Join(same[:min(len(same), 3)], ", "))
			}
			return fail(msg)
		}
		if !e.isNew {
			res.Repairs = append(res.Repairs, fmt.Sprintf("%s: does not exist and the diff only adds lines; created it", newP))
		}
		t, reps, probs := applyHunks(text{finalNL: true}, nil, e, newP)
		res.Repairs, res.Errors = append(res.Repairs, reps...), append(res.Errors, probs...)
		st.cur, st.mode, st.perm = &t, modeRegular, 0o644
		return nil
	}
	t, reps, probs := applyHunks(*st.cur, st.moved(), e, newP)
	res.Repairs, res.Errors = append(res.Repairs, reps...), append(res.Errors, probs...)
	if len(probs) == 0 {
		st.cur = &t
		if e.newMode != 0 && e.oldMode != 0 {
			st.mode = e.newMode
		}
	}
	return nil
}

// needsOld reports whether an edit has lines to find in an existing file.
func needsOld(e *edit) bool {
	if e.kind == editWhole {
		return false
	}
	for k := range e.hunks {
		if len(e.hunks[k].oldSide()) > 0 {
			return true
		}
	}
	return false
}

// relocate finds the one file a missing path most likely meant: the only
// file whose path ends with it. The edit's lines must still match there.
func (w *workTree) relocate(rel string) (string, string) {
	if _, ok := w.files[rel]; ok {
		return "", "" // already created or touched by an earlier edit
	}
	suffix, _ := findBySuffix(w.root, rel)
	if len(suffix) != 1 {
		return "", ""
	}
	return suffix[0], fmt.Sprintf("%s: no such file; used %s, the only file whose path ends with it", rel, suffix[0])
}

// modeProblem refuses symlinks and executables.
func modeProblem(e *edit) string {
	switch {
	case e.oldMode == modeSymlink || e.newMode == modeSymlink:
		return "symbolic links cannot be created or changed by a patch"
	case e.newMode != 0 && e.newMode&0o111 != 0 && (e.isNew || e.oldMode != e.newMode):
		return fmt.Sprintf("making a file executable (mode %06o) is not allowed; leave the mode as it is", e.newMode)
	case e.newMode != 0 && e.newMode != modeRegular && e.newMode != modeExec:
		return fmt.Sprintf("mode %06o is not a regular file mode", e.newMode)
	}
	return ""
}

func (w *workTree) rename(e *edit, oldP, newP string, res *Result, fail func(string) error) error {
	if !w.pol.AllowRename {
		return fail(fmt.Sprintf("renaming %s is not allowed (paths.allow_rename is false); change the file in place", oldP))
	}
	src, err := w.state(oldP)
	if err != nil {
		return err
	}
	dst, err := w.state(newP)
	if err != nil {
		return err
	}
	switch {
	case src.bad || src.cur == nil:
		return fail(fmt.Sprintf("cannot rename %s: it does not exist or is not a regular file", oldP))
	case dst.bad || dst.cur != nil:
		return fail(fmt.Sprintf("cannot rename %s to %s: %s already exists", oldP, newP, newP))
	}
	t, reps, probs := applyHunks(*src.cur, src.moved(), e, oldP)
	res.Repairs, res.Errors = append(res.Repairs, reps...), append(res.Errors, probs...)
	if len(probs) > 0 {
		return nil
	}
	dst.cur, dst.mode, dst.perm, dst.from = &t, src.mode, src.perm, oldP
	src.cur = nil
	return nil
}

func (w *workTree) delete(e *edit, oldP string, res *Result, fail func(string) error) error {
	if !w.pol.AllowDelete {
		return fail("deleting files is not allowed (paths.allow_delete is false); change the file instead")
	}
	st, err := w.state(oldP)
	if err != nil {
		return err
	}
	if st.bad || st.cur == nil {
		return fail("cannot be deleted: it does not exist or is not a regular file")
	}
	if len(e.hunks) > 0 {
		t, _, probs := applyHunks(*st.cur, st.moved(), e, oldP)
		res.Errors = append(res.Errors, probs...)
		if len(probs) > 0 {
			return nil
		}
		if len(t.lines) > 0 {
			return fail("the deletion's removed lines are not the whole file; to delete it, remove every line")
		}
	}
	st.cur = nil
	return nil
}

// whole replaces or creates a file from a whole-file block. An existing file
// must be small, and the block must look like all of it, not a fragment.
func (w *workTree) whole(e *edit, p string, fail func(string) error) error {
	st, err := w.state(p)
	if err != nil {
		return err
	}
	if st.bad {
		return fail("is not a regular file; only regular files can be changed")
	}
	nt := parseText([]byte(e.content))
	if e.ambiguous {
		return fail("the file's block contains ``` fences of its own and more follow it, so where it ends is a guess; wrap the file in ~~~ or ```` (four backticks), or send a diff")
	}
	if st.cur == nil {
		st.cur, st.mode, st.perm = &nt, modeRegular, 0o644
		return nil
	}
	old := *st.cur
	if n := len(old.lines); n > maxWholeLines {
		return fail(fmt.Sprintf("a whole-file block can only replace files of up to %d lines and this one has %d; send a diff or SEARCH/REPLACE blocks instead", maxWholeLines, n))
	}
	if !looksWhole(old, nt) {
		return fail(fmt.Sprintf("the block under the path looks like a fragment (%d lines for a file of %d), not the complete file; send a diff or SEARCH/REPLACE blocks instead", len(nt.lines), len(old.lines)))
	}
	crlf := old.crlf()
	for i, l := range nt.lines {
		nt.lines[i] = withEOL(l, crlf)
	}
	nt.finalNL = old.finalNL
	st.cur = &nt
	return nil
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// looksWhole guesses whether nt is a full new version of old rather than a
// fragment of it: it is at least half as long, at least half of old's
// non-blank lines are still in it, and it still ends the way old does (one
// of old's last three telling lines is among its last ten, plus as many as
// it grew by: a rewrite often adds its new code at the end), so that a
// block cut short by a fence inside the file is not taken for the file.
func looksWhole(old, nt text) bool {
	if len(nt.lines)*2 < len(old.lines) || !sameTail(old, nt, max(0, len(nt.lines)-len(old.lines))) {
		return false
	}
	have := map[string]bool{}
	for _, l := range nt.lines {
		have[strings.TrimSpace(l)] = true
	}
	kept, total := 0, 0
	for _, l := range old.lines {
		if t := strings.TrimSpace(l); t != "" {
			total++
			if have[t] {
				kept++
			}
		}
	}
	return kept*2 >= total
}

// sameTail reports whether one of old's last three telling lines is among
// nt's last 10+grown. Telling lines have four characters or more, one of
// them a letter or digit: "}" and "```" end too many files to tell
// anything.
func sameTail(old, nt text, grown int) bool {
	tail := func(t text, n int) []string {
		var out []string
		for i := len(t.lines) - 1; i >= 0 && len(out) < n; i-- {
			if s := strings.TrimSpace(t.lines[i]); len(s) >= 4 && strings.IndexFunc(s, isAlnum) >= 0 {
				out = append(out, s)
			}
		}
		return out
	}
	want := tail(old, 3)
	if len(want) == 0 {
		return true
	}
	for _, s := range tail(nt, 10+grown) {
		for _, w := range want {
			if s == w {
				return true
			}
		}
	}
	return false
}
