package repoctx

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// verboseLog is go test -v output of a package where TestPut passes (with
// a log line), TestGet fails in one subtest of two, TestSkipped is
// skipped, and TestLater passes after the failure.
const verboseLog = `=== RUN   TestPut
    kv_test.go:12: stored a
--- PASS: TestPut (0.00s)
=== RUN   TestGet
=== RUN   TestGet/present
=== RUN   TestGet/missing
    kv_test.go:30: Get("x") = "", true; want "", false
--- FAIL: TestGet (0.00s)
    --- PASS: TestGet/present (0.00s)
    --- FAIL: TestGet/missing (0.00s)
=== RUN   TestSkipped
    kv_test.go:40: needs a server
--- SKIP: TestSkipped (0.00s)
=== RUN   TestLater
    kv_test.go:50: later ok
--- PASS: TestLater (0.00s)
FAIL
exit status 1
FAIL	example.com/kv	0.003s
`

func TestFailedOutputOfVerboseGoTest(t *testing.T) {
	got := failedOutput(verboseLog)
	for _, gone := range []string{"TestPut", "stored a", "TestGet/present", "TestSkipped", "needs a server", "TestLater", "later ok"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q is kept:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"=== RUN   TestGet/missing\n", `kv_test.go:30: Get("x") = "", true; want "", false`, "--- FAIL: TestGet (0.00s)", "--- FAIL: TestGet/missing (0.00s)", "FAIL\texample.com/kv\t0.003s"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q is dropped:\n%s", kept, got)
		}
	}
	q := parseQuery(verboseLog)
	if !slices.Equal(q.tests, []string{"TestGet"}) {
		t.Errorf("tests %v, want [TestGet]", q.tests)
	}
	if len(q.paths) != 1 || q.paths[0] != (pathHint{path: "kv_test.go", line: 30}) {
		t.Errorf("paths %v, want kv_test.go:30 only", q.paths)
	}
}

// TestFailedOutputOfARawCILog: GitHub Actions' raw log puts the time
// before every line; the lines are read from after it.
func TestFailedOutputOfARawCILog(t *testing.T) {
	log := timed(verboseLog)
	if got, want := failedOutput(plainLog(log)), failedOutput(verboseLog); got != want {
		t.Errorf("from a raw log:\n%s\nwant, as without the times:\n%s", got, want)
	}
	if q := parseQuery(log); !slices.Equal(q.tests, []string{"TestGet"}) || !slices.Equal(q.dirs, []string{"example.com/kv"}) {
		t.Errorf("tests %v, dirs %v; want [TestGet], [example.com/kv]", q.tests, q.dirs)
	}
	// A time on a line or two of prose is the prose's.
	text := "It broke at\n2026-11-25T05:59:41Z after the deploy\nand again later\nwith the same error\n"
	if got := failedOutput(text); got != text {
		t.Errorf("failedOutput(%q) = %q", text, got)
	}
}

// TestFailedOutputOfGoTestAll: go test ./... prints a line for each
// package that passed or has no tests; only the one that failed says
// where to look.
func TestFailedOutputOfGoTestAll(t *testing.T) {
	log := "ok  \texample.com/kv/a\t0.012s\n?   \texample.com/kv/cmd/kv\t[no test files]\n" +
		"--- FAIL: TestGet (0.00s)\n    kv_test.go:30: want false\nFAIL\nFAIL\texample.com/kv/b\t0.003s\n" +
		"ok  \texample.com/kv/c\t(cached)\nok   example.com/kv/d  1.250s  coverage: 80.0% of statements\n"
	got := failedOutput(log)
	if want := "--- FAIL: TestGet (0.00s)\n    kv_test.go:30: want false\nFAIL\nFAIL\texample.com/kv/b\t0.003s\n"; got != want {
		t.Errorf("failedOutput = %q, want %q", got, want)
	}
	if q := parseQuery(log); !slices.Equal(q.dirs, []string{"example.com/kv/b"}) {
		t.Errorf("dirs %v, want the failed package's only", q.dirs)
	}
	// Prose that starts with ok is not go test's.
	for _, text := range []string{"ok so after 5.0s it hangs\n", "ok, then `go test` fails\n"} {
		if got := failedOutput(text); got != text {
			t.Errorf("failedOutput(%q) = %q, want it unchanged", text, got)
		}
	}
}

