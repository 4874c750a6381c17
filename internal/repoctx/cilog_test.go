package repoctx

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sameQuery fails t when got's signals differ from want's.
func sameQuery(t *testing.T, got, want *query) {
	t.Helper()
	if got.failing != want.failing || !reflect.DeepEqual(got.tests, want.tests) || !reflect.DeepEqual(got.dirs, want.dirs) ||
		!reflect.DeepEqual(got.paths, want.paths) || !reflect.DeepEqual(got.symbols, want.symbols) ||
		!reflect.DeepEqual(got.pkgs, want.pkgs) || !reflect.DeepEqual(got.quoted, want.quoted) || !reflect.DeepEqual(got.terms, want.terms) {
		t.Errorf("got failing %v, tests %v, dirs %v, paths %v, symbols %v, quoted %v, terms %v\nwant failing %v, tests %v, dirs %v, paths %v, symbols %v, quoted %v, terms %v",
			got.failing, got.tests, got.dirs, got.paths, got.symbols, got.quoted, got.terms,
			want.failing, want.tests, want.dirs, want.paths, want.symbols, want.quoted, want.terms)
	}
}

// actionsJobLog is output as the raw log of the GitHub Actions job whose
// step "go test -v ./..." printed it: the runner's set-up, checkout and
// setup-go steps before, the cleanup after, every line time-stamped.
func actionsJobLog(output string) string {
	var b strings.Builder
	b.WriteString("\ufeff")
	at := time.Date(2026, 11, 25, 5, 59, 41, 281604300, time.UTC)
	for _, l := range strings.Split(strings.TrimSpace(`
Current runner version: '2.330.0'
##[group]Runner Image
Image: ubuntu-24.04
Included Software: https://github.com/actions/runner-images/blob/ubuntu24/20261102.5/images/ubuntu/Ubuntu2404-Readme.md
##[endgroup]
##[group]GITHUB_TOKEN Permissions
Contents: read
##[endgroup]
Download action repository 'actions/checkout@v4' (SHA:0f3c1a9e2b7d4c5a6e8f9a0b1c2d3e4f5a6b7c8d)
##[group]Run actions/checkout@v4
with:
  repository: storeco/kvstore
  token: ***
##[endgroup]
Syncing repository: storeco/kvstore
[command]/usr/bin/git remote add origin https://github.com/storeco/kvstore
[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --depth=1 origin +4b6f0c1d:refs/remotes/origin/main
##[group]Run actions/setup-go@v5
with:
  go-version-file: go.mod
  cache: true
##[endgroup]
Found in cache @ /opt/hostedtoolcache/go/1.24.9/x64
[command]/opt/hostedtoolcache/go/1.24.9/x64/bin/go env GOMODCACHE
Cache restored from key: setup-go-Linux-x64-ubuntu24-go-1.24.9-7e1f0a2b
##[group]go env
GOARCH='amd64'
GOOS='linux'
GOMODCACHE='/home/runner/go/pkg/mod'
##[endgroup]
##[group]Run go test -v ./...
`+"\x1b[36;1mgo test -v ./...\x1b[0m"+`
shell: /usr/bin/bash -e {0}
env:
  GOTOOLCHAIN: local
##[endgroup]
`+output+`
##[error]Process completed with exit code 1.
Post job cleanup.
[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader
Cleaning up orphan processes`), "\n") {
		b.WriteString(at.Format("2006-01-02T15:04:05.0000000Z ") + l + "\n")
		at = at.Add(1731 * time.Microsecond)
	}
	return b.String()
}

// TestParseQueryReadsAnActionsJobLog: the raw log of a failed job, which
// a maintainer downloads or pastes whole, gives the query of its failing
// step's output alone: not the runner's versions, checkout's git
// commands, setup-go's paths and go env, or the step's script.
func TestParseQueryReadsAnActionsJobLog(t *testing.T) {
	sameQuery(t, parseQuery(actionsJobLog(verboseLog)), parseQuery(verboseLog))
	report := "Get says a missing key is there:\n\n    kv_test.go:30: Get(\"x\") = \"\", true; want \"\", false\n"
	sameQuery(t, parseQuery(report+"\n"+actionsJobLog(verboseLog)), parseQuery(report+"\n"+verboseLog))
}

