package patch

import (
	"strings"
	"testing"
)

// A frozen test may be neither edited, nor deleted, nor renamed, nor
// reached through a symlink, in any edit form; the rest of the reply is
// not applied either (all or nothing).
func TestFrozenTestIsRefused(t *testing.T) {
	t.Parallel()
	pol := defaultPolicy
	pol.Frozen = []string{"abs_test.go"}
	pol.AllowDelete, pol.AllowRename = true, true
	for name, reply := range map[string]string{
		"diff":           "```diff\n--- a/abs_test.go\n+++ b/abs_test.go\n@@ -1,2 +1,2 @@\n one\n-two\n+two // weakened\n--- a/abs.go\n+++ b/abs.go\n@@ -1,2 +1,3 @@\n one\n+added\n two\n```\n",
		"search-replace": "./abs_test.go\n<<<<<<< SEARCH\ntwo\n=======\nthree\n>>>>>>> REPLACE\n",
		"delete":         "```diff\n--- a/abs_test.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n```\n",
		"rename":         "```diff\ndiff --git a/abs_test.go b/gone_test.go\nsimilarity index 100%\nrename from abs_test.go\nrename to gone_test.go\n```\n",
		"symlink":        "```diff\n--- a/alias/abs_test.go\n+++ b/alias/abs_test.go\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n```\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTestFile(t, dir, "abs_test.go", "one\ntwo\n")
			writeTestFile(t, dir, "abs.go", "one\ntwo\n")
			symlink(t, ".", dir+"/alias")
			before := snapshot(t, dir)
			res, err := Apply(dir, reply, pol, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Applied || !strings.Contains(res.Feedback(), "abs_test.go") || !strings.Contains(res.Feedback(), "frozen") {
				t.Fatalf("applied=%v, feedback:\n%s", res.Applied, res.Feedback())
			}
			if !equalMaps(before, snapshot(t, dir)) {
				t.Error("refused, but files changed")
			}
		})
	}
}

// Only applies the selected part of a reply and names what it left out;
// the same reply applied afterwards with the other part selected completes
// it.
func TestOnlySplitsAReply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTestFile(t, dir, "abs.go", "one\ntwo\n")
	both := "```diff\n--- /dev/null\n+++ b/abs_test.go\n@@ -0,0 +1 @@\n+test\n--- a/abs.go\n+++ b/abs.go\n@@ -1,2 +1,3 @@\n one\n+fix\n two\n```\n"
	isTest := func(p string) bool { return strings.HasSuffix(p, "_test.go") }
	res, err := Apply(dir, both, defaultPolicy, Options{Only: isTest})
	if err != nil || !res.Applied || strings.Join(res.Files, ",") != "abs_test.go" || strings.Join(res.Skipped, ",") != "abs.go" {
		t.Fatalf("test part: %v %+v", err, res)
	}
	if got := readTestFile(t, dir, "abs.go"); got != "one\ntwo\n" {
		t.Errorf("the fix was applied with the test: %q", got)
	}
	res, err = Apply(dir, both, defaultPolicy, Options{Only: func(p string) bool { return !isTest(p) }})
	if err != nil || !res.Applied || strings.Join(res.Files, ",") != "abs.go" {
		t.Fatalf("fix part: %v %+v", err, res)
	}
	if got := readTestFile(t, dir, "abs.go"); got != "one\nfix\ntwo\n" {
		t.Errorf("abs.go = %q", got)
	}
	res, err = Apply(dir, both, defaultPolicy, Options{Only: func(p string) bool { return strings.HasSuffix(p, ".py") }})
	if err != nil || res.Applied || !strings.Contains(res.Feedback(), "changes none of the files asked for") {
		t.Fatalf("nothing selected: %v %+v", err, res)
	}
}
