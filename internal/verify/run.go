// Package verify runs the allowlisted test commands that prove a fix, and
// turns their output into failures a model (and a person) can act on.
//
// Commands are parsed and checked against the allowlist before anything
// runs; they run as argv, never through a shell, each in its own process
// group with an empty stdin, a scrubbed environment, a timeout and an
// output cap. For go test, -json is added and the event stream parsed; the
// other runners' standard summaries are parsed from their text.
package verify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// Defaults for the zero values of Options.
const (
	DefaultTimeout   = 15 * time.Minute
	DefaultKillGrace = 5 * time.Second
	DefaultOutputCap = 4 << 20
)

// Options say where and how commands run.
type Options struct {
	// Dir is the working directory (inside the repository). Failure files
	// are relative to it.
	Dir string
	// Timeout bounds each command (and each re-run); then the process group
	// gets SIGTERM, and SIGKILL after KillGrace.
	Timeout   time.Duration
	KillGrace time.Duration
	// Allow is verify.allow from the config, on top of BuiltinAllow.
	Allow []string
	// Env are verify.env entries (NAME passes a variable, NAME=value sets
	// one) and EnvPassthrough the names of verify.env_passthrough, which
	// pass like NAME entries.
	Env, EnvPassthrough []string
	// Environ is agentfix's environment (os.Environ() in the CLI), from
	// which TestEnv builds the commands' environment by allow-list.
	Environ []string
	// Sandbox says how commands are contained; the zero value sandboxes
	// them where bubblewrap works.
	Sandbox Sandbox
	// OutputCap is the bytes of output kept per command, head and tail
	// (DefaultOutputCap when 0).
	OutputCap int
	// Log receives the output live (for go test, the text, not the JSON).
	// It may be nil. Write errors on it are ignored.
	Log io.Writer
	// Actions folds each command's output in Log into a ::group:: block and
	// stops workflow-command processing inside it, so test output cannot
	// issue workflow commands.
	Actions bool
	// FlakyReruns is how many times failing tests are re-run; a test that
	// passes on a re-run is reported as flaky, not as a failure.
	FlakyReruns int
}

func (o Options) withDefaults() (Options, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.KillGrace <= 0 {
		o.KillGrace = DefaultKillGrace
	}
	if o.OutputCap <= 0 {
		o.OutputCap = DefaultOutputCap
	}
	if o.Dir == "" {
		o.Dir = "."
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return o, fmt.Errorf("verify: directory %s: %w", o.Dir, err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return o, fmt.Errorf("verify: directory %s does not exist or is not a directory", o.Dir)
	}
	o.Dir = dir
	return o, nil
}

// ErrStart is wrapped by Run's error when a command could not be started
// (not installed, not executable): fix the environment, not the code.
var ErrStart = errStart

// Run parses every command (refusing one that is not allowlisted with a
// *RefusedError before running anything) and runs them in order. All run,
// even after a failure, so the report is complete. The error is non-nil
// only when a command was refused, could not be started, or ctx ended;
// failing tests are in the report.
func Run(ctx context.Context, cmds []string, opts Options) (*Report, error) {
	if len(cmds) == 0 {
		return nil, errors.New("verify: no commands to run; set verify.commands in .github/agent-fix.yml")
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	argvs := make([][]string, len(cmds))
	for i, c := range cmds {
		if argvs[i], err = ParseCommand(c, opts.Allow); err != nil {
			return nil, err
		}
	}
	from := envMap(opts.Environ)
	sb, err := prepareSandbox(opts, from)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	defer sb.cleanup()
	r := &runner{opts: opts, sandbox: sb, env: TestEnv(opts.Environ, append(append([]string(nil), opts.EnvPassthrough...), opts.Env...), sandboxVars(sb.info, from))}
	rep := &Report{Passed: true, Commands: []CommandResult{}, Flaky: []Failure{}, Sandbox: sb.info}
	for i, argv := range argvs {
		res, err := r.runOne(ctx, argv, false)
		if err == nil && !res.Passed && opts.FlakyReruns > 0 {
			err = r.rerunFailures(ctx, cmds[i], &res)
		}
		if err != nil {
			return rep, fmt.Errorf("verify: run %q: %w", cmds[i], err)
		}
		rep.Commands = append(rep.Commands, res)
		rep.Flaky = append(rep.Flaky, res.Flaky...)
		rep.Passed = rep.Passed && res.Passed
	}
	return rep, nil
}

// runner runs commands with one set of options and one environment.
type runner struct {
	opts    Options
	env     []string
	sandbox *sandboxed
}

// sandboxVars are the variables the sandbox sets: a home and a /tmp of the
// command's own (the real home's path, emptied, so that the toolchains'
// defaults find the caches put back in it). Unsandboxed, HOME and TMPDIR
// are agentfix's.
func sandboxVars(info *SandboxInfo, from map[string]string) []string {
	if !info.Enabled {
		var set []string
		for _, k := range []string{"HOME", "TMPDIR"} {
			if v, ok := from[k]; ok {
				set = append(set, k+"="+v)
			}
		}
		return set
	}
	home := from["HOME"]
	if home == "" || home == "/" {
		home = "/tmp"
	}
	return []string{"HOME=" + home, "TMPDIR=/tmp"}
}

// envMap is environ as a map; later duplicates win.
func envMap(environ []string) map[string]string {
	m := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			m[k] = v
		}
	}
	return m
}