// timed is text with the time GitHub Actions writes before each line.
func timed(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString("2026-11-25T05:59:41.2816043Z " + l)
		}
	}
	return b.String()
}

// TestActionsOutputKeepsTheFailedSteps: of a job's steps, the output of
// those that failed stays, without the runner's marks; a step that passed
// goes, unless none failed.
func TestActionsOutputKeepsTheFailedSteps(t *testing.T) {
	log := "Current runner version: '2.330.0'\n" +
		"##[group]Run go build ./...\ngo build ./...\nshell: /usr/bin/bash -e {0}\n##[endgroup]\ngo: downloading example.com/dep v1.2.0\n" +
		"##[group]Run go vet ./...\ngo vet ./...\n##[endgroup]\n##[error]kv.go:9:2: unreachable code\n##[warning]vet found 1 problem\n##[debug]exit 1\n##[error]Process completed with exit code 1.\n" +
		"##[group]Run go test ./...\ngo test ./...\n##[endgroup]\n--- FAIL: TestGet (0.00s)\n##[error]Process completed with exit code 1.\nPost job cleanup.\n"
	want := "kv.go:9:2: unreachable code\nvet found 1 problem\n--- FAIL: TestGet (0.00s)\n"
	if got := actionsOutput(timed(log)); got != want {
		t.Errorf("actionsOutput = %q, want %q", got, want)
	}
	// Without times, what comes before the first step may be a report's.
	if got := actionsOutput(log); got != "Current runner version: '2.330.0'\n"+want {
		t.Errorf("actionsOutput = %q, want the first line and %q", got, want)
	}
	// In a timed log, a line without a time is the text of whoever
	// pasted it, where they put it.
	if got := actionsOutput("It fails since Monday:\n" + timed(log) + "Any idea?\n"); got != "It fails since Monday:\n"+want+"Any idea?\n" {
		t.Errorf("actionsOutput = %q", got)
	}
	// Copied from the middle of the failed step to the end of a step that
	// runs always, after it.
	tail := "--- FAIL: TestGet (0.00s)\n##[error]Process completed with exit code 1.\n" +
		"##[group]Run actions/upload-artifact@v4\nwith:\n  name: results\n##[endgroup]\nUploaded 1 file\n"
	if got := actionsOutput(timed(tail)); got != "--- FAIL: TestGet (0.00s)\n" {
		t.Errorf("actionsOutput = %q, want the failed step's end", got)
	}
	passed := "##[group]Run go test ./...\ngo test ./...\n##[endgroup]\nok  \texample.com/kv\t0.003s\nPost job cleanup.\n"
	if got, want := actionsOutput(passed), "ok  \texample.com/kv\t0.003s\nPost job cleanup.\n"; got != want {
		t.Errorf("actionsOutput = %q, want %q", got, want)
	}
	if text := "Run go test, then:\n##[group]a heading\n"; actionsOutput(text) != text {
		t.Errorf("text without a step's line is changed: %q", actionsOutput(text))
	}
}

