package agent

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/agentfix/agentfix/internal/patch"
	"github.com/agentfix/agentfix/internal/verify"
)

// reproduction is a test that failed on the unfixed code: from then on it
// is in the work tree, frozen, and the fix must make it pass.
type reproduction struct {
	diff  string   // the test's diff against the checkpoint
	files []string // the test files it changes
	cmds  []string // the commands narrowed to them
	tests []verify.Failure
	// before is the check on the unfixed code; after the same check on
	// the latest fix that passed it.
	before, after *verify.Report
}

// reproduce asks for a test that reproduces the task, up to
// reproduceAttempts times. Only the reply's test files are applied; they
// must make the narrowed checks fail, in a test, on the unfixed code. A
// reply that also holds the fix keeps that part for the first round. When
// no attempt reproduces the task the loop goes on without a reproduction,
// and a fix that passes the checks ends Unproven.
func (r *run) reproduce(ctx context.Context) error {
	for attempt := 1; attempt <= reproduceAttempts; attempt++ {
		if err := r.enter(StateReproduce, fmt.Sprintf("attempt %d", attempt)); err != nil {
			return err
		}
		r.conv = append(r.conv, user(r.reproduceMessage()))
		r.pending = nil
		reply, err := r.chat(ctx, chatCall{purpose: "reproduce", attempt: attempt, model: r.cfg.Model, messages: r.conv, maxReply: patchReplyTokens})
		if err != nil {
			return err
		}
		r.conv = append(r.conv, assistant(reply))
		pol := r.policy()
		pol.AllowDelete, pol.AllowRename = false, false // a reproduction adds to the tests, never removes them
		res, err := patch.Apply(r.repo.Root, reply, pol, patch.Options{Only: r.isTest})
		if err != nil {
			return fmt.Errorf("apply: %w", err)
		}
		r.record("patch", PatchEvent{Attempt: attempt, Form: "test", Applied: res.Applied, Result: res})
		if !res.Applied {
			r.logf("reproduce attempt %d: no test applied", attempt)
			if len(res.Files) == 0 && len(res.Skipped) > 0 {
				r.say(fmt.Sprintf(feedbackNoTest, strings.Join(res.Skipped, ", "), strings.Join(r.testGlobs, ", ")))
			} else {
				r.say(fmt.Sprintf(feedbackPatch, res.Feedback()))
			}
			continue
		}
		r.touched = append(r.touched, res.Files...)
		cmds := r.narrowed(res.Files)
		rep, err := r.runChecks(ctx, "reproduce", cmds)
		if err != nil {
			return err
		}
		tests, why := reproducedBy(rep, res)
		if why == "" {
			r.repro = &reproduction{diff: res.Diff, files: res.Files, cmds: cmds, tests: tests, before: rep}
			r.logf("reproduced by %s", strings.Join(testNames(tests), ", "))
			if len(res.Skipped) > 0 {
				r.held = reply // the fix the reply holds besides the test
			}
			r.say(fmt.Sprintf(feedbackReproduced, strings.Join(res.Files, ", "), strings.TrimSpace(rep.Summary(feedbackBytes))))
			if more := r.failureLook("reproduce", rep, res.Files); more != "" {
				r.say(more)
			}
			if more := r.rerank(ctx, rep, res.Files); more != "" {
				r.say(more)
			}
			return nil
		}
		r.logf("reproduce attempt %d: %s", attempt, why)
		if err := r.restore(ctx); err != nil {
			return fmt.Errorf("workspace: reset after reproduce attempt %d: %w", attempt, err)
		}
		r.say(why)
	}
	r.logf("no test reproduced the task in %d attempts; a fix can only be unproven", reproduceAttempts)
	r.say(feedbackNoReproduction)
	return nil
}

// reproduceMessage asks for the reproducing test, after the feedback
// waiting to be said.
func (r *run) reproduceMessage() string {
	var b strings.Builder
	for _, f := range r.pending {
		b.WriteString(strings.TrimSpace(f))
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, reproduceRequest, strings.Join(r.testGlobs, ", "))
	return b.String()
}

// isTest reports whether a repository path is a test file.
func (r *run) isTest(p string) bool { return verify.IsTestFile(r.testGlobs, p) }