// TestFailedOutputKeepsOtherText: output without -v (which prints only
// what failed, its messages after the result line), an issue, and a log
// whose tests did not finish are what they are.
func TestFailedOutputKeepsOtherText(t *testing.T) {
	for _, text := range []string{
		"--- FAIL: TestGet (0.00s)\n    --- FAIL: TestGet/missing (0.00s)\n        kv_test.go:30: want false\nFAIL\nFAIL\texample.com/kv\t0.003s\n",
		"Get returns true for a missing key\n\nCalling `kv.Get(\"x\")` on an empty store says it is there.\n",
		"=== RUN   TestHang\n    kv_test.go:9: waiting\npanic: test timed out after 10m0s\n",
		`{"config": true}` + "\n",
		// Nothing failed: the log is all there is to go on.
		"=== RUN   TestGet\n--- PASS: TestGet (0.00s)\nPASS\nok  \texample.com/kv\t0.003s\n",
	} {
		if got := failedOutput(text); got != text {
			t.Errorf("failedOutput(%q) = %q, want it unchanged", text, got)
		}
	}
	// go test -v ./... runs a test of one name in each package: where it
	// failed, it failed.
	twoPkgs := "=== RUN   TestParse\n    a_test.go:5: bad date\n--- FAIL: TestParse (0.00s)\nFAIL\nFAIL\texample.com/a\t0.001s\n=== RUN   TestParse\n--- PASS: TestParse (0.00s)\nPASS\nok  \texample.com/b\t0.001s\n"
	if got := failedOutput(twoPkgs); !strings.Contains(got, "a_test.go:5: bad date") {
		t.Errorf("a test that failed in one package and passed in another is dropped:\n%s", got)
	}
	// Without -v, a passed subtest's result is printed inside its failed
	// parent's, with its log after it.
	got := failedOutput("--- FAIL: TestGet (0.00s)\n    --- PASS: TestGet/present (0.00s)\n        kv_test.go:20: found a\n    --- FAIL: TestGet/missing (0.00s)\n        kv_test.go:30: want false\nFAIL\n=== RUN   TestX\n")
	if strings.Contains(got, "found a") || !strings.Contains(got, "kv_test.go:30: want false") || !strings.Contains(got, "--- FAIL: TestGet (0.00s)") {
		t.Errorf("non-verbose subtests: got\n%s", got)
	}
}

// TestFailedOutputOfGoTestJSON: go test -json is read as the text it
// encodes, less what passed.
func TestFailedOutputOfGoTestJSON(t *testing.T) {
	var b strings.Builder
	for _, l := range strings.SplitAfter(verboseLog, "\n") {
		if l == "" {
			continue
		}
		test := ""
		if f := strings.Fields(l); len(f) > 1 && (f[0] == "===" || f[0] == "---") {
			test = f[2]
		}
		e, _ := json.Marshal(map[string]string{"Time": "2026-11-25T04:00:00Z", "Action": "output", "Package": "example.com/kv", "Test": test, "Output": l})
		fmt.Fprintf(&b, "%s\n", e)
	}
	b.WriteString(`{"Action":"fail","Package":"example.com/kv","Test":"TestGet"}` + "\n")
	if got, want := failedOutput(b.String()), failedOutput(verboseLog); got != want {
		t.Errorf("from -json:\n%s\nwant, as from -v:\n%s", got, want)
	}
	// go test's stderr comes first in a log of both streams.
	if q := parseQuery("go: downloading example.com/dep v1.2.0\n" + b.String()); !slices.Equal(q.tests, []string{"TestGet"}) {
		t.Errorf("tests %v, want [TestGet]", q.tests)
	}
}

