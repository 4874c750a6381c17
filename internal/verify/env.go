package verify

import "strings"

// secretExact are removed by name.
var secretExact = map[string]bool{
	"GITHUB_TOKEN": true, "GH_TOKEN": true, "SSH_AUTH_SOCK": true,
}

// secretPrefixes: action inputs (which carry the github-token input),
// the Actions runtime and OIDC request tokens, and cloud credentials.
var secretPrefixes = []string{"INPUT_", "ACTIONS_", "AWS_"}

// secretParts are matched anywhere in the upper-cased name.
var secretParts = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PRIVATE_KEY", "CREDENTIAL", "API_KEY", "APIKEY", "ACCESS_KEY"}

// ScrubEnv returns environ without the variables a test command must not
// see: GITHUB_TOKEN, GH_TOKEN, INPUT_*, ACTIONS_*, AWS_*, SSH_AUTH_SOCK, and
// every name containing TOKEN, SECRET, PASSWORD, PRIVATE_KEY, CREDENTIAL or
// API_KEY, unless the name is listed in passthrough. A kept variable whose
// value contains the value of a removed TOKEN, SECRET, ... variable (a
// token copied into another variable) is removed too, except the paths
// toolchains need. Everything else (PATH, HOME, GOPATH, GOCACHE, GOFLAGS,
// JAVA_HOME, ...) is kept. Later duplicates of a name win, as in exec.
func ScrubEnv(environ, passthrough []string) []string {
	pass := make(map[string]bool, len(passthrough))
	for _, p := range passthrough {
		pass[p] = true
	}
	last := map[string]int{}
	for i, kv := range environ {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" {
			last[k] = i
		}
	}
	var removed []string
	var kept []string
	for i, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || last[k] != i {
			continue
		}
		if !pass[k] && isSecretName(k) {
			if len(v) >= 12 && namesSecret(k) {
				removed = append(removed, v)
			}
			continue
		}
		kept = append(kept, kv)
	}
	out := kept[:0]
	for _, kv := range kept {
		k, v, _ := strings.Cut(kv, "=")
		if !pass[k] && !toolchainNames[k] && containsAny(v, removed) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// toolchainNames are never removed for holding a secret's value: without
// them nothing runs, and they hold paths, not tokens.
var toolchainNames = map[string]bool{
	"PATH": true, "HOME": true, "TMPDIR": true, "PWD": true, "GOPATH": true, "GOROOT": true, "GOCACHE": true,
	"GOMODCACHE": true, "GOFLAGS": true, "JAVA_HOME": true, "CARGO_HOME": true, "RUSTUP_HOME": true,
}

// namesSecret reports whether the name itself says its value is a secret
// (not merely an action input or a runner setting): only such values are
// looked for in other variables.
func namesSecret(name string) bool {
	up := strings.ToUpper(name)
	if secretExact[up] {
		return true
	}
	for _, p := range secretParts {
		if strings.Contains(up, p) {
			return true
		}
	}
	return false
}

// isSecretName reports whether a variable named name is removed by default.
func isSecretName(name string) bool {
	up := strings.ToUpper(name)
	if secretExact[up] {
		return true
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	for _, p := range secretParts {
		if strings.Contains(up, p) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
