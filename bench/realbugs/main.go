// Command realbugs measures agentfix's context engine on real bug fixes:
// patch releases of public Go modules whose test change fails on the
// release before. Every case is rebuilt from the Go module proxy at run
// time; only the case list (cases.json) is kept here.
//
// It reports, per budget and query kind (the failing test output, the
// issue text), file recall and site recall (the share of the fix's changed
// lines of the buggy release that a packed chunk shows, and the share of
// cases where a pack shows all of them), for the engine, for plain BM25
// over whole files, and for the engine followed by the look step with a
// scripted model that asks for what its plan names.
//
// Usage:
//
//	go run ./bench/realbugs [-cases bench/realbugs/cases.json] [-v] [-only ID]
//	go run ./bench/realbugs -gotest v    # the failing output as go test -v of the package
//	go run ./bench/realbugs -gotest gotestsum -gotestsum-format testname
//	go run ./bench/realbugs -gotest gotestfmt
//	go run ./bench/realbugs -ci-log actions-job  # the failing output in a GitHub Actions job's raw log
//	go run ./bench/realbugs -issue-head bench/realbugs/go-env-head.txt
//	go run ./bench/realbugs -executed    # which sites are in functions the failing tests run
//	go run ./bench/realbugs -show ID     # what ID's issue text is written from
//	go run ./bench/realbugs -check       # no issue text leaks the fix
//	go run ./bench/realbugs -discover MODULE... > candidates.jsonl
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

