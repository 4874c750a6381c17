package gohang

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestHang leaves two children behind, one of them in its own session
// (out of the process group), ignores SIGTERM and never ends.
func TestHang(t *testing.T) {
	signal.Ignore(syscall.SIGTERM)
	inGroup := exec.Command("sleep", "300")
	escaped := exec.Command("sleep", "301")
	escaped.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	for _, c := range []*exec.Cmd{inGroup, escaped} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	pids := fmt.Sprintf("%d %d %d\n", os.Getpid(), inGroup.Process.Pid, escaped.Process.Pid)
	if err := os.WriteFile(os.Getenv("HANG_PIDFILE"), []byte(pids), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Println("hanging now")
	time.Sleep(time.Hour)
}
