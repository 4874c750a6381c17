package verify

import (
	"reflect"
	"testing"
)

func TestTestEnvIsAnAllowList(t *testing.T) {
	t.Parallel()
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u", "GOPATH=/go", "GOCACHE=/c", "GOFLAGS=-mod=mod", "GOPROXY=https://proxy.golang.org",
		"JAVA_HOME=/jdk", "LC_ALL=C.UTF-8", "CI=true",
		// The runner's channels, the token and the job's secrets, by any name.
		"GITHUB_TOKEN=ghs_aaaaaaaaaaaa", "INPUT_GITHUB_TOKEN=ghs_aaaaaaaaaaaa", "GITHUB_ENV=/r/env", "GITHUB_PATH=/r/path",
		"GITHUB_OUTPUT=/r/out", "GITHUB_STEP_SUMMARY=/r/sum", "RUNNER_TEMP=/r/tmp", "ACTIONS_RUNTIME_TOKEN=rt",
		"GH_PAT=ghp_x", "NPM_AUTH=x", "OPENAI_KEY=sk", "DEPLOY_KEY=k", "DATABASE_URL=postgres://u:pw@db/x",
		"GPG_PASSPHRASE=p", "DOCKER_AUTH_CONFIG={}", "PYPI_PASS=p", "SENTRY_DSN=https://k@sentry.io/1",
		"GITHUB_REPOSITORY=o/r", "SSH_AUTH_SOCK=/tmp/agent",
		// A toolchain variable with credentials in it stays behind too.
		"PIP_INDEX_URL=https://u:pw@pypi.example/simple", "GONOSUMDB=example.com/*",
		"CODECOV_TOKEN=needed-by-tests", "DUP=first", "DUP=second", "no-equals-sign", "=empty-name",
	}
	got := TestEnv(environ, []string{"CODECOV_TOKEN", "CGO_ENABLED=0", "DUP", "ABSENT", "GITHUB_ENV"}, []string{"HOME=/sandbox", "TMPDIR=/tmp"})
	want := []string{
		"PATH=/usr/bin", "GOPATH=/go", "GOCACHE=/c", "GOFLAGS=-mod=mod", "GOPROXY=https://proxy.golang.org",
		"JAVA_HOME=/jdk", "LC_ALL=C.UTF-8", "CI=true", "GONOSUMDB=example.com/*",
		"CODECOV_TOKEN=needed-by-tests", "CGO_ENABLED=0", "DUP=second", "HOME=/sandbox", "TMPDIR=/tmp",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TestEnv =\n%q\nwant\n%q", got, want)
	}
}

func TestCheckEnvEntry(t *testing.T) {
	t.Parallel()
	for entry, bad := range map[string]bool{
		"NPM_TOKEN": false, "CGO_ENABLED=0": false, "X=a=b": false,
		"GITHUB_TOKEN": true, "github_env": true, "INPUT_GITHUB_TOKEN": true, "RUNNER_TEMP": true, "ACTIONS_CACHE_URL=x": true,
		"NOT A NAME": true, "=x": true,
	} {
		if got := CheckEnvEntry(entry); (got != "") != bad {
			t.Errorf("CheckEnvEntry(%q) = %q, want a problem: %v", entry, got, bad)
		}
	}
}

func TestTestEnvDoesNotChangeItsInput(t *testing.T) {
	t.Parallel()
	in := []string{"PATH=/bin", "GITHUB_TOKEN=x", "B=2"}
	TestEnv(in, []string{"B"}, nil)
	if !reflect.DeepEqual(in, []string{"PATH=/bin", "GITHUB_TOKEN=x", "B=2"}) {
		t.Errorf("input changed: %q", in)
	}
}

func TestIsHeldName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "GH_TOKEN": true, "INPUT_GITHUB_TOKEN": true, "INPUT_GITHUB-TOKEN": true,
		"ACTIONS_RUNTIME_TOKEN": true, "ACTIONS_ID_TOKEN_REQUEST_TOKEN": true, "INPUT_MODEL": true,
		// A secret the user may hand the tests with verify.env stays.
		"NPM_TOKEN": false, "PATH": false, "RUNNER_TEMP": false, "GITHUB_SERVER_URL": false, "OLLAMA_HOST": false,
	} {
		if got := IsHeldName(name); got != want {
			t.Errorf("IsHeldName(%q) = %v, want %v", name, got, want)
		}
	}
}
