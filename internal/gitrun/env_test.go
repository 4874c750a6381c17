package gitrun

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const token = "ghs_gitrunTestToken0123"

// runnerBase is a runner environment with everything the policy drops.
func runnerBase(extra ...string) []string {
	return append([]string{
		"PATH=" + testPath(),
		"HOME=/nonexistent-home",
		"LC_ALL=fr_FR.UTF-8",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.hooksPath", "GIT_CONFIG_VALUE_0=/tmp/evil",
		"GIT_SSL_CAINFO=/etc/ssl/ca.pem",
		"GIT_TRACE=1",
		"GITHUB_TOKEN=" + token,
		"GH_TOKEN=" + token,
		"INPUT_GITHUB_TOKEN=" + token,
		"INPUT_GITHUB-TOKEN=" + token,
		"ACTIONS_RUNTIME_TOKEN=runtime-secret",
		"MY_COPY=Bearer " + token,
		"KEEP_ME=1",
	}, extra...)
}

func TestEnvironPolicy(t *testing.T) {
	r := Runner{Env: runnerBase("GIT_DIR=/elsewhere/.git", "https_proxy=http://proxy:3128"), Token: token, Server: "https://ghes.example"}
	common := []string{
		"PATH=" + testPath(), "HOME=/nonexistent-home", "GIT_SSL_CAINFO=/etc/ssl/ca.pem", "https_proxy=http://proxy:3128",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_ASKPASS=", "SSH_ASKPASS=",
	}
	imposedEnv := func(count int) []string {
		return []string{
			"GIT_CONFIG_COUNT=" + strconv.Itoa(count),
			"GIT_CONFIG_KEY_0=core.hooksPath", "GIT_CONFIG_VALUE_0=/dev/null",
			"GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false",
			"GIT_CONFIG_KEY_2=core.sshCommand", "GIT_CONFIG_VALUE_2=ssh",
			"GIT_CONFIG_KEY_3=credential.helper", "GIT_CONFIG_VALUE_3=",
			"GIT_CONFIG_KEY_4=protocol.ext.allow", "GIT_CONFIG_VALUE_4=never",
			"GIT_CONFIG_KEY_5=http.sslVerify", "GIT_CONFIG_VALUE_5=true",
			"GIT_CONFIG_KEY_6=commit.gpgSign", "GIT_CONFIG_VALUE_6=false",
		}
	}
	for _, tc := range []struct {
		name string
		c    Cmd
		want []string
	}{
		{"local call", Cmd{}, slices.Concat(common, imposedEnv(7))},
		{"remote call", Cmd{Auth: true}, slices.Concat(common, imposedEnv(8), []string{
			"GIT_CONFIG_KEY_7=http.https://ghes.example/.extraheader", "GIT_CONFIG_VALUE_7=AUTHORIZATION: basic " + basicAuth(token),
		})},
		{"extra variables", Cmd{Env: []string{"GIT_INDEX_FILE=/tmp/index"}}, slices.Concat(common, imposedEnv(7), []string{"GIT_INDEX_FILE=/tmp/index"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.Environ(tc.c); !slices.Equal(got, tc.want) {
				t.Errorf("Environ =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestEnvironWithoutTokenSendsNoHeader(t *testing.T) {
	got := Runner{Env: []string{"PATH=/bin"}}.Environ(Cmd{Auth: true})
	for _, kv := range got {
		if strings.Contains(strings.ToLower(kv), "extraheader") {
			t.Errorf("an Auth call without a token gets %s", kv)
		}
	}
}

// TestInheritedGitDirDoesNotRedirect points GIT_DIR and GIT_WORK_TREE at
// another repository, as a runner's environment could: git still works on
// the runner's own directory.
func TestInheritedGitDirDoesNotRedirect(t *testing.T) {
	ctx := context.Background()
	mine, other := newRepo(t), newRepo(t)
	r := Runner{Dir: mine, Env: runnerBase("GIT_DIR="+filepath.Join(other, ".git"), "GIT_WORK_TREE="+other)}
	top, err := r.Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := filepath.EvalSymlinks(strings.TrimSpace(top)); got != mine {
		t.Errorf("git worked in %s, want %s", got, mine)
	}
}

// TestGitSeesNoToken asks git for the environment it hands its children
// (a shell alias runs env): no token variable and no header on a local
// call, the header (masked in the output) on a remote one. (The alias
// itself reaches env as GIT_CONFIG_PARAMETERS.)
func TestGitSeesNoToken(t *testing.T) {
	ctx := context.Background()
	r := Runner{Dir: newRepo(t), Env: runnerBase(), Token: token}
	env := []string{"-c", "alias.e=!env", "e"}

	local, err := r.Exec(ctx, Cmd{Args: env})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{token, basicAuth(token), "***", "runtime-secret", "GITHUB_TOKEN=", "INPUT_", "GIT_TRACE", "/tmp/evil", "KEEP_ME", "extraheader"} {
		if strings.Contains(local, bad) {
			t.Errorf("git's environment holds %q:\n%s", bad, local)
		}
	}
	if !strings.Contains(local, "HOME=/nonexistent-home") || !strings.Contains(local, "LC_ALL=C") || !strings.Contains(local, "GIT_CONFIG_VALUE_0=/dev/null") {
		t.Errorf("git's environment lacks HOME, LC_ALL=C or the imposed hooksPath:\n%s", local)
	}

	remote, err := r.Exec(ctx, Cmd{Args: env, Auth: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(remote, "GIT_CONFIG_VALUE_7=AUTHORIZATION: basic ***") {
		t.Errorf("a remote call's environment lacks the masked header:\n%s", remote)
	}
	if strings.Contains(remote, token) || strings.Contains(remote, basicAuth(token)) {
		t.Errorf("the output shows the token:\n%s", remote)
	}
}