// TestBuildFromVerboseOutput: a CI log of go test -v names the package's
// passing tests too, and what they logged; so does gotestsum --format
// testname. Read as failing, they would take the room of the one that
// failed and of the code it reaches.
func TestBuildFromVerboseOutput(t *testing.T) {
	var test strings.Builder
	test.WriteString("package kv\n\nimport \"testing\"\n\n")
	var log, sum strings.Builder
	line := 5
	for k := range 12 {
		fmt.Fprintf(&test, "func TestPutIndex%c(t *testing.T) {\n\ts := New()\n\ts.Put(\"k%d\", \"v\")\n\tt.Logf(\"indexed %%d keys\", s.Index())\n}\n\n", 'A'+k, k)
		fmt.Fprintf(&log, "=== RUN   TestPutIndex%c\n    kv_test.go:%d: indexed 1 keys\n--- PASS: TestPutIndex%c (0.00s)\n", 'A'+k, line+3, 'A'+k)
		fmt.Fprintf(&sum, "PASS TestPutIndex%c (0.00s)\n", 'A'+k)
		line += 6
	}
	test.WriteString("func TestGetMissing(t *testing.T) {\n\ts := New()\n\tif _, ok := s.Get(\"x\"); ok {\n\t\tt.Errorf(\"Get(x) found a missing key\")\n\t}\n}\n")
	log.WriteString(fmt.Sprintf("=== RUN   TestGetMissing\n    kv_test.go:%d: Get(x) found a missing key\n--- FAIL: TestGetMissing (0.00s)\nFAIL\nexit status 1\nFAIL\texample.com/kv\t0.004s\n", line+3))
	fmt.Fprintf(&sum, "=== RUN   TestGetMissing\n    kv_test.go:%d: Get(x) found a missing key\n--- FAIL: TestGetMissing (0.00s)\nFAIL TestGetMissing (0.00s)\nFAIL .\n\n=== Failed\n=== FAIL: . TestGetMissing (0.00s)\n    kv_test.go:%[1]d: Get(x) found a missing key\n\nDONE 13 tests, 1 failure in 0.004s\n", line+3)
	var put, index strings.Builder
	put.WriteString("package kv\n\n// Store maps keys to values.\ntype Store struct {\n\tm    map[string]string\n\tkeys []string\n}\n\n// New is an empty store.\nfunc New() *Store { return &Store{m: map[string]string{}} }\n\n")
	index.WriteString("package kv\n\n")
	for k := range 8 {
		fmt.Fprintf(&put, "// put%d stores v under k, step %d.\nfunc (s *Store) put%d(k, v string) {\n\ts.m[k] = v\n\ts.keys = append(s.keys, k+%q)\n}\n\n", k, k, k, fmt.Sprint(k))
		fmt.Fprintf(&index, "// index%d counts the keys, step %d.\nfunc (s *Store) index%d() int {\n\tn := 0\n\tfor range s.keys {\n\t\tn += %d\n\t}\n\treturn n\n}\n\n", k, k, k, k)
	}
	put.WriteString("// Put stores v under k.\nfunc (s *Store) Put(k, v string) {\n\ts.put0(k, v)\n\ts.put1(k, v)\n}\n")
	index.WriteString("// Index is how many keys are indexed.\nfunc (s *Store) Index() int { return s.index0() + s.index1() }\n")
	files := map[string]string{
		"go.mod":     "module example.com/kv\n",
		"kv_test.go": test.String(),
		"put.go":     put.String(),
		"index.go":   index.String(),
		"get.go":     "package kv\n\n// Get is the value of k, and whether it is there.\nfunc (s *Store) Get(k string) (string, bool) {\n\tv := s.m[k]\n\treturn v, true\n}\n",
	}
	repo := newRepo(t, files)
	for name, text := range map[string]string{"go test -v": log.String(), "gotestsum --format testname": sum.String()} {
		t.Run(name, func(t *testing.T) {
			p := build(t, repo, text, 1000)
			mustPackFunc(t, p, "kv_test.go", files["kv_test.go"], "TestGetMissing")
			mustPackFunc(t, p, "get.go", files["get.go"], "(s *Store) Get")
			for _, c := range fileOf(p, "kv_test.go").Chunks {
				if slices.ContainsFunc(c.Symbols, func(s string) bool { return strings.HasPrefix(s, "TestPutIndex") }) {
					t.Errorf("a passing test is packed: %+v", c)
				}
			}
		})
	}
}

