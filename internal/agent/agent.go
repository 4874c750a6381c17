// Package agent is the plan → patch → verify loop: it turns a task (an
// issue's text or failing checks) into a diff that the configured verify
// commands prove, driving an Ollama model. Every transition of its small
// state machine, every prompt, reply, patch and check goes into the session
// record, which Replay can re-run without a model server.
package agent

import (
	"io"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// Task is what to fix.
type Task struct {
	// Title and Body are the text (or the --task text as Title).
	Title string `json:"title,omitempty"`
	Body  string `json:"body,omitempty"`
	// Failing is the report of the checks that failed before any change
	// (see CheckBefore); nil when they passed. The loop narrows its first
	// checks to these failures and shows them to the model.
	Failing *verify.Report `json:"failing,omitempty"`
}

// Job is one run of the loop.
type Job struct {
	// Repo is the opened work tree and Checkpoint its clean state, which
	// every failed round returns to.
	Repo       *workspace.Repo
	Checkpoint *workspace.Checkpoint
	Config     *config.Config
	Task       Task
	// Instructions are the repository's instructions for agents, read
	// from the base branch (never a PR's head): they go into the stable
	// prompt prefix, after the system prompt.
	Instructions []instructions.File
	// Model answers chat requests; *llm.Client satisfies it, a
	// ReplayModel supplies the recorded replies.
	Model Model
	// Record receives the session record; nil records nothing.
	Record *session.Recorder
	// Log receives progress for a person; nil discards it.
	Log io.Writer
	// Environ is the base environment of the verify commands (verify
	// scrubs secrets from it); nil means the process's environment.
	Environ []string
	// Version is agentfix's version, for the record.
	Version string
	// Actions folds verify output in Log into ::group:: blocks (GitHub
	// Actions logs).
	Actions bool
	// Progress is told every state the loop enters; nil tells no one. It
	// is called on the loop's goroutine and must not block.
	Progress func(Progress)
	// Reproduce asks the model for a test that reproduces the task before
	// any fix: it must fail on the unfixed code, is frozen from then on,
	// and a fix is Fixed only when it passes with the full commands. A fix
	// that passes the commands without such a test is Unproven. For a
	// task given as text while the checks pass (verify.proof: test).
	Reproduce bool
	// Frozen are test files no patch may change, rename or delete: the
	// existing proof of a pull request being revised, which the suite
	// must still pass as written.
	Frozen []string
}

// Progress is where the loop is: a state and, from the first patch on, the
// round out of the configured rounds.
type Progress struct {
	State     State
	Round     int
	MaxRounds int
}

// Results of a run. (A job whose checks pass before any change never
// reaches the loop: the pipeline ends it with nothing to do.)
const (
	Fixed    = "fixed"
	NotFixed = "not-fixed"
	// Unproven: the verify commands pass with the change, but no test
	// showed the task's problem on the unfixed code, so nothing shows the
	// change fixes it.
	Unproven = "unproven"
)

// Stop reasons: why the loop ended.
const (
	StopVerified    = "verified"      // the full verify commands pass
	StopMaxRounds   = "max-rounds"    // limits.max_rounds used up
	StopWallTime    = "wall-time"     // limits.wall_time used up
	StopSameDiff    = "same-diff"     // the model proposed a diff it had proposed before
	StopSameFailure = "same-failure"  // the same failure signature three rounds running
	StopInterrupted = "interrupted"   // SIGINT/SIGTERM, or the caller cancelled
	StopError       = "error"         // an unrecoverable error; StopDetail says which
	StopRecord      = "record-failed" // the session record could not be written: a fix without its evidence is not kept
	StopUnproven    = "unproven"      // the verify commands pass, but no test reproduced the task
)

// Seed is the sampling seed of every request: with temperature 0 it makes
// the same prompt give the same reply.
const Seed = 42

// Limits of the loop that are not configurable.
const (
	sameFailureRounds = 3    // rounds with one failure signature that trip the breaker
	planAttempts      = 3    // one plan request and two retries with the error
	diffAttempts      = 2    // unified-diff attempts per round before SEARCH/REPLACE
	feedbackBytes     = 6000 // cap on a verify summary fed back to the model
	patchReplyTokens  = 4096 // reply room for a patch
	planReplyTokens   = 2048 // reply room and limit for a plan
	reviewReplyTokens = 1024 // reply room and limit for a reviewer's verdict
	reproduceAttempts = 3    // requests for a test that reproduces a task given as text
	minBudget         = 1024 // smallest context pack, in tokens
	maxBudget         = 12288
	reservedTokens    = 6144 // prompt room kept for the task and the conversation
)

// Result is the outcome of Run.
type Result struct {
	// Result is Fixed, NotFixed or Unproven.
	Result string `json:"result"`
	// Rounds is how many patch rounds ran.
	Rounds int `json:"rounds"`
	// Diff is the verified fix, or the best attempt when not fixed.
	Diff string `json:"diff"`
	// Files are the files Diff touches.
	Files []string `json:"files"`
	// Plan is the model's plan, nil when it gave no valid one.
	Plan *Plan `json:"plan,omitempty"`
	// Verify is the last check report (the full commands when fixed).
	Verify *verify.Report `json:"verify"`
	// Before is the report of the failing checks the task started from.
	Before *verify.Report `json:"before,omitempty"`
	// Proof is the evidence that the change fixes the task.
	Proof   *Proof  `json:"proof"`
	Timings Timings `json:"timings"`
	Tokens  Tokens  `json:"tokens"`
	// StopReason is one of the Stop* constants; StopDetail says more.
	StopReason string `json:"stop_reason"`
	StopDetail string `json:"stop_detail,omitempty"`
	// Model and Digest identify the model that wrote the fix.
	Model  string `json:"model"`
	Digest string `json:"digest,omitempty"`
	// Head is the commit the run started from.
	Head string `json:"head"`
	// Drift lists the paths where the work tree of a fix was not Head
	// with Diff applied once the verify commands had run: the code under
	// test changed them. A commit of the fix holds Diff alone.
	Drift []string `json:"drift,omitempty"`
}

// Timings are where the run's wall time went, in milliseconds.
type Timings struct {
	ModelMS  int64 `json:"model_ms"`
	VerifyMS int64 `json:"verify_ms"`
	TotalMS  int64 `json:"total_ms"`
}

// OverheadMS is the time agentfix itself took: the total minus model and
// verify time.
func (t Timings) OverheadMS() int64 { return t.TotalMS - t.ModelMS - t.VerifyMS }

// Tokens are the tokens the model read and wrote over the run.
type Tokens struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
}

// Proof is the evidence a fix is judged by.
type Proof struct {
	// Kind is ProofReproduced, ProofFailingChecks or ProofNone.
	Kind string `json:"kind"`
	// Tests are the tests that failed on the unfixed code, as the runner
	// names them (TestAbsNegative, tests/test_x.py::test_y).
	Tests []string `json:"tests"`
	// Files are the test files of a reproduction, which the fix may not
	// change.
	Files []string `json:"files"`
	// Before is the check of those tests on the unfixed code; After the
	// same check with the fix (nil until a fix passed it).
	Before *verify.Report `json:"before,omitempty"`
	After  *verify.Report `json:"after,omitempty"`
}

// Kinds of proof.
const (
	// ProofReproduced: a test the model wrote failed on the unfixed code
	// and passes with the fix, and so do the full commands.
	ProofReproduced = "reproduced"
	// ProofFailingChecks: the verify commands failed before any change
	// (nightly, /agent check, fix --failing, or a suite already red) and
	// pass with the fix.
	ProofFailingChecks = "failing-checks"
	// ProofNone: nothing failed before the change.
	ProofNone = "none"
)
