//go:build unix && !(linux && (amd64 || arm64) && !msan && !asan)

package repoctx

import "syscall"

// The scan's system calls, through the syscall package (see
// sys_raw_linux.go for why they are raw where they can be).

func sysOpen(name string) (int, error) {
	return syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
}

func sysFstat(fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func sysRead(fd int, p []byte) (int, error) { return syscall.Read(fd, p) }

func sysClose(fd int) { syscall.Close(fd) }