// TestFailedOutputOfGotestsum reads what gotestsum v1.13.0 prints, in
// three formats (pkgname with each kind of icon it has in letters), for a module where kv's TestGet/missing fails, TestPut,
// TestGet/present and TestLater pass (two of them logging), TestSkipped
// is skipped, store's TestOpen passes and empty has no tests: its
// summary's "=== FAIL: kv TestGet/missing" names the failing test and its
// package, and the lines of what passed or was skipped are gone,
// github-actions' groups with them.
func TestFailedOutputOfGotestsum(t *testing.T) {
	for _, format := range []string{"pkgname", "pkgname-text-icons", "pkgname-hivis-icons", "testname", "github-actions"} {
		t.Run(format, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "gotestsum-"+format+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			got := failedOutput(string(b))
			for _, gone := range []string{"TestPut", "stored a", "TestGet/present", "TestSkipped", "needs a server", "TestLater", "later ok", "store", "TestOpen", "opened", "empty", "::group::", "::endgroup::"} {
				if strings.Contains(got, gone) {
					t.Errorf("%q is kept:\n%s", gone, got)
				}
			}
			if kept := `kv_test.go:11: Get("x") = "", true; want "", false`; !strings.Contains(got, kept) {
				t.Errorf("%q is dropped:\n%s", kept, got)
			}
			q := parseQuery(string(b))
			if !q.failing || !slices.Equal(q.tests, []string{"TestGet"}) {
				t.Errorf("failing %v, tests %v; want true, [TestGet]", q.failing, q.tests)
			}
			if len(q.dirs) == 0 || slices.ContainsFunc(q.dirs, func(d string) bool { return d != "kv" }) {
				t.Errorf("dirs %v, want kv only", q.dirs)
			}
			if !slices.Equal(q.paths, []pathHint{{path: "kv_test.go", line: 11}}) {
				t.Errorf("paths %v, want kv_test.go:11 only", q.paths)
			}
		})
	}
}

// TestParseQueryBoundsAHugeLog: a log of megabytes is read as its head and
// tail: the first failure and the package that failed are both still in.
func TestParseQueryBoundsAHugeLog(t *testing.T) {
	var b strings.Builder
	b.WriteString("--- FAIL: TestDiffLargeMapKey (4.55s)\n    compare_test.go:175: Diff:\n")
	for b.Len() < 3*maxQueryBytes {
		b.WriteString("            - \t\"0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00\",\n")
	}
	b.WriteString("FAIL\nFAIL\tgithub.com/google/go-cmp/cmp\t5.012s\n")
	q := parseQuery(b.String())
	if len(q.text) > maxQueryBytes+4 {
		t.Errorf("query text %d bytes, want at most %d", len(q.text), maxQueryBytes)
	}
	if !slices.Equal(q.tests, []string{"TestDiffLargeMapKey"}) || !slices.Contains(q.dirs, "github.com/google/go-cmp/cmp") {
		t.Errorf("tests %v, dirs %v: want the failing test from the head and the package from the tail", q.tests, q.dirs)
	}
	if got := capQuery("short\n"); got != "short\n" {
		t.Errorf("capQuery of a short text = %q", got)
	}
}

// TestFailedOutputOfGotestfmt reads what gotestfmt v2.5.0 prints (its
// local template, its GitHub Actions one, and that with
// -showteststatus), colors and all, for the module of
// TestFailedOutputOfGotestsum: kv's TestGet/missing fails; the lines of
// what passed or was skipped go, with the heads of the packages where
// nothing failed; kv is the package to look in.
func TestFailedOutputOfGotestfmt(t *testing.T) {
	for _, name := range []string{"gotestfmt", "gotestfmt-github", "gotestfmt-github-status"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			q := parseQuery(string(b))
			for _, gone := range []string{"TestPut", "stored a", "TestGet/present", "found a", "TestSkipped", "needs a server", "TestLater", "later ok", "store", "TestOpen", "opened", "empty"} {
				if strings.Contains(q.text, gone) {
					t.Errorf("%q is kept:\n%s", gone, q.text)
				}
			}
			if kept := `kv_test.go:11: Get("x") = "", true; want "", false`; !strings.Contains(q.text, kept) {
				t.Errorf("%q is dropped:\n%s", kept, q.text)
			}
			if !q.failing || !slices.Equal(q.tests, []string{"TestGet"}) {
				t.Errorf("failing %v, tests %v; want true, [TestGet]", q.failing, q.tests)
			}
			if !slices.Equal(q.dirs, []string{"example.com/kvmod/kv"}) {
				t.Errorf("dirs %v, want example.com/kvmod/kv only", q.dirs)
			}
			if !slices.Equal(q.paths, []pathHint{{path: "kv_test.go", line: 11}}) {
				t.Errorf("paths %v, want kv_test.go:11 only", q.paths)
			}
		})
	}
}

