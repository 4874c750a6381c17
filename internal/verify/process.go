package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// proc is one command to run as its own process group.
type proc struct {
	argv    []string
	dir     string
	env     []string
	timeout time.Duration
	grace   time.Duration
	out     io.Writer // stdout and stderr, in order
	// marker is a NAME=value entry added to env; every process that
	// inherits it is killed when the command ends, even one that left the
	// process group.
	marker string
	// cgroupFD is an open cgroup v2 directory the command starts in
	// (clone3's CLONE_INTO_CGROUP), so it is limited before it can fork;
	// 0 for none (fd 0 is stdin, which Go keeps open).
	cgroupFD int
}

// procResult is how a proc ended.
type procResult struct {
	exitCode int
	timedOut bool
	duration time.Duration
}

// errStart says the command could not be started at all (not installed,
// not executable): an environment problem, not a test failure.
var errStart = errors.New("cannot start")

// run starts p with an empty stdin and waits for it. At the timeout (or
// when ctx ends) the process group gets SIGTERM, and SIGKILL after the
// grace period. When the command ends, whatever is left of its group, and
// every process carrying its marker, is killed: nothing outlives the run.
func (p *proc) run(ctx context.Context) (procResult, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()

	pr, pw, err := os.Pipe()
	if err != nil {
		return procResult{}, fmt.Errorf("create output pipe: %w", err)
	}
	growPipe(pw)
	cmd := exec.CommandContext(ctx, p.argv[0], p.argv[1:]...)
	cmd.Dir = p.dir
	cmd.Env = append(append([]string(nil), p.env...), p.marker)
	cmd.Stdin = nil // /dev/null
	// Both streams go to one pipe whose reader we own, so Wait returns when
	// the process exits even if a grandchild still holds the pipe.
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = sysProcAttr(p.cgroupFD)
	var signalled atomic.Bool
	cmd.Cancel = func() error {
		signalled.Store(true)
		return signalGroup(cmd.Process.Pid, syscall.SIGTERM)
	}
	// exec's own WaitDelay only kills the leader; the group kill is below.
	cmd.WaitDelay = 0

	start := time.Now()
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return procResult{}, fmt.Errorf("%w %s: %v", errStart, p.argv[0], err)
	}
	pw.Close()
	pgid := cmd.Process.Pid

	copied := make(chan struct{})
	go func() {
		defer close(copied)
		// A large buffer (and pipe, see growPipe) means fewer reads and
		// context switches for chatty suites.
		io.CopyBuffer(onlyWriter{p.out}, pr, make([]byte, 256<<10))
	}()

	// SIGKILL the group once the grace period after SIGTERM is over.
	exited := make(chan struct{})
	go func() {
		select {
		case <-exited:
		case <-ctx.Done():
			select {
			case <-exited:
			case <-time.After(p.grace):
				signalGroup(pgid, syscall.SIGKILL)
			}
		}
	}()

	waitErr := cmd.Wait()
	close(exited)
	res := procResult{duration: time.Since(start), exitCode: -1}
	if cmd.ProcessState != nil {
		res.exitCode = cmd.ProcessState.ExitCode()
	}
	// A command that ended on its own just as the clock ran out did not
	// time out.
	res.timedOut = signalled.Load() && errors.Is(ctx.Err(), context.DeadlineExceeded)

	// The leader is gone; its group and anything carrying the marker must
	// follow, or they could keep the pipe (and the machine) busy.
	signalGroup(pgid, syscall.SIGKILL)
	killMarked(p.marker)

	select {
	case <-copied:
	case <-time.After(2 * time.Second):
		// A process we could not find still holds the pipe: stop reading.
	}
	pr.Close()
	<-copied

	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !res.timedOut && ctx.Err() == nil {
		return res, fmt.Errorf("wait for %s: %w", p.argv[0], waitErr)
	}
	return res, nil
}

// onlyWriter hides any ReadFrom of the writer, so io.CopyBuffer uses the
// given buffer.
type onlyWriter struct{ io.Writer }
