package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// reNotes matches the files of a module that tell its users what a
// release changed.
var reNotes = regexp.MustCompile(`(?i)^(changelog|changes|history|news|release[-_ ]?notes)(\.[a-z]+)?$`)

// show prints what a bug report for case c may be written from: the
// release's test change, its release notes' change if the module keeps
// them, and the changed tests' output on the earlier release. It never
// prints the fix (the non-test code diff).
func show(c Case, out io.Writer) error {
	bdir, adir, ch, err := c.trees()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "# %s: %s %s -> %s, package %s, tests %s\n", c.ID, c.Module, c.Before, c.After, c.Package, strings.Join(c.Tests, " "))
	fmt.Fprintf(out, "\n## test change\n%s", testDiff(bdir, adir, ch))
	fmt.Fprintf(out, "\n## release notes change\n%s", notesDiff(bdir, adir))
	fmt.Fprintf(out, "\n## failing on %s\n%s\n", c.Before, c.Failing)
	return nil
}

// trees downloads both releases and compares them.
func (c Case) trees() (before, after string, ch *change, err error) {
	if before, err = goModDir(c.Module, c.Before); err != nil {
		return "", "", nil, err
	}
	if after, err = goModDir(c.Module, c.After); err != nil {
		return "", "", nil, err
	}
	ch, err = diffModules(before, after)
	return before, after, ch, err
}

// testDiff is the unified diff of the release's test files.
func testDiff(before, after string, ch *change) string {
	var b strings.Builder
	for _, p := range ch.testFiles {
		b.WriteString(unifiedDiff(before, after, p))
	}
	return b.String()
}

// notesDiff is the unified diff of the module's release notes files at
// its root ("" when it keeps none or they did not change).
func notesDiff(before, after string) string {
	ents, err := os.ReadDir(after)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, e := range ents {
		if !e.IsDir() && reNotes.MatchString(e.Name()) {
			b.WriteString(unifiedDiff(before, after, e.Name()))
		}
	}
	return b.String()
}

// unifiedDiff is git diff --no-index of one module file (a/ and b/ are
// the module paths; a file the release added is diffed against nothing).
func unifiedDiff(before, after, rel string) string {
	old := filepath.Join(before, rel)
	if _, err := os.Stat(old); err != nil {
		old = os.DevNull
	}
	out, _ := diffFiles(old, filepath.Join(after, rel), "-U3")
	s := strings.ReplaceAll(out, after+"/", "/")
	return strings.ReplaceAll(s, before+"/", "/")
}

// diffFiles runs git diff --no-index on two files with the given context
// option (-U0, -U3); that they differ is no error.
func diffFiles(a, b, context string) (string, error) {
	out, err := exec.Command("git", "diff", "--no-index", "--no-color", context, "--", a, b).Output()
	if _, differ := err.(*exec.ExitError); differ {
		err = nil
	}
	return string(out), err
}

// showCase shows the case with the given id.
func showCase(cs []Case, id string, out io.Writer) error {
	for _, c := range cs {
		if c.ID == id {
			return show(c, out)
		}
	}
	return fmt.Errorf("no case %q in the case list", id)
}
