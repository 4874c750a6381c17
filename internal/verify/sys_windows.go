package verify

import (
	"os"
	"syscall"
)

// sysProcAttr: Windows has no process groups to signal; the command is
// killed on its own.
func sysProcAttr(int) *syscall.SysProcAttr { return nil }

// signalGroup kills the process pid (there is no SIGTERM to send).
func signalGroup(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	p.Kill()
	return nil
}

// killMarked is Linux-only.
func killMarked(string) {}

// growPipe keeps the system's pipe size.
func growPipe(*os.File) {}