// ginkgoVerbose is Ginkgo 2's verbose output (-ginkgo.v) of a suite whose
// second spec fails: each spec's report names its It's line.
const ginkgoVerbose = `Running Suite: Store Suite - /src/kv
=====================================
Random Seed: 1732795299

Will run 3 of 3 specs
------------------------------
Store gets what it put
/src/kv/store_test.go:16
• [0.000 seconds]
------------------------------
Store with spaces finds the trimmed key
/src/kv/store_test.go:25
  [FAILED] in [It] - /src/kv/store_test.go:28 @ 11/28/26 12:20:43.593
• [FAILED] [0.000 seconds]
Store with spaces [It] finds the trimmed key
/src/kv/store_test.go:25

  [FAILED] Expected
      <bool>: false
  to be true
  In [It] at: /src/kv/store_test.go:28 @ 11/28/26 12:20:43.593
------------------------------
S [SKIPPED] [0.000 seconds]
Store deletes [It] what it put
/src/kv/store_test.go:34
------------------------------

Summarizing 1 Failure:
  [FAIL] Store with spaces [It] finds the trimmed key
  /src/kv/store_test.go:28

Ran 2 of 3 Specs in 0.004 seconds
FAIL! -- 1 Passed | 1 Failed | 0 Pending | 1 Skipped
--- FAIL: TestStore (0.00s)
FAIL
FAIL	example.com/kv	0.011s
FAIL
`

// TestFailedOutputOfGinkgoVerbose: of Ginkgo's verbose output, the
// reports of the specs that passed or were skipped go (each names its
// It's line, which would count as a failing spec's); the failure's and
// the summary stay. Ginkgo 1's report of a passed spec ("•") goes too;
// the bullets of the succinct output, which name no line, stay.
func TestFailedOutputOfGinkgoVerbose(t *testing.T) {
	got := failedOutput(ginkgoVerbose)
	for _, gone := range []string{"store_test.go:16", "store_test.go:34", "gets what it put"} {
		if strings.Contains(got, gone) {
			t.Errorf("failedOutput keeps %q:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"/src/kv/store_test.go:25\n", "In [It] at: /src/kv/store_test.go:28", "Summarizing 1 Failure", "--- FAIL: TestStore", "Running Suite: Store Suite"} {
		if !strings.Contains(got, kept) {
			t.Errorf("failedOutput drops %q:\n%s", kept, got)
		}
	}
	v1 := strings.Replace(ginkgoVerbose, "• [0.000 seconds]\n", "•\n", 1)
	if got := failedOutput(v1); strings.Contains(got, "store_test.go:16") {
		t.Errorf("failedOutput keeps Ginkgo 1's passed spec:\n%s", got)
	}
	succinct := "Running Suite: Store Suite - /src/kv\n====\nWill run 3 of 3 specs\n•\n------------------------------\n• [FAILED] [0.000 seconds]\nStore [It] finds\n/src/kv/store_test.go:25\n------------------------------\n•\n\nRan 3 of 3 Specs in 0.004 seconds\nFAIL! -- 2 Passed | 1 Failed\n--- FAIL: TestStore (0.00s)\nFAIL\n"
	if got := failedOutput(succinct); got != succinct {
		t.Errorf("failedOutput(succinct) = %q, want it unchanged", got)
	}
}
