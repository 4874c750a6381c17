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
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_CONFIG_GLOBAL=" + os.DevNull,
	"GIT_TERMINAL_PROMPT=0",
	"GIT_OPTIONAL_LOCKS=0",
	"LC_ALL=C",
	"GIT_ASKPASS=",
	"SSH_ASKPASS=",
}

// kept are the variables git gets from the base environment: where to find
// programs and the home directory, the proxy and certificate authorities
// a self-hosted runner behind a TLS-inspecting proxy needs, and what
// Windows cannot start a program without. Nothing else: no token, no
// GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE or GIT_CONFIG_* that could
// redirect or reconfigure agentfix's git.
var kept = map[string]bool{
	"PATH": true, "HOME": true, "TMPDIR": true, "TZ": true,
	"GIT_SSL_CAINFO": true, "GIT_SSL_CAPATH": true, "SSL_CERT_FILE": true, "SSL_CERT_DIR": true,
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "NO_PROXY": true, "ALL_PROXY": true,
	"http_proxy": true, "https_proxy": true, "no_proxy": true, "all_proxy": true,
	"SYSTEMROOT": true, "COMSPEC": true, "PATHEXT": true, "WINDIR": true, "USERPROFILE": true,
}

// imposed is the configuration every git process gets after every config
// file, so that nothing a work tree's .git/config (which the code the model
// wrote may have written, when it ran unsandboxed) or the runner's own
// config says can run a program or redirect a credential: no hooks, no
// fsmonitor, no credential helper, no ssh command or ext:: transport of
// its choosing, and certificates always checked.
var imposed = [][2]string{
	{"core.hooksPath", os.DevNull},
	{"core.fsmonitor", "false"},
	{"core.sshCommand", "ssh"},
	{"credential.helper", ""},
	{"protocol.ext.allow", "never"},
	{"http.sslVerify", "true"},
	{"commit.gpgSign", "false"},
}

// Environ is the environment of the git process that runs c: the policy
// of every git process agentfix starts, and the one place that decides it.
//
// From r.Env (os.Environ() when nil) only the names in kept are inherited,
// and none whose value holds r.Token. Set: GIT_CONFIG_NOSYSTEM=1 and
// GIT_CONFIG_GLOBAL=/dev/null (no system or user config),
// GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0, LC_ALL=C, GIT_ASKPASS= and
// SSH_ASKPASS= (no credential prompts of any kind); the imposed config
// through GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n (git ≥
// 2.31), which git reads after every config file; for a c.Auth call with a
// token, r.Token as an HTTP Authorization header scoped to r.Server, as
// actions/checkout sends it, so that it is never written to .git/config,
// never shows in the process list, and never goes to another host a
// url.<other>.insteadOf sends the request to; then c.Env (GIT_INDEX_FILE,
// a commit identity), which must not hold GIT_CONFIG_*.
func (r Runner) Environ(c Cmd) []string {
	base := r.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(kept)+len(set)+2*len(imposed)+5+len(c.Env))
	for _, kv := range base {
		name, value, _ := strings.Cut(kv, "=")
		if kept[name] && (r.Token == "" || !strings.Contains(value, r.Token)) {
			env = append(env, kv)
		}
	}
	env = append(env, set...)
	cfg := append([][2]string(nil), imposed...)
	if c.Auth && r.Token != "" {
		cfg = append(cfg, [2]string{"http." + r.server() + ".extraheader", "AUTHORIZATION: basic " + basicAuth(r.Token)})
	}
	env = append(env, configEnv(cfg)...)
	return append(env, c.Env...)
}

// DefaultServer is the server the token is scoped to when Runner.Server
// is empty.
const DefaultServer = "https://github.com/"

// server is r.Server (GITHUB_SERVER_URL) with a trailing slash, so that
// the header's URL matches only paths on that server.
func (r Runner) server() string {
	s := r.Server
	if s == "" {
		s = DefaultServer
	}
	return strings.TrimRight(s, "/") + "/"
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
