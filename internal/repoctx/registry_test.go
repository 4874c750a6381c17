package repoctx

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestBuildFollowsTheTestsStringsThroughARegistry: the failing test
// calls Var(s, "url"), and Var finds the check in a map from tag to
// function, so no call names isURL; the map's entry `"url": isURL,` is the
// edge, and isURL (the fix, among look-alike checks) is packed.
//
// The same when the registry is filled by calls, Add("url", isURL): the
// call's string and the name it registers are the edge.
func TestBuildFollowsTheTestsStringsThroughARegistry(t *testing.T) {
	for _, key := range []string{"url", "add:url"} {
		repo, checks := tagRegistry(t, key, "", "func isURL(s string) bool {\n\treturn len(s) > 100 // the bug\n}\n", map[string]string{
			"check/check_test.go": "package check\n\nimport \"testing\"\n\nfunc TestLinks(t *testing.T) {\n\tfor i, s := range []string{\"https://a.example\"} {\n\t\tif !Var(s, \"url\") {\n\t\t\tt.Fatalf(\"Index: %d failed\", i)\n\t\t}\n\t}\n}\n",
		})
		failing := "--- FAIL: TestLinks (0.00s)\n    check_test.go:8: Index: 0 failed\nFAIL\nFAIL\texample.com/check\t0.002s\n"
		mustPackFunc(t, build(t, repo, failing, 1500), "check/checks.go", checks, "isURL")
	}
}

// TestBuildFollowsAReportsWordsThroughARegistry: a report names a check
// by its tag (url_tag), which only a map literal ties to the function
// that checks it (isURL), and the fault is in what that calls. A tag that
// is a plain word (weblink) counts where the report quotes it as code.
func TestBuildFollowsAReportsWordsThroughARegistry(t *testing.T) {
	for _, tag := range []string{"url_tag", "weblink"} {
		repo, checks := tagRegistry(t, tag, "func isURL(s string) bool {\n\treturn hostPart(s) != \"\"\n}\n\n",
			"func hostPart(s string) string {\n\treturn s[:0] // the bug\n}\n", nil)
		issue := "The " + tag + " tag rejects every valid value\n\n`check.Var(\"https://a.example\", \"" + tag + "\")` returns false for a valid value.\n"
		mustPackFunc(t, build(t, repo, issue, 1200), "check/checks.go", checks, "hostPart")
	}
}

// TestBuildFollowsAReportsWordsThroughTheModulesRootRegistry: a report
// names no function, only a tag (`validate:"url_tag"`) that the module's
// root package maps to its check; the fault is in what the check calls.
// The root package is the module's, wherever its go.mod is: at the
// repository's root, or in a directory of it.
func TestBuildFollowsAReportsWordsThroughTheModulesRootRegistry(t *testing.T) {
	module := tagRegistryFiles("url_tag", "func isURL(s string) bool {\n\treturn hostPart(s) != \"\"\n}\n\n",
		"func hostPart(s string) string {\n\treturn s[:0] // the bug\n}\n")
	issue := "The url_tag tag rejects every valid value\n\nA field tagged `validate:\"url_tag\"` fails for https://a.example, a valid value.\n"
	for _, dir := range []string{"", "lib/"} {
		t.Run("module in "+strings.TrimSuffix("./"+dir, "/"), func(t *testing.T) {
			files := map[string]string{}
			for name, src := range module { // package check is the module's root package
				files[dir+strings.TrimPrefix(name, "check/")] = src
			}
			mustPackFunc(t, build(t, newRepo(t, files), issue, 1200), dir+"checks.go", module["check/checks.go"], "hostPart")
		})
	}
}

// tagRegistry is a repository (with extra files) whose package check
// finds a check by its tag in a map literal: 40 look-alike tags, and key
// mapped to isURL. checks.go holds the map, first, the look-alikes' checks
// and last; it is returned with the repository. A key starting with "add:"
// (the rest is the key) makes the map filled by calls instead, in init:
// Add("tag0", isTag0).
func tagRegistry(t *testing.T, key, first, last string, extra map[string]string) (repo, checks string) {
	files := tagRegistryFiles(key, first, last)
	maps.Copy(files, extra)
	return newRepo(t, files), files["check/checks.go"]
}

