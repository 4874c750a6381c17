package patch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const addLine = "```diff\n--- a/%s\n+++ b/%s\n@@ -1,2 +1,3 @@\n one\n+added\n two\n```\n"

func reply(path string) string { return strings.ReplaceAll(addLine, "%s", path) }

func TestSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeTestFile(t, outside, "secret.txt", "one\ntwo\n")
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		path  string
		want  string // substring of the error; "" means applied
	}{
		{"dir link outside", func(t *testing.T, dir string) { symlink(t, outside, filepath.Join(dir, "ext")) }, "ext/secret.txt", "points outside the repository"},
		{"file link", func(t *testing.T, dir string) {
			writeTestFile(t, dir, "real.txt", "one\ntwo\n")
			symlink(t, "real.txt", filepath.Join(dir, "link.txt"))
		}, "link.txt", "is a symbolic link"},
		{"dir link into denied path", func(t *testing.T, dir string) {
			writeTestFile(t, dir, ".github/workflows/ci.yml", "one\ntwo\n")
			symlink(t, ".github/workflows", filepath.Join(dir, "wf"))
		}, "wf/ci.yml", "paths.deny"},
		{"dir link into .git", func(t *testing.T, dir string) {
			writeTestFile(t, dir, ".git/config", "one\ntwo\n")
			symlink(t, ".git", filepath.Join(dir, "g"))
		}, "g/config", ".git/"},
		{"dir link inside", func(t *testing.T, dir string) {
			writeTestFile(t, dir, "src/a.txt", "one\ntwo\n")
			symlink(t, "src", filepath.Join(dir, "alias"))
		}, "alias/a.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			before, outBefore := snapshot(t, dir), snapshot(t, outside)
			res, err := Apply(dir, reply(tt.path), defaultPolicy, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if !res.Applied {
					t.Fatalf("refused: %v", res.Errors)
				}
				return
			}
			if res.Applied || len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, tt.want) {
				t.Fatalf("applied=%v errors=%v, want a refusal saying %q", res.Applied, res.Errors, tt.want)
			}
			if !equalMaps(before, snapshot(t, dir)) || !equalMaps(outBefore, snapshot(t, outside)) {
				t.Fatal("refused, but files changed")
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks not supported:", err)
	}
}

func TestCheckWritesNothing(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "a.txt", "one\ntwo\n")
	before := snapshot(t, dir)
	res, err := Apply(dir, reply("a.txt")+"\nnew.txt\n```\nhello\n```\n", defaultPolicy, Options{Check: true})
	if err != nil || !res.Applied {
		t.Fatalf("check: %v %v", err, res.Errors)
	}
	if !equalMaps(before, snapshot(t, dir)) {
		t.Fatal("--check changed files")
	}
	if len(res.Files) != 2 || !strings.Contains(res.Diff, "+added") || !strings.Contains(res.Diff, "+hello") {
		t.Fatalf("check result: %+v", res)
	}
}

func TestKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "run.sh", "one\ntwo\n")
	writeTestFile(t, dir, "priv.txt", "one\ntwo\n")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
	os.Chmod(filepath.Join(dir, "priv.txt"), 0o600)
	for _, p := range []string{"run.sh", "priv.txt"} {
		if res, err := Apply(dir, reply(p), defaultPolicy, Options{}); err != nil || !res.Applied {
			t.Fatalf("%s: %v %v", p, err, res.Errors)
		}
	}
	for p, want := range map[string]os.FileMode{"run.sh": 0o755, "priv.txt": 0o600} {
		fi, _ := os.Stat(filepath.Join(dir, p))
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		if got := readTestFile(t, dir, p); got != "one\nadded\ntwo\n" {
			t.Errorf("%s: %q", p, got)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestNewFileInNewDirectory(t *testing.T) {
	dir := t.TempDir()
	res, err := Apply(dir, "internal/x/y.go\n```go\npackage x\n```\n", defaultPolicy, Options{})
	if err != nil || !res.Applied {
		t.Fatalf("%v %v", err, res.Errors)
	}
	if got := readTestFile(t, dir, "internal/x/y.go"); got != "package x\n" {
		t.Fatalf("got %q", got)
	}
}

func TestWriteFailureUndoes(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "a.txt", "one\ntwo\n")
	// b.txt/ is a directory where the patch wants a file: the write of the
	// second file fails after the first was written.
	os.MkdirAll(filepath.Join(dir, "b.txt", "x"), 0o755)
	before := snapshot(t, dir)
	c1 := &change{oldPath: "a.txt", newPath: "a.txt", oldMode: modeRegular, newMode: modeRegular}
	o, n := parseText([]byte("one\ntwo\n")), parseText([]byte("one\nadded\ntwo\n"))
	c1.old, c1.new = &o, &n
	c2 := &change{newPath: "b.txt", newMode: modeRegular, new: &n}
	if err := write(dir, []*change{c1, c2}); err == nil {
		t.Fatal("write into a directory succeeded")
	}
	if !equalMaps(before, snapshot(t, dir)) {
		t.Fatal("a failed write left changes behind")
	}
}

func TestSecretsNotFlagged(t *testing.T) {
	for _, s := range []string{
		`password := os.Getenv("DB_PASSWORD")`,
		`token = "${GITHUB_TOKEN}"`,
		`secret := "changeme-changeme"`,
		`// see docs for the token format ghp_...`,
		`apiKey := "<your-api-key-here>"`,
	} {
		if what := findSecret(s); what != "" {
			t.Errorf("%q flagged as %s", s, what)
		}
	}
}

func TestInvalidDenyGlobFailsClosed(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "a.txt", "one\ntwo\n")
	res, err := Apply(dir, reply("a.txt"), Policy{Deny: []string{"[a-"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, "not a valid glob") {
		t.Fatalf("applied=%v errors=%v", res.Applied, res.Errors)
	}
}