// TestParseQueryReadsColoredOutput: a terminal's colors, whole or with
// their escape byte gone (as GitHub shows them pasted into an issue), a
// log with "\r\n" line ends and a progress line that "\r" rewrites give
// the query of the plain output.
func TestParseQueryReadsColoredOutput(t *testing.T) {
	colored := strings.NewReplacer(
		"--- PASS", "\x1b[32m--- PASS\x1b[0m",
		"--- FAIL", "\x1b[31m--- FAIL\x1b[0m",
		"--- SKIP", "\x1b[33m--- SKIP\x1b[0m",
		"=== RUN", "\x1b[1;34m=== RUN\x1b[m",
		"kv_test.go:30:", "\x1b]8;;file:///src/kv/kv_test.go\x1b\\kv_test.go:30:\x1b]8;;\x1b\\",
	).Replace(verboseLog)
	want := parseQuery(verboseLog)
	t.Run("escapes", func(t *testing.T) { sameQuery(t, parseQuery(colored), want) })
	t.Run("escape bytes gone", func(t *testing.T) {
		orphans := strings.NewReplacer(
			"--- PASS", "[32m--- PASS[0m",
			"--- FAIL", "[31m--- FAIL[0m",
			"=== RUN", "[1;34m=== RUN[0m",
		).Replace(verboseLog)
		sameQuery(t, parseQuery(orphans), want)
		if got := plainText("\x1b[32m--- PASS\x1b[0m"); got != "--- PASS" {
			t.Errorf("plainText = %q", got)
		}
		if got := plainText("[31m--- FAIL: TestGet[0m"); got != "--- FAIL: TestGet" {
			t.Errorf("plainText = %q", got)
		}
	})
	t.Run("go test -json", func(t *testing.T) {
		json := `{"Action":"output","Package":"example.com/kv","Test":"TestGet","Output":"\u001b[31m--- FAIL: TestGet (0.00s)\u001b[0m\n"}` + "\n" +
			`{"Action":"output","Package":"example.com/kv","Test":"TestGet","Output":"    kv_test.go:30: \u001b[1mwant false\u001b[0m\n"}` + "\n" +
			`{"Action":"fail","Package":"example.com/kv","Test":"TestGet"}` + "\n"
		sameQuery(t, parseQuery(json), parseQuery("--- FAIL: TestGet (0.00s)\n    kv_test.go:30: want false\n"))
	})
	b, err := os.ReadFile(filepath.Join("testdata", "gotestsum-testname.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("line ends", func(t *testing.T) {
		crlf := strings.ReplaceAll(string(b), "\n", "\r\n")
		sameQuery(t, parseQuery(crlf), parseQuery(string(b)))
		progress := "downloading 10%\rdownloading 55%\rdownloading 100%\r\n" + crlf
		sameQuery(t, parseQuery(progress), parseQuery("downloading 100%\n"+string(b)))
	})
}

// TestPlainTextKeepsWrittenEscapes: an escape written in a string, as a
// report about colors quotes it, is code, not color.
func TestPlainTextKeepsWrittenEscapes(t *testing.T) {
	for _, text := range []string{
		"Table.Render() returns `\"\\x1b[31mhello\\x1b[0m\"` with TERM=dumb",
		`fmt.Print("\033[1;32m" + s + "\033[0m")`,
		`"\u001b[7m"`,
		"a[1] = m[2]",
	} {
		if got := plainText(text); got != text {
			t.Errorf("plainText(%q) = %q, want it unchanged", text, got)
		}
	}
}

// TestParseQueryLeavesOutTemplateComments: an issue template's comments,
// which GitHub hides, are not the report's words; a comment in a code
// block, inside a line or indented as go test indents output stays.
func TestParseQueryLeavesOutTemplateComments(t *testing.T) {
	report := "### Description\n\nCalling `kv.Get(\"x\")` on an empty store returns true.\n"
	template := "<!--\nThanks for the report! Search the issues first; SECURITY.md says how to\nreport a vulnerability.\n-->\n\n" +
		"### Version\n\n  <!-- Paste the `require example.com/mod v1.4.0` line of your go.mod. -->\nv1.4.0 <!-- is the latest release affected too? -->\n\n"
	sameQuery(t, parseQuery(template+report), parseQuery("\n\n### Version\n\n\nv1.4.0 <!-- is the latest release affected too? -->\n\n"+report))
	sameQuery(t, parseQuery(report+"\n<!-- Paste `go env` output here, then delete this line. Mention Unix and Windows."), parseQuery(report+"\n"))
	for _, text := range []string{
		"```html\n<!-- kept: code -->\n<p>x</p>\n```\n",
		"~~~~\n```\n<!-- kept: the fence is ~~~~ -->\n~~~~\n",
		"    <!-- indented: code -->\n",
		"=== RUN   TestTokens/<!--_-->\n--- FAIL: TestTokens/<!--_--> (0.00s)\n",
		"Same for `> <!-- a -->` in a quote.\n",
	} {
		if got := withoutHTMLComments(text); got != text {
			t.Errorf("withoutHTMLComments(%q) = %q, want it unchanged", text, got)
		}
	}
}

