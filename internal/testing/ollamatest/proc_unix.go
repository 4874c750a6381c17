//go:build unix

package ollamatest

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the server in a process group of its own, which its
// model runners join, so that stopping the group stops them all.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM, or SIGKILL when kill is set, to cmd's group.
func signalGroup(cmd *exec.Cmd, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// alive reports whether any process of the group led by pid still exists.
func alive(pid int) bool {
	return syscall.Kill(-pid, 0) == nil
}
