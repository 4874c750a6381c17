package hardening

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// badDiff is a row for a model that answers every patch request with
// diff. target is the path (relative to the world's temporary directory)
// the diff tries to write; it must never appear. setup prepares the repo.
func badDiff(name, diff, target, reason string, setup func(w *world)) scenario {
	return scenario{name, "refused by the patch validator (" + reason + "), the reason logged and fed back; not fixed; nothing written", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		if setup != nil {
			setup(w)
		}
		w.Env["INPUT_MAX_ROUNDS"] = "2"
		w.AnswerWith(diff)
		if !filepath.IsAbs(target) {
			target = filepath.Join(w.Dir, target)
		}
		os.Remove(target)
		n, r := fixIssue(w)
		c.must(r, absent(target), "%s was written", target)
		c.must(r, r.Code == 1 && r.Outputs["result"] == "not-fixed", "want exit 1 and not-fixed, got exit %d %q", r.Code, r.Outputs["result"])
		why := logged(r, "not applied")
		c.must(r, strings.Contains(why, reason), "the log does not give the reason %q:\n%s", reason, tail(r.Stderr, 4000))
		fed := false
		for _, ch := range w.Ollama.Chats() {
			fed = fed || strings.Contains(ch.LastMessage(), reason)
		}
		c.must(r, fed, "the reason was not fed back to the model")
		c.must(r, strings.Contains(w.status(n), "Not fixed"), "the status comment does not say not fixed")
		c.see("exit 1 not-fixed; %q", why)
		c.nothingChanged(w, r)
	}}
}

// newFile is a diff creating path with lines.
func newFile(path string, lines ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, len(lines))
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

var diffAttacks = []scenario{
	badDiff("model diff writing outside the repo", newFile("../escape.txt", "pwned"), "escape.txt", "'..'", nil),
	badDiff("model diff writing to an absolute path", "--- /dev/null\n+++ /tmp/agentfix-hardening-pwned\n@@ -0,0 +1 @@\n+pwned\n", "/tmp/agentfix-hardening-pwned", "absolute", nil),
	badDiff("model diff writing into .git/", newFile(".git/hooks/pre-commit", "#!/bin/sh", "touch /tmp/pwned"), "workspace/.git/hooks/pre-commit", ".git", nil),
	badDiff("model diff writing into .github/workflows/", newFile(".github/workflows/pwn.yml", "on: push", "jobs: {}"), "workspace/.github/workflows/pwn.yml", "workflows", nil),
	badDiff("model diff writing through a symlink", newFile("docs/pwned.txt", "pwned"), "outside/pwned.txt", "symlink", func(w *world) {
		// docs is a symlink, committed on main, to a directory outside
		// the repository.
		os.MkdirAll(filepath.Join(w.Dir, "outside"), 0o755)
		dir := w.T.TempDir()
		actiontest.Git(w.T, dir, nil, "clone", "-q", "file://"+w.Origin, "c")
		c := filepath.Join(dir, "c")
		if err := os.Symlink("../outside", filepath.Join(c, "docs")); err != nil {
			w.T.Fatal(err)
		}
		actiontest.Git(w.T, c, nil, "add", "docs")
		actiontest.Git(w.T, c, actiontest.HumanID, "commit", "-q", "-m", "docs link")
		actiontest.Git(w.T, c, nil, "push", "-q", "origin", "main")
		w.Clone("main")
	}),
	badDiff("model diff adding a secret",
		"--- a/calc.go\n+++ b/calc.go\n@@ -3,4 +3,5 @@\n // Add returns the sum of a and b.\n func Add(a, b int) int {\n-\treturn a - b\n+\tconst deployKey = \"AKIAIOSFODNN7EXAMPLE\"\n+\treturn a + b\n }\n",
		"none", "AWS access key", nil),
	badDiff("model diff adding a binary file",
		"diff --git a/logo.png b/logo.png\nnew file mode 100644\nindex 0000000..1234567\nGIT binary patch\nliteral 4\nLcmZ?wbhHQl0ssI2\n\nliteral 0\nHcmV?d00001\n\n",
		"workspace/logo.png", "binary", nil),
	badDiff("model diff over the size limit", newFile("big.txt", strings.Split(strings.Repeat("filler line\n", 500), "\n")[:500]...),
		"workspace/big.txt", "400", nil),
}