// narrowed are the verify commands narrowed to the test files, each that
// can be; the others run whole.
func (r *run) narrowed(files []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range r.cfg.Verify.Commands {
		if n, ok := verify.Narrow(c, files); ok {
			c = n
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// reproducedBy judges a check of the test on the unfixed code. It returns
// the reproducing tests, or why the check does not reproduce the task
// (feedback for the model). A reproduction fails in a test: an assertion
// or a panic the runner attributes to a named test. A compile error (or,
// in Python, an import error) counts only when it is in the test files
// and names something missing: the task then asks for a function, method
// or parameter that does not exist yet, and a test cannot fail any other
// way. Every other failure without a test (a syntax error, an unused
// import, a suite that cannot start, a timeout) says the test is broken,
// not that the code is.
func reproducedBy(rep *verify.Report, res *patch.Result) ([]verify.Failure, string) {
	if rep.Passed {
		return nil, fmt.Sprintf(feedbackTestPasses, strings.Join(commandLines(rep), "\n"))
	}
	var tests []verify.Failure
	for _, c := range rep.Commands {
		if c.TimedOut {
			return nil, fmt.Sprintf(feedbackTestBroken, "it timed out", strings.TrimSpace(rep.Summary(feedbackBytes)))
		}
		for _, f := range c.Failures {
			if f.Test != "" {
				tests = append(tests, f)
				continue
			}
			if !containsFile(res.Files, f.File) || !onlyMissingNames(f.Output, res.Diff) {
				return nil, fmt.Sprintf(feedbackTestBroken, "it fails outside any test", strings.TrimSpace(rep.Summary(feedbackBytes)))
			}
			named := declaredTests(res.Diff, f)
			if len(named) == 0 {
				return nil, fmt.Sprintf(feedbackTestBroken, "it does not compile and declares no test function", strings.TrimSpace(rep.Summary(feedbackBytes)))
			}
			tests = append(tests, named...)
		}
	}
	if len(tests) == 0 {
		return nil, fmt.Sprintf(feedbackTestBroken, "the checks fail without naming a test", strings.TrimSpace(rep.Summary(feedbackBytes)))
	}
	return dedupe(tests), ""
}

// missingName matches the compiler and import errors that name something
// the code does not have yet.
var missingName = regexp.MustCompile(`undefined: |has no field or method |not enough arguments in call|too many arguments in call|cannot import name |has no attribute `)

// goCompileError is one error line of the Go compiler.
var goCompileError = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: (.*)$`)

// onlyMissingNames reports whether every compile error in out names
// something missing from the code under test. For Go each error line must;
// an undefined name the test uses as a package (testing.T) is a missing
// import, the test's own fault. Output without Go errors (pytest's
// collection error) must name a missing name somewhere.
func onlyMissingNames(out, diff string) bool {
	errs := goCompileError.FindAllStringSubmatch(out, -1)
	if len(errs) == 0 {
		return missingName.MatchString(out)
	}
	for _, m := range errs {
		msg := m[1]
		if !missingName.MatchString(msg) {
			return false
		}
		if name, ok := strings.CutPrefix(msg, "undefined: "); ok && regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\.[A-Z]`).MatchString(diff) {
			return false
		}
	}
	return true
}

// declaredTests are the tests the diff adds to f's file, named as the
// runner names them: TestX for go test, file::test_x for pytest.
var (
	goTestDecl = regexp.MustCompile(`(?m)^\+func (Test\w*)\(`)
	pyTestDecl = regexp.MustCompile(`(?m)^\+(?:    )?def (test\w*)\(`)
)

func declaredTests(diff string, f verify.Failure) []verify.Failure {
	var out []verify.Failure
	for _, d := range strings.Split(diff, "\ndiff --git ") {
		if !strings.Contains(d, "+++ b/"+f.File+"\n") {
			continue
		}
		switch path.Ext(f.File) {
		case ".go":
			for _, m := range goTestDecl.FindAllStringSubmatch(d, -1) {
				out = append(out, verify.Failure{Test: m[1], Package: f.Package, File: f.File})
			}
		case ".py":
			for _, m := range pyTestDecl.FindAllStringSubmatch(d, -1) {
				out = append(out, verify.Failure{Test: f.File + "::" + m[1], Package: f.File, File: f.File})
			}
		}
	}
	return out
}

func commandLines(rep *verify.Report) []string {
	out := make([]string, len(rep.Commands))
	for i, c := range rep.Commands {
		out[i] = c.Command()
	}
	return out
}

func containsFile(files []string, f string) bool {
	for _, x := range files {
		if x == f {
			return true
		}
	}
	return false
}

func dedupe(fs []verify.Failure) []verify.Failure {
	var out []verify.Failure
	seen := map[string]bool{}
	for _, f := range fs {
		if !seen[f.ID()] {
			seen[f.ID()] = true
			out = append(out, f)
		}
	}
	return out
}

func testNames(fs []verify.Failure) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Test
		if out[i] == "" {
			out[i] = f.ID()
		}
	}
	return out
}

// checkReproduction runs the reproducing tests on the patched tree: the
// narrowed commands must pass, and every reproducing test must be seen
// passing where the runner names the tests that pass, so that a fix that
// skips or deselects the test (a TestMain that exits early, a conftest
// that skips) proves nothing.
func (r *run) checkReproduction(ctx context.Context) (*verify.Report, error) {
	rep, err := r.runChecks(ctx, "reproduced", r.repro.cmds)
	if err != nil {
		return nil, err
	}
	if missing := rep.NotSeenPassing(r.repro.tests); rep.Passed && len(missing) > 0 {
		rep.Passed = false
		for _, f := range missing {
			f.Output = notSeenPassing
			rep.Commands[0].Failures = append(rep.Commands[0].Failures, f)
		}
		rep.Commands[0].Passed = false
		r.logf("reproducing tests not seen passing: %s", strings.Join(testNames(missing), ", "))
	}
	if rep.Passed {
		r.repro.after = rep
	}
	return rep, nil
}

const notSeenPassing = "this test reproduces the task and must run and pass; the runner did not report it passing (it was skipped, deselected or never ran)\n"

// reapplyTest puts the frozen test back after the work tree was reset to
// the checkpoint.
func (r *run) reapplyTest() error {
	if r.repro == nil {
		return nil
	}
	pol := r.policy()
	pol.Frozen = nil
	res, err := patch.Apply(r.repo.Root, r.repro.diff, pol, patch.Options{})
	if err != nil {
		return err
	}
	if !res.Applied {
		return fmt.Errorf("the reproducing test no longer applies: %s", res.Feedback())
	}
	r.touched = append(r.touched, res.Files...)
	return nil
}

// proof is the evidence the result carries.
func (r *run) proof() *Proof {
	switch {
	case r.repro != nil:
		return &Proof{Kind: ProofReproduced, Tests: testNames(r.repro.tests), Files: r.repro.files, Before: r.repro.before, After: r.repro.after}
	case r.before != nil && !r.before.Passed:
		p := &Proof{Kind: ProofFailingChecks, Tests: testNames(r.before.Failures()), Files: []string{}, Before: r.before}
		if r.best.report != nil && r.best.report.Passed {
			p.After = r.best.report
		}
		return p
	}
	return &Proof{Kind: ProofNone, Tests: []string{}, Files: []string{}}
}
