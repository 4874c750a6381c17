package procenv

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func harden(secret func(string) bool) error {
	err := wipe(secret)
	// PR_SET_DUMPABLE = 4 (prctl(2)). Set after the wipe: a non-dumpable
	// process may no longer open its own /proc/self/mem.
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, 4, 0, 0); errno != 0 && err == nil {
		err = fmt.Errorf("procenv: prctl(PR_SET_DUMPABLE): %v", errno)
	}
	return err
}

// wipe overwrites secret values between env_start and env_end, the
// addresses /proc/self/stat gives (fields 50 and 51, proc(5)).
func wipe(secret func(string) bool) error {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return fmt.Errorf("procenv: %w", err)
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces; the first of them is field 3.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	fields := strings.Fields(string(rest))
	if len(fields) < 49 {
		return fmt.Errorf("procenv: /proc/self/stat has %d fields, want 51", len(fields)+2)
	}
	start, err1 := strconv.ParseUint(fields[50-3], 10, 64)
	end, err2 := strconv.ParseUint(fields[51-3], 10, 64)
	if err1 != nil || err2 != nil || end <= start {
		return fmt.Errorf("procenv: no environment block in /proc/self/stat")
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("procenv: %w", err)
	}
	defer mem.Close()
	block := make([]byte, end-start)
	if _, err := mem.ReadAt(block, int64(start)); err != nil {
		return fmt.Errorf("procenv: read environment block: %w", err)
	}
	changed := false
	for off := 0; off < len(block); {
		n := bytes.IndexByte(block[off:], 0)
		if n < 0 {
			n = len(block) - off
		}
		entry := block[off : off+n]
		if eq := bytes.IndexByte(entry, '='); eq > 0 && secret(string(entry[:eq])) {
			for i := eq + 1; i < len(entry); i++ {
				entry[i] = '*'
			}
			changed = true
		}
		off += n + 1
	}
	if !changed {
		return nil
	}
	if _, err := mem.WriteAt(block, int64(start)); err != nil {
		return fmt.Errorf("procenv: overwrite environment block: %w", err)
	}
	return nil
}
