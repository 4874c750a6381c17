//go:build unix

package repoctx

import "syscall"

// readFile reads the regular file name into buf, grown if it is short, and
// returns buf and the length read, or why the file is skipped. It reads
// what fstat said, with no second read to see EOF: a file that grows
// meanwhile is cut at its old size. It calls the system directly: os.Open
// would also register every file with the runtime's poller (one more
// system call each, which fails for a regular file) and allocate an
// os.File, and the scan opens every file of the repository. (See
// sysOpen for how it calls it.)
func readFile(name string, buf []byte) ([]byte, int, skipReason) {
	fd, err := sysOpen(name)
	for err == syscall.EINTR {
		fd, err = sysOpen(name)
	}
	if err != nil {
		return buf, 0, skipUnreadable
	}
	defer sysClose(fd)
	var st syscall.Stat_t
	if err := sysFstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf, 0, skipUnreadable
	}
	if st.Size > maxFileBytes {
		return buf, 0, skipHuge
	}
	n := int(st.Size)
	if cap(buf) < n {
		buf = make([]byte, n, n+n/2)
	}
	k := 0
	for k < n {
		r, err := sysRead(fd, buf[k:n])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, 0, skipUnreadable
		}
		if r == 0 {
			break // shrunk meanwhile: what is there
		}
		k += r
	}
	if k == 0 && n > 0 {
		return buf, 0, skipUnreadable // emptied meanwhile
	}
	return buf, k, indexed
}
