//go:build unix

package verify

import (
	"errors"
	"syscall"
)

// signalGroup sends sig to the process group led by pgid, ignoring a group
// that is already gone.
func signalGroup(pgid int, sig syscall.Signal) error {
	if pgid <= 0 {
		return nil
	}
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
