package patch

import (
	"fmt"
	"strings"
	"testing"
)

// TestCorpusCommits applies commit-shaped replies: several corpus edits in
// one diff, plus a new file and a deleted one, as git diff prints a commit.
// Every file must end up as intended, and a reply whose last file fails
// must leave every file untouched.
func TestCorpusCommits(t *testing.T) {
	cases := buildCorpus(t)
	pol := Policy{AllowDelete: true}
	for i := 0; i+2 < len(cases); i += 3 {
		group := cases[i : i+3]
		dir := t.TempDir()
		var reply strings.Builder
		reply.WriteString("This commit fixes three files, adds one and removes one.\n\n```diff\n")
		for _, c := range group {
			writeTestFile(t, dir, c.rel, c.old)
			reply.WriteString(c.diff)
		}
		newFile := fmt.Sprintf("added/file%d.txt", i)
		fmt.Fprintf(&reply, "diff --git a/%s b/%[1]s\nnew file mode 100644\nindex 0000000..3b18e51\n--- /dev/null\n+++ b/%[1]s\n@@ -0,0 +1,2 @@\n+new file\n+second line\n", newFile)
		writeTestFile(t, dir, "gone.txt", "old\n")
		reply.WriteString("diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n```\n")

		before := snapshot(t, dir)
		bad := strings.Replace(reply.String(), "-old\n", "-not what the file says\n", 1)
		if res, err := Apply(dir, bad, pol, Options{}); err != nil || res.Applied {
			t.Fatalf("group %d: a commit with a bad last hunk applied: %v %v", i, err, res)
		}
		if !equalMaps(before, snapshot(t, dir)) {
			t.Fatalf("group %d: a refused commit changed files", i)
		}

		res, err := Apply(dir, reply.String(), pol, Options{})
		if err != nil || !res.Applied {
			t.Fatalf("group %d: %v %v", i, err, res.Errors)
		}
		for _, c := range group {
			if got := readTestFile(t, dir, c.rel); got != c.new {
				t.Errorf("group %d: %s is not the intended content", i, c.rel)
			}
		}
		if got := readTestFile(t, dir, newFile); got != "new file\nsecond line\n" {
			t.Errorf("group %d: new file = %q", i, got)
		}
		if _, ok := snapshot(t, dir)["gone.txt"]; ok {
			t.Errorf("group %d: gone.txt was not deleted", i)
		}
		if len(res.Files) != 5 {
			t.Errorf("group %d: files = %v", i, res.Files)
		}
	}
}
