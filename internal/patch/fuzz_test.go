package patch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzRepo lays out a parent directory holding the repository and a
// sibling directory the patch must never reach, linked from inside.
func fuzzRepo(t *testing.T) (parent, repo string) {
	parent = t.TempDir()
	repo = filepath.Join(parent, "repo")
	writeTestFile(t, repo, "calc.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n")
	writeTestFile(t, repo, "README.md", "# calc\n\nA tiny calculator.\n")
	writeTestFile(t, repo, "dir/x.txt", "one\ntwo\nthree\n")
	writeTestFile(t, repo, ".git/config", "[core]\n")
	writeTestFile(t, parent, "outside/secret.txt", "one\ntwo\n")
	os.Symlink("../outside", filepath.Join(repo, "ext"))
	return parent, repo
}

// FuzzApply feeds arbitrary replies through extraction and apply: it must
// never panic, never touch anything outside the repository or under .git,
// change nothing when it refuses, and produce a diff that re-applies.
func FuzzApply(f *testing.F) {
	paths, _ := filepath.Glob("testdata/cases/*.txt")
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	f.Add(reply("ext/secret.txt"))
	f.Add("```diff\n--- a/dir/x.txt\n+++ b/dir/x.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n```\n")
	pol := Policy{AllowDelete: true, AllowRename: true}
	f.Fuzz(func(t *testing.T, in string) {
		parent, repo := fuzzRepo(t)
		outside := filepath.Join(parent, "outside")
		before, outBefore := snapshot(t, repo), snapshot(t, outside)
		res, err := Apply(repo, in, pol, Options{})
		if err != nil {
			return // an I/O failure on a strange path, reported, not a write
		}
		if !equalMaps(outBefore, snapshot(t, outside)) {
			t.Fatal("a file outside the repository changed")
		}
		entries, _ := os.ReadDir(parent)
		if len(entries) != 2 {
			t.Fatalf("something was written next to the repository: %v", entries)
		}
		after := snapshot(t, repo)
		if after[".git/config"] != before[".git/config"] {
			t.Fatal(".git/config changed")
		}
		if !res.Applied {
			if !equalMaps(before, after) {
				t.Fatal("refused, but the repository changed")
			}
			return
		}
		_, repo2 := fuzzRepo(t)
		res2, err := Apply(repo2, res.Diff, pol, Options{})
		if err != nil || !res2.Applied {
			t.Fatalf("the normalised diff does not re-apply: %v %v\n%s", err, res2.Errors, res.Diff)
		}
		if !equalMaps(after, snapshot(t, repo2)) {
			t.Fatalf("re-applying the normalised diff gives other files\n%s", res.Diff)
		}
	})
}

// FuzzExtract runs extraction alone, which is cheap enough for millions of
// inputs: it must not panic, and every edit it returns names a file.
func FuzzExtract(f *testing.F) {
	paths, _ := filepath.Glob("testdata/cases/*.txt")
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, in string) {
		edits, _, _ := extract(in)
		for _, e := range edits {
			if e.path() == "" {
				t.Fatalf("edit without a path: %+v", e)
			}
			for _, h := range e.hunks {
				formatDiff([]*change{{oldPath: e.path(), newPath: e.path(), old: &text{lines: h.oldSide()}, new: &text{lines: h.newSide()}}})
			}
		}
	})
}

// TestApplyCollapsesARunOfSlashes: a file named dir//new.txt is written as
// dir/new.txt, and the diff names it so, so that it re-applies (FuzzApply
// found the diff git could not read: "inconsistent new filename").
func TestApplyCollapsesARunOfSlashes(t *testing.T) {
	_, repo := fuzzRepo(t)
	res, err := Apply(repo, "dir//new.txt\n```\nhello\n```\n", Policy{}, Options{})
	if err != nil || !res.Applied {
		t.Fatalf("Apply = %+v, %v; want it applied", res, err)
	}
	if b, err := os.ReadFile(filepath.Join(repo, "dir", "new.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("dir/new.txt = %q, %v; want hello", b, err)
	}
	if !strings.Contains(res.Diff, "+++ b/dir/new.txt\n") || strings.Contains(res.Diff, "//") {
		t.Errorf("the diff does not name dir/new.txt:\n%s", res.Diff)
	}
	_, repo2 := fuzzRepo(t)
	if res2, err := Apply(repo2, res.Diff, Policy{}, Options{}); err != nil || !res2.Applied {
		t.Errorf("the diff does not re-apply: %+v, %v", res2, err)
	}
}

// TestApplyKeepsADirectoryNamedA: in a git diff whose a/ and b/ are
// taken off, a path that still starts with a/ is the file's: a new
// a/x.go is written there, not as x.go, and its diff re-applies to the
// same files (FuzzApply found a new file a/0 re-applied as 0).
func TestApplyKeepsADirectoryNamedA(t *testing.T) {
	for _, reply := range []string{
		"```diff\ndiff --git a/a/x.go b/a/x.go\nnew file mode 100644\n--- /dev/null\n+++ b/a/x.go\n@@ -0,0 +1 @@\n+package a\n```\n",
		"a/x.go\n```\npackage a\n```\n",
	} {
		_, repo := fuzzRepo(t)
		res, err := Apply(repo, reply, Policy{}, Options{})
		if err != nil || !res.Applied {
			t.Fatalf("Apply(%q) = %+v, %v; want it applied", reply, res, err)
		}
		_, repo2 := fuzzRepo(t)
		if res2, err := Apply(repo2, res.Diff, Policy{}, Options{}); err != nil || !res2.Applied {
			t.Fatalf("the diff does not re-apply: %+v, %v\n%s", res2, err, res.Diff)
		}
		for _, r := range []string{repo, repo2} {
			if b, err := os.ReadFile(filepath.Join(r, "a", "x.go")); err != nil || string(b) != "package a\n" {
				t.Errorf("a/x.go = %q, %v; want package a (diff:\n%s)", b, err, res.Diff)
			}
		}
	}
}
