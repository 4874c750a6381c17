package patch

import (
	"fmt"
	"strings"
)

// checkLimits refuses a patch over limits.max_files or
// limits.max_changed_lines.
func checkLimits(changes []*change, pol Policy) []Problem {
	var probs []Problem
	if pol.MaxFiles > 0 && len(changes) > pol.MaxFiles {
		probs = append(probs, Problem{Message: fmt.Sprintf("the patch changes %d files and limits.max_files is %d; make a smaller change", len(changes), pol.MaxFiles)})
	}
	n := 0
	for _, c := range changes {
		for _, o := range lineDiff(marked(c.old), marked(c.new)) {
			if o.kind != opEqual {
				n++
			}
		}
	}
	if pol.MaxChangedLines > 0 && n > pol.MaxChangedLines {
		probs = append(probs, Problem{Message: fmt.Sprintf("the patch changes %d lines and limits.max_changed_lines is %d; make a smaller change", n, pol.MaxChangedLines)})
	}
	return probs
}

// checkSecrets refuses added lines that look like credentials. The
// secret itself is never repeated in the message.
func checkSecrets(changes []*change) []Problem {
	var probs []Problem
	for _, c := range changes {
		a, z := marked(c.old), marked(c.new)
		for _, o := range lineDiff(a, z) {
			if o.kind != opInsert {
				continue
			}
			if what := findSecret(strings.TrimSuffix(z[o.bi], noEOL)); what != "" {
				probs = append(probs, Problem{File: c.path(), Message: fmt.Sprintf("added line %d looks like it contains %s; never put credentials in code, read them from the environment or a secret store", o.bi+1, what)})
			}
		}
	}
	return probs
}

// checkText refuses a change whose result holds a NUL byte: git and every
// editor take such a file for binary, and binary files are not changed
// through a text reply, whatever form the reply had.
func checkText(changes []*change) []Problem {
	var probs []Problem
	for _, c := range changes {
		if c.new == nil {
			continue
		}
		for i, l := range c.new.lines {
			if strings.IndexByte(l, 0) >= 0 {
				probs = append(probs, Problem{File: c.path(), Message: fmt.Sprintf("line %d contains a NUL byte, which makes this a binary file; only text files can be changed (in source code, write the byte as an escape such as \\x00)", i+1)})
				break
			}
		}
	}
	return probs
}
