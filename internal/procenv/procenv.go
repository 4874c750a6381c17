// Package procenv keeps the secrets in agentfix's own environment away from
// the programs it starts. Scrubbing a child's environment (verify.ScrubEnv)
// is not enough on Linux: a test, or the code of a fork's pull request, can
// read /proc/<pid>/environ of its ancestors, which still shows the
// environment agentfix was started with — INPUT_GITHUB_TOKEN included.
package procenv

// Harden overwrites, in the environment block the process was started with,
// the value of every variable secret reports true for, and marks the
// process non-dumpable so other processes of the same user cannot ptrace it
// or read its /proc files. Go's own copy of the environment (os.Getenv,
// os.Environ) is left as it was: agentfix still reads its inputs. On
// systems without /proc it does nothing.
func Harden(secret func(name string) bool) error { return harden(secret) }
