package procenv

import (
	"os"
	"strings"
)

// Take reads, once, every variable of the process environment whose name
// take reports true for, and removes it from Go's copy of the environment
// (os.Environ, os.Getenv), so that no program agentfix starts can inherit
// it, not even one started without an explicit environment. It returns
// what it took; the caller keeps it for the code that needs it (the
// GitHub client, the git push). Harden, which wipes the block /proc shows,
// is still needed: Unsetenv does not change it.
func Take(take func(name string) bool) map[string]string {
	held := map[string]string{}
	for _, kv := range os.Environ() {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || !take(name) {
			continue
		}
		held[name] = value
		os.Unsetenv(name)
	}
	return held
}

// Getenv reads a variable from held, or else from the process
// environment: the lookup of a program that took its tokens.
func Getenv(held map[string]string) func(string) string {
	return func(name string) string {
		if v, ok := held[name]; ok {
			return v
		}
		return os.Getenv(name)
	}
}