// runOne runs argv once and parses its failures.
// rerun marks a re-run of failing tests in the log.
func (r *runner) runOne(ctx context.Context, argv []string, rerun bool) (CommandResult, error) {
	t := toolFor(argv)
	if t == toolGoTest {
		argv = withGoJSON(argv)
	}
	capture := newCapBuffer(r.opts.OutputCap)
	var sink io.Writer = capture
	var log *trackingWriter
	var safe *untrusted.LogWriter
	if r.opts.Log != nil {
		log = &trackingWriter{w: r.opts.Log, last: '\n'}
		// The command's output may hold anything the model's code prints:
		// no line of it may start a workflow command, also besides
		// ::stop-commands:: (which a local run does not write).
		safe = untrusted.NewLogWriter(log)
		sink = io.MultiWriter(capture, safe)
	}
	out := sink
	var gj *goJSON
	if t == toolGoTest {
		gj = newGoJSON(sink)
		out = gj
	}
	run := argv
	if r.sandbox.info.Enabled {
		// bwrap would report a missing tool as a failing command.
		tool := argv[0]
		if strings.Contains(tool, "/") && !filepath.IsAbs(tool) {
			tool = filepath.Join(r.opts.Dir, tool)
		}
		if lookPathIn(tool, envMap(r.env)["PATH"]) == "" {
			return CommandResult{}, fmt.Errorf("%w %s: not found on PATH inside the sandbox (a tool under the home directory needs verify.readable)", errStart, argv[0])
		}
		run = append(append([]string(nil), r.sandbox.prefix...), argv...)
	}
	join, cgroupFD, limited, err := r.sandbox.contain()
	if err != nil {
		return CommandResult{}, fmt.Errorf("limit the command: %w", err)
	}
	endGroup := r.startGroup(log, argv, rerun)
	p := &proc{
		argv: append(join, run...), dir: r.opts.Dir, env: r.env, out: out,
		timeout: r.opts.Timeout, grace: r.opts.KillGrace,
		marker:   "AGENTFIX_VERIFY_RUN=" + randomHex(),
		cgroupFD: cgroupFD,
	}
	pr, err := p.run(ctx)
	stopped := limited()
	if gj != nil {
		gj.Flush()
	}
	if safe != nil {
		safe.Flush()
	}
	endGroup()
	if err != nil {
		return CommandResult{}, err
	}
	if ctx.Err() != nil {
		return CommandResult{}, ctx.Err()
	}
	res := CommandResult{
		Argv:       argv,
		ExitCode:   pr.exitCode,
		DurationMS: pr.duration.Milliseconds(),
		TimedOut:   pr.timedOut,
		Truncated:  capture.Truncated(),
		Passed:     pr.exitCode == 0 && !pr.timedOut,
		Failures:   []Failure{},
		Output:     capture.String(),
	}
	switch {
	case gj != nil:
		res.passing = gj.passing()
	case t == toolCargo:
		res.passing = cargoPassing(stripANSI(res.Output))
	case t == toolPytest:
		res.passing = pytestPassing(stripANSI(res.Output), pytestNames(argv))
	case t == toolJS:
		res.passing = tapPassing(stripANSI(res.Output))
	}
	if res.Passed {
		return res, nil
	}
	if gj != nil {
		res.Failures = gj.failures(newGoLocator(r.opts.Dir), pr.timedOut)
	}
	if len(res.Failures) == 0 {
		res.Failures = textFailures(t, res.Output, r.opts.Dir)
	}
	if pr.timedOut {
		note := fmt.Sprintf("(agentfix: killed after the %s timeout)\n", r.opts.Timeout)
		res.Failures[len(res.Failures)-1].Output += note
	}
	if stopped != "" {
		res.Failures[len(res.Failures)-1].Output += "(agentfix: " + stopped + ")\n"
	}
	for i := range res.Failures {
		res.Failures[i].Output = TrimMiddle(res.Failures[i].Output, perFailureCap)
	}
	return res, nil
}

// startGroup writes a heading for argv to the log and returns what ends
// it. In Actions the heading opens a ::group::, and ::stop-commands:: with
// a random token keeps the command's own output from being read as
// workflow commands.
func (r *runner) startGroup(log *trackingWriter, argv []string, rerun bool) func() {
	if log == nil {
		return func() {}
	}
	title := Join(argv)
	if rerun {
		title += "  (re-run of the failing tests, to tell flaky from broken)"
	}
	if !r.opts.Actions {
		fmt.Fprintf(log, "$ %s\n", title)
		return func() {
			if log.last != '\n' {
				io.WriteString(log, "\n")
			}
		}
	}
	token := randomHex()
	fmt.Fprintf(log, "::group::%s\n::stop-commands::%s\n", escapeData(title), token)
	return func() {
		if log.last != '\n' {
			io.WriteString(log, "\n")
		}
		fmt.Fprintf(log, "::%s::\n::endgroup::\n", token)
	}
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// trackingWriter remembers the last byte written and swallows write errors,
// so a broken log never stalls the command's output pipe.
type trackingWriter struct {
	w    io.Writer
	last byte
}

func (t *trackingWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		t.last = p[len(p)-1]
		t.w.Write(p)
	}
	return len(p), nil
}

// withGoJSON adds -json to go test unless it is there already.
func withGoJSON(argv []string) []string {
	k, _ := goSub(argv)
	for _, a := range argv[k+1:] {
		if a == "-args" || a == "--args" {
			break
		}
		if a == "-json" || a == "--json" || a == "-json=true" || a == "--json=true" {
			return argv
		}
	}
	out := append(append(slices.Clone(argv[:k+1]), "-json"), argv[k+1:]...)
	return out
}

func randomHex() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
