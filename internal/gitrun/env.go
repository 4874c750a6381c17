package gitrun

import (
	"encoding/base64"
	"os"
	"strconv"
	"strings"
)

// set are the variables every git process gets, whatever the base
// environment says: git never prompts (a runner has no terminal, and a
// prompt would hang the job until its timeout), never takes an optional
// lock (status must not write the index under a concurrent git), and
// prints messages agentfix parses in the C locale.
var set = []string{
	"GIT_TERMINAL_PROMPT=0",
	"GIT_OPTIONAL_LOCKS=0",
	"LC_ALL=C",
	"GIT_ASKPASS=",
	"SSH_ASKPASS=",
}

// keptGit are the GIT_* variables kept from the base environment: the
// certificate authorities to trust for HTTPS, which a self-hosted runner
// behind a TLS-inspecting proxy sets and which cannot point git at
// another repository or make it run anything.
var keptGit = map[string]bool{"GIT_SSL_CAINFO": true, "GIT_SSL_CAPATH": true}

// tokenNames are the variables that carry a GitHub token by convention.
// The token agentfix uses reaches git only as the header of Cmd.Auth calls.
var tokenNames = map[string]bool{
	"GITHUB_TOKEN": true, "GH_TOKEN": true,
	"GITHUB_ENTERPRISE_TOKEN": true, "GH_ENTERPRISE_TOKEN": true,
}

// Environ is the environment of the git process that runs c: the policy
// of every git process agentfix starts, and the one place that decides it.
//
// Inherited from r.Env (os.Environ() when nil): everything except
//   - every GIT_* variable but GIT_SSL_CAINFO and GIT_SSL_CAPATH: a
//     GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE or GIT_CONFIG_* the runner
//     set must never redirect or reconfigure agentfix's git;
//   - the variables that carry tokens: action inputs (INPUT_*, among them
//     github-token), the Actions runtime (ACTIONS_*, with its runtime and
//     OIDC request tokens), GITHUB_TOKEN, GH_TOKEN and their enterprise
//     twins, and any variable whose value holds r.Token;
//   - the names set below.
//
// Set: GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0, LC_ALL=C, GIT_ASKPASS=
// and SSH_ASKPASS= (no credential prompts of any kind); for a c.Auth call
// with a token, r.Token as an HTTP Authorization header through
// GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n (git ≥ 2.31), as
// actions/checkout sends it, so it is never written to .git/config and
// never shows in the process list; then c.Env (GIT_INDEX_FILE, a commit
// identity), which must not hold GIT_CONFIG_*.
func (r Runner) Environ(c Cmd) []string {
	base := r.Env
	if base == nil {
		base = os.Environ()
	}
	drop := map[string]bool{}
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		drop[name] = true
	}
	env := make([]string, 0, len(base)+len(set)+3+len(c.Env))
	for _, kv := range base {
		name, value, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		switch {
		case drop[up],
			strings.HasPrefix(up, "GIT_") && !keptGit[up],
			strings.HasPrefix(up, "INPUT_"), strings.HasPrefix(up, "ACTIONS_"), tokenNames[up],
			r.Token != "" && strings.Contains(value, r.Token):
			continue
		}
		env = append(env, kv)
	}
	env = append(env, set...)
	// Config agentfix imposes goes in cfg, which git reads after every
	// config file (hardening such as core.hooksPath belongs here).
	var cfg [][2]string
	if c.Auth && r.Token != "" {
		cfg = append(cfg, [2]string{"http.extraheader", "AUTHORIZATION: basic " + basicAuth(r.Token)})
	}
	env = append(env, configEnv(cfg)...)
	return append(env, c.Env...)
}

// basicAuth is the credential of token in a Basic Authorization header.
func basicAuth(token string) string {
	return base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
}

// configEnv passes config to git through the environment.
func configEnv(cfg [][2]string) []string {
	if len(cfg) == 0 {
		return nil
	}
	env := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(cfg))}
	for i, kv := range cfg {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env
}
