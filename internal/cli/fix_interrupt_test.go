package cli

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// TestFixEndToEndInterruptedMidStream cancels the run while the patch
// request hangs, as main does on a signal (the signal itself, through the
// built binary, is a hardening row): the tree is restored, Ctrl-C exits
// 130 as shells expect, SIGTERM 1.
func TestFixEndToEndInterruptedMidStream(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 1}, {syscall.SIGINT, 130}} {
		t.Run(tc.sig.String(), func(t *testing.T) { interruptMidStream(t, tc.sig, tc.code) })
	}
}

func interruptMidStream(t *testing.T, sig syscall.Signal, want int) {
	repo := fixRepo(t)
	srv := ollamafake.New(t, ollamafake.Model{Name: e2eModel})
	srv.Script(e2eModel, ollamafake.Text(e2ePlan))
	srv.Respond(e2eModel, func(ollamafake.Request) ollamafake.Reply { return ollamafake.Hang() })
	ctx, interrupt := context.WithCancelCause(context.Background())
	defer interrupt(nil)
	var stdout, stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Main(ctx, []string{"fix", "--repo", repo, "--task", "Sum drops the first element", "--ollama-host", srv.URL}, fixEnv(&stdout, &stderr))
	}()
	for len(srv.Chats()) < 2 { // the patch request is hanging
		select {
		case code := <-done:
			t.Fatalf("fix ended (exit %d) before the patch request\n%s", code, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	interrupt(Interrupted{Signal: sig})
	if code := <-done; code != want || !strings.Contains(stdout.String(), "interrupted") {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, want, stdout.String(), stderr.String())
	}
	if strings.Contains(stdout.String(), "interrupted: interrupted") {
		t.Errorf("the stop reason is said twice:\n%s", stdout.String())
	}
	if st := fixGit(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("tree not restored:\n%s", st)
	}
}
