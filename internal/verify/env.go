package verify

import (
	"fmt"
	"regexp"
	"strings"
)

// keptNames are the variables a test command gets from agentfix's
// environment: the search path, the locale and time zone, and the
// toolchains' own settings. Everything else stays behind — the token, the
// runner's file-command variables (GITHUB_ENV, GITHUB_PATH, ...), RUNNER_*,
// ACTIONS_*, and whatever secret a workflow put in its env: block.
var keptNames = map[string]bool{
	"PATH": true, "LANG": true, "LANGUAGE": true, "TZ": true, "TERM": true, "CI": true,
	// Go
	"GOROOT": true, "GOPATH": true, "GOCACHE": true, "GOMODCACHE": true, "GOFLAGS": true,
	"GOTOOLCHAIN": true, "GOPROXY": true, "GONOSUMDB": true, "GONOPROXY": true, "GOPRIVATE": true,
	"GOSUMDB": true, "GOEXPERIMENT": true, "GOAMD64": true, "GOARM64": true, "CGO_ENABLED": true,
	"CC": true, "CXX": true, "GOTMPDIR": true,
	// Python
	"PYENV_ROOT": true, "PYENV_VERSION": true, "VIRTUAL_ENV": true, "PYTHONPATH": true,
	"PYTHONDONTWRITEBYTECODE": true, "PYTHONUNBUFFERED": true, "PIP_CACHE_DIR": true,
	// JavaScript
	"NODE_PATH": true, "NVM_DIR": true, "NVM_BIN": true, "npm_config_cache": true, "COREPACK_HOME": true,
	// Rust
	"CARGO_HOME": true, "RUSTUP_HOME": true, "RUSTUP_TOOLCHAIN": true, "CARGO_TARGET_DIR": true, "RUST_BACKTRACE": true,
	// JVM, .NET, Ruby, Elixir
	"JAVA_HOME": true, "GRADLE_USER_HOME": true, "MAVEN_OPTS": true, "M2_HOME": true,
	"DOTNET_ROOT": true, "DOTNET_CLI_TELEMETRY_OPTOUT": true, "GEM_HOME": true, "GEM_PATH": true,
	"BUNDLE_PATH": true, "MIX_HOME": true, "HEX_HOME": true,
	// Certificate authorities, for a runner behind a TLS-inspecting proxy.
	"SSL_CERT_FILE": true, "SSL_CERT_DIR": true, "NODE_EXTRA_CA_CERTS": true, "REQUESTS_CA_BUNDLE": true,
}

// forbidden are the variables verify.env may not name: the token and the
// runner's own channels, which would let a test steer later steps.
var forbiddenExact = map[string]bool{
	"GITHUB_TOKEN": true, "GH_TOKEN": true, "GITHUB_ENV": true, "GITHUB_PATH": true,
	"GITHUB_OUTPUT": true, "GITHUB_STEP_SUMMARY": true, "GITHUB_STATE": true, "SSH_AUTH_SOCK": true,
}

var forbiddenPrefixes = []string{"INPUT_", "ACTIONS_", "RUNNER_"}

// CheckEnvEntry says what is wrong with one verify.env entry, "" when
// nothing: NAME passes the variable of that name, NAME=value sets it.
func CheckEnvEntry(entry string) string {
	name, _, _ := strings.Cut(entry, "=")
	if !envName.MatchString(name) {
		return fmt.Sprintf("%q is not NAME or NAME=value", entry)
	}
	up := strings.ToUpper(name)
	if forbiddenExact[up] {
		return fmt.Sprintf("%s is never given to test commands (it carries the token or a channel into the runner)", name)
	}
	for _, p := range forbiddenPrefixes {
		if strings.HasPrefix(up, p) {
			return fmt.Sprintf("%s* variables are never given to test commands (they carry the token or steer the runner)", p)
		}
	}
	return ""
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// TestEnv builds the environment of a test command by allow-list: from
// environ, the variables in keptNames and LC_*, unless the name looks like
// a secret or the value is a URL with a password; then the entries the
// user named (verify.env: NAME passes the variable, NAME=value sets it);
// then set (the sandbox's HOME and TMPDIR). Later entries win. Nothing
// else of environ reaches the command.
func TestEnv(environ, entries, set []string) []string {
	from := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			from[k] = v
		}
	}
	out := map[string]string{}
	var order []string
	put := func(k, v string) {
		if _, ok := out[k]; !ok {
			order = append(order, k)
		}
		out[k] = v
	}
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" || !(keptNames[k] || strings.HasPrefix(k, "LC_")) || isSecretName(k) || hasPassword(from[k]) {
			continue
		}
		put(k, from[k])
	}
	for _, e := range entries {
		if CheckEnvEntry(e) != "" {
			continue // config validation reports it
		}
		if k, v, ok := strings.Cut(e, "="); ok {
			put(k, v)
		} else if v, ok := from[k]; ok {
			put(k, v)
		}
	}
	for _, kv := range set {
		k, v, _ := strings.Cut(kv, "=")
		put(k, v)
	}
	env := make([]string, 0, len(order))
	for _, k := range order {
		env = append(env, k+"="+out[k])
	}
	return env
}

// urlPassword matches a URL whose user info holds a password
// (https://user:secret@host), as in a GOPROXY or PIP_INDEX_URL with
// credentials.
var urlPassword = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/@\s:]*:[^/@\s]+@`)

func hasPassword(v string) bool { return urlPassword.MatchString(v) }

// secretExact are secrets by name.
var secretExact = map[string]bool{
	"GITHUB_TOKEN": true, "GH_TOKEN": true, "SSH_AUTH_SOCK": true,
}

// secretPrefixes: action inputs (which carry the github-token input),
// the Actions runtime and OIDC request tokens, and cloud credentials.
var secretPrefixes = []string{"INPUT_", "ACTIONS_", "AWS_"}

// secretParts are matched anywhere in the upper-cased name.
var secretParts = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "PRIVATE_KEY", "CREDENTIAL", "API_KEY", "APIKEY", "ACCESS_KEY", "AUTH", "KEY", "DSN"}

// isSecretName reports whether a variable named name looks like it holds
// a secret: such a name is kept out of agentfix's own /proc environ (see
// procenv) and out of a test's environment even when it is a toolchain
// variable.
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
