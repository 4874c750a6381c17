package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// sysProcAttr puts the command in its own process group, and in the
// cgroup open as cgroupFD unless it is 0, and kills it if agentfix itself
// dies.
func sysProcAttr(cgroupFD int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, UseCgroupFD: cgroupFD > 0, CgroupFD: cgroupFD}
}

// growPipe asks for a 1 MiB pipe buffer (the default is 64 KiB); failure
// only costs speed.
func growPipe(f *os.File) {
	if sc, err := f.SyscallConn(); err == nil {
		sc.Control(func(fd uintptr) {
			syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, 1<<20)
		})
	}
}

// killMarked kills every process whose environment holds marker: the
// descendants of a verify command that escaped its process group (setsid,
// double fork). Processes are stopped first so they cannot fork while we
// look, then killed.
func killMarked(marker string) {
	needle := append([]byte(marker), 0)
	self := os.Getpid()
	stopped := map[int]bool{}
	for round := 0; round < 20; round++ {
		found := false
		entries, _ := filepath.Glob("/proc/[0-9]*/environ")
		for _, e := range entries {
			pid, err := strconv.Atoi(filepath.Base(filepath.Dir(e)))
			if err != nil || pid == self || stopped[pid] {
				continue
			}
			env, err := os.ReadFile(e)
			if err != nil || !bytes.Contains(append([]byte{0}, env...), append([]byte{0}, needle...)) {
				continue
			}
			syscall.Kill(pid, syscall.SIGSTOP)
			stopped[pid] = true
			found = true
		}
		if !found {
			break
		}
	}
	for pid := range stopped {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	// SIGKILL is delivered asynchronously: wait until they are gone.
	deadline := time.Now().Add(2 * time.Second)
	for pid := range stopped {
		for running(pid) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