// tagRegistryFiles are tagRegistry's files: go.mod and package check's.
func tagRegistryFiles(key, first, last string) map[string]string {
	var b strings.Builder
	if k, ok := strings.CutPrefix(key, "add:"); ok {
		b.WriteString("package check\n\nvar registry = map[string]func(string) bool{}\n\n// Add registers the check f of a tag.\nfunc Add(tag string, f func(string) bool) { registry[tag] = f }\n\nfunc init() {\n")
		for k := range 40 {
			fmt.Fprintf(&b, "\tAdd(\"tag%d\", isTag%d)\n", k, k)
		}
		fmt.Fprintf(&b, "\tAdd(%q, isURL)\n}\n\n%s", k, first)
	} else {
		b.WriteString("package check\n\nvar registry = map[string]func(string) bool{\n")
		for k := range 40 {
			fmt.Fprintf(&b, "\t\"tag%d\": isTag%d,\n", k, k)
		}
		fmt.Fprintf(&b, "\t%q: isURL,\n}\n\n%s", key, first)
	}
	for k := range 40 {
		fmt.Fprintf(&b, "// isTag%d reports whether s is a valid tag%d value.\nfunc isTag%d(s string) bool {\n\treturn len(s) > %d\n}\n\n", k, k, k, k)
	}
	b.WriteString(last)
	return map[string]string{
		"go.mod":          "module example.com/check\n",
		"check/checks.go": b.String(),
		"check/check.go":  "package check\n\n// Var checks s against the check tag names.\nfunc Var(s, tag string) bool {\n\treturn registry[tag](s)\n}\n",
	}
}

// TestRegistryLinesMatchTheWholeText: matching the registry regexps only
// from the lines that can start them finds what the regexps (?m)^\s*...
// find across the whole text, in the same order.
func TestRegistryLinesMatchTheWholeText(t *testing.T) {
	entry := regexp.MustCompile(`(?m)^\s*"([A-Za-z_][\w\-.]{0,30})"\s*:\s*([A-Za-z_]\w*)\s*,`)
	call := regexp.MustCompile(`(?m)^\s*[A-Za-z_][\w.]*\(\s*"([A-Za-z_][\w\-.]{0,30})"\s*,[^\n]*?([A-Za-z_]\w*)\s*\)\s*$`)
	srcs := goSources(t,
		"var m = map[string]func(){\n\t\"url\": isURL,\n\n\t\"uri\"  :\n\t\tisURI ,\n\t\"a\": x, \"b\": y,\n}\n",
		"func init() {\n\tDefault.Add(\"uri\", &u, isRequestURI)\n\tAdd(\n\t\t\"x\", f)\n\n\tr.Add(\"y\", g)   \n\n\tAdd(\"z\", 1, h)\r\n}\n",
		"\f\"k\": v,\n \r\"j\": w,\n\"last\": z,",
	)
	pairs := func(ms [][][]byte) []string {
		var out []string
		for _, m := range ms {
			out = append(out, string(m[1])+"="+string(m[2]))
		}
		return out
	}
	matched := 0
	for k, src := range srcs {
		entries, calls := registryLines(src)
		if got, want := pairs(entries), pairs(entry.FindAllSubmatch(src, -1)); !reflect.DeepEqual(got, want) {
			t.Fatalf("text %d: entries %q, the whole text's %q", k, got, want)
		}
		if got, want := pairs(calls), pairs(call.FindAllSubmatch(src, -1)); !reflect.DeepEqual(got, want) {
			t.Fatalf("text %d: calls %q, the whole text's %q", k, got, want)
		}
		matched += len(entries) + len(calls)
	}
	if matched < 10 {
		t.Fatalf("%d matches in all: nothing compared", matched)
	}
}
