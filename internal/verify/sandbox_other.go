//go:build !linux

package verify

import "runtime"

// sandboxed is how one verify.Run contains its commands.
type sandboxed struct {
	info    *SandboxInfo
	prefix  []string
	cleanup func()
}

// CheckSandbox: bubblewrap is Linux's.
func CheckSandbox(string) error {
	return &UnavailableError{Reason: "bubblewrap sandboxes only on Linux, and this is " + runtime.GOOS, Fix: "run agentfix on a Linux runner to contain the tests"}
}

// contain: no cgroups outside Linux.
func (s *sandboxed) contain() (join []string, cgroupFD int, done func() string, err error) {
	return nil, 0, func() string { return "" }, nil
}

// CheckLimits: bubblewrap, prlimit and cgroups are Linux's.
func CheckLimits(Sandbox) Limits {
	why := "the sandbox is Linux's, and this is " + runtime.GOOS
	return Limits{Line: "NO memory or process limit: " + why, Unbound: why, Fix: "run agentfix on a Linux runner"}
}

// prepareSandbox: bubblewrap is Linux's; elsewhere commands run with the
// environment allow-list, process group, timeout and output cap only, and
// verify.sandbox: required refuses to run them.
func prepareSandbox(opts Options, _ map[string]string) (*sandboxed, error) {
	s := &sandboxed{info: &SandboxInfo{Network: true}, cleanup: func() {}}
	if opts.Sandbox.withDefaults().Mode == SandboxOff {
		s.info.Reason = "verify.sandbox is off"
		return s, nil
	}
	err := &UnavailableError{Reason: "bubblewrap sandboxes only on Linux, and this is " + runtime.GOOS, Fix: "run agentfix on a Linux runner to contain the tests, or set verify.sandbox: off knowingly"}
	if opts.Sandbox.Mode == SandboxRequired {
		return nil, err
	}
	s.info.Reason = err.Error()
	return s, nil
}
