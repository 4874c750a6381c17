//go:build unix && !linux

package verify

import (
	"os"
	"syscall"
)

// sysProcAttr puts the command in its own process group (cgroups are
// Linux's).
func sysProcAttr(int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killMarked is Linux-only (it reads /proc); elsewhere the process group
// kill is all there is.
func killMarked(string) {}

// growPipe keeps the system's pipe size.
func growPipe(*os.File) {}