// TestParseQueryReadsAQuote: go test's output or a panic quoted in a
// report ("> " before each line, "> > " in a reply) gives the query of
// the output as printed.
func TestParseQueryReadsAQuote(t *testing.T) {
	panicked := "--- FAIL: TestGet (0.00s)\npanic: runtime error: invalid memory address or nil pointer dereference [recovered]\n" +
		"goroutine 7 [running]:\ntesting.tRunner.func1.2({0x5f1e20, 0x8a4b90})\n\t/usr/local/go/src/testing/testing.go:1632 +0x230\n" +
		"example.com/kv.(*Store).lookup(0x0, {0x61b2c4, 0x1})\n\t/src/kv/store.go:41 +0x1c\nexample.com/kv.(*Store).Get(...)\n\t/src/kv/store.go:30\n" +
		"example.com/kv.TestGet(0xc000007860)\n\t/src/kv/kv_test.go:12 +0x3d\nFAIL\texample.com/kv\t0.004s\n"
	want := parseQuery("Get panics on a nil store:\n\n" + panicked)
	sameQuery(t, parseQuery("Get panics on a nil store:\n\n> "+strings.ReplaceAll(strings.TrimSuffix(panicked, "\n"), "\n", "\n> ")+"\n"), want)
	sameQuery(t, parseQuery("Get panics on a nil store:\n\n> > "+strings.ReplaceAll(strings.TrimSuffix(panicked, "\n"), "\n", "\n>> ")+"\n"), want)
}

// FuzzParseQuery: an issue's text is anyone's, and no text may stop the
// engine. The readings before the query's own only remove what a reader
// does not see: none of them makes the text longer, and the query keeps
// to its bounds.
func FuzzParseQuery(f *testing.F) {
	f.Add(actionsJobLog(verboseLog))
	f.Add(timed("--- FAIL: TestGet (0.00s)\n##[error]Process completed with exit code 1.\n##[group]Run x\n##[endgroup]\nok\n"))
	f.Add("\ufeff[31m--- FAIL\x1b[0m: TestGet\r\n> panic: x\r\n<!-- hint\n-->\n```\n<!-- kept -->\n```\nhttps://go.dev/play/p/Xk3 https://github.com/o/r/blob/v1/a/b.go#L3-L4 https://pkg.go.dev/a/b#T.M\n")
	f.Add("📦 example.com/kv\n::group::❌ TestGet (0s)\n    kv_test.go:11: want false\n::endgroup::\n::group::✅ TestPut (PASS; 1ms)\n::endgroup::\n")
	for _, name := range []string{"gotestfmt-github.txt", "gotestsum-github-actions.txt"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		for name, read := range map[string]func(string) string{
			"plainText": plainText, "unquoted": unquoted, "actionsOutput": actionsOutput, "withoutHTMLComments": withoutHTMLComments,
			"readLinks":         func(s string) string { s, _ = readLinks(s); return s },
			"withoutPassedPkgs": withoutPassedPkgs,
		} {
			if got := read(text); len(got) > len(text) {
				t.Fatalf("%s made %q longer: %q", name, text, got)
			}
		}
		q := parseQuery(text)
		if len(q.terms) > maxMatcherTerms {
			t.Fatalf("%d terms, more than the matcher's %d", len(q.terms), maxMatcherTerms)
		}
		for _, h := range q.paths {
			if h.path == "" || h.line < 0 {
				t.Fatalf("path hint %+v from %q", h, text)
			}
		}
	})
}