func main() {
	disc := flag.Bool("discover", false, "find candidate cases in the patch releases of the modules named as arguments; print them as JSON lines")
	flag.IntVar(&perModuleLimit, "per-module", perModuleLimit, "with -discover, keep at most this many cases per module, newest releases first")
	flag.BoolVar(&findSuites, "suites", false, "with -discover, take the releases whose changed tests are Ginkgo specs or test suites' methods (testify, gocheck) too, run through the Test functions that run them")
	cases := flag.String("cases", "bench/realbugs/cases.json", "the case list, or several, comma-separated, measured as one")
	verbose := flag.Bool("v", false, "print each case's figures and misses")
	only := flag.String("only", "", "measure only the case with this id")
	flag.IntVar(&verboseBudget, "vbudget", 16384, "the budget whose misses -v prints")
	flag.StringVar(&verboseWho, "vwho", "engine", "the ranker whose misses -v prints: "+strings.Join(whos, ", "))
	flag.StringVar(&packsDir, "packs", "", "write each engine pack's text to this directory, a file per case, query kind and budget (the corpus of bench/tokens)")
	flag.BoolVar(&keepTrees, "keep", false, "keep each case's trees (printed to stderr) to look at them, e.g. with agentfix context")
	check := flag.Bool("check", false, "check that no issue text names an identifier that only the fix's changed code lines show (not the test change, release notes or exported API); with -only, one case")
	digestFile := flag.String("digest", "", "write each case's engine pack digest per query kind and budget (SHA-256 of its text and files) to this file, to prove that a change to the engine packs the same")
	showID := flag.String("show", "", "print what the issue text of the case with this id is written from: its test change, release notes change and failing output (never the fix)")
	flag.StringVar(&goTestMode, "gotest", "", "v, json, all, gotestsum, gotestfmt or ginkgo: measure each case's failing output as a CI log shows it, run on the buggy tree now: go test -v (or -json) of every test of its package, go test ./... of the whole module (all), or the package's go test -json as "+goTestSum+" prints it (gotestsum), or as "+goTestFmt+" prints it in a GitHub Actions job (gotestfmt), or go test -ginkgo.v of its package, Ginkgo's report of every spec (ginkgo; go test -v where the package has no Ginkgo specs); not the failing tests' output the case keeps")
	flag.StringVar(&goTestSumFormat, "gotestsum-format", goTestSumFormat, "with -gotest gotestsum, gotestsum's --format: pkgname, testname, github-actions, pkgname-and-test-fails, standard-verbose, ...")
	flag.StringVar(&goTestCache, "gotest-cache", "", "with -gotest, keep each case's go test output in this directory and reuse it")
	flag.StringVar(&ciLog, "ci-log", "", "actions or actions-job: measure each case's failing output (the stored one, or -gotest's) as GitHub Actions' raw log of the step that ran it (every line time-stamped, the step's group, its command in color), or of the whole job (the runner's set-up, checkout and setup-go before the step, their cleanup after)")
	flag.BoolVar(&runnerPaths, "runner-paths", false, "measure each case's failing output with the absolute paths a GitHub-hosted runner prints (the checkout under /home/runner/work/REPO/REPO, Go under /opt/hostedtoolcache, the module cache under /home/runner/go/pkg/mod) in place of this machine's")
	flag.StringVar(&subdir, "subdir", "", "measure each case with its module in this directory of the repository (no go.mod at the root), as a repository that holds more than Go or more than one module has it")
	flag.BoolVar(&executedMode, "executed", false, "run each case's failing tests with coverage (go test -coverpkg=./... -cover) on the buggy tree and say which of the fix's sites are in functions they run, and which fixed files they do not lead to; adds the row kind executed: the failing output's figures on the cases whose every site is in a function the tests run, or in none")
	flag.BoolVar(&quoteFailing, "quote", false, "measure each case's failing output quoted, as a report quotes it: \"> \" before each line")
	issueHeadFile := flag.String("issue-head", "", "put this file's text before each issue text, as a bug report template puts its questions and the reporter's go version and go env output (bench/realbugs/go-env-head.txt)")
	flag.Parse()
	if *issueHeadFile != "" {
		b, err := os.ReadFile(*issueHeadFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realbugs: -issue-head: %v\n", err)
			os.Exit(1)
		}
		issueHead = string(b)
	}
	if goTestMode != "" && !slices.Contains(goTestModes, goTestMode) {
		fmt.Fprintf(os.Stderr, "realbugs: -gotest %q is not a mode; use one of %s\n", goTestMode, strings.Join(goTestModes, ", "))
		os.Exit(2)
	}
	if ciLog != "" && !slices.Contains(ciLogs, ciLog) {
		fmt.Fprintf(os.Stderr, "realbugs: -ci-log %q is not a CI log form; use one of %s\n", ciLog, strings.Join(ciLogs, ", "))
		os.Exit(2)
	}
	if goTestCache != "" {
		if err := os.MkdirAll(goTestCache, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "realbugs: -gotest-cache: %v\n", err)
			os.Exit(1)
		}
	}
	if !slices.Contains(whos, verboseWho) {
		fmt.Fprintf(os.Stderr, "realbugs: -vwho %q is not a ranker; use one of %s\n", verboseWho, strings.Join(whos, ", "))
		os.Exit(2)
	}
	if *disc {
		if err := discover(flag.Args(), os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "realbugs:", err)
			os.Exit(1)
		}
		return
	}
	if packsDir != "" {
		// Made before the cases are built, so that a directory that cannot
		// be is said at once, not after the first case's minutes.
		if err := os.MkdirAll(packsDir, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "realbugs: -packs: %v\n", err)
			os.Exit(1)
		}
	}
	cs, err := readCases(*cases)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realbugs:", err)
		os.Exit(1)
	}
	switch {
	case *check:
		err = checkIssues(cs, *only, os.Stdout)
	case *showID != "":
		err = showCase(cs, *showID, os.Stdout)
	default:
		var digests strings.Builder
		if *digestFile != "" {
			packDigests = &digests
		}
		err = measure(cs, *only, *verbose, os.Stdout)
		if err == nil && *digestFile != "" {
			err = os.WriteFile(*digestFile, []byte(digests.String()), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realbugs:", err)
		os.Exit(1)
	}
}
