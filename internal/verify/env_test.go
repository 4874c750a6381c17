package verify

import (
	"reflect"
	"testing"
)

func TestScrubEnv(t *testing.T) {
	t.Parallel()
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u", "GOPATH=/go", "GOCACHE=/c", "GOFLAGS=-mod=mod", "GOPROXY=https://proxy.golang.org",
		"JAVA_HOME=/jdk", "GITHUB_REPOSITORY=o/r", "GITHUB_ACTIONS=true", "CI=true",
		"GITHUB_TOKEN=ghs_aaaaaaaaaaaa", "GH_TOKEN=ghp_bbbbbbbbbbbb", "INPUT_GITHUB-TOKEN=ghs_aaaaaaaaaaaa",
		"INPUT_MODEL=qwen", "ACTIONS_RUNTIME_TOKEN=rt", "ACTIONS_ID_TOKEN_REQUEST_URL=https://x", "ACTIONS_CACHE_URL=https://c",
		"AWS_ACCESS_KEY_ID=AKIA", "AWS_REGION=eu-west-1", "NPM_TOKEN=npm_cccccccccccc", "DB_PASSWORD=pw", "MY_SECRET=s",
		"SSH_PRIVATE_KEY=k", "GOOGLE_APPLICATION_CREDENTIALS=/c.json", "OPENAI_API_KEY=sk", "SSH_AUTH_SOCK=/tmp/agent",
		"copy_of_token=ghs_aaaaaaaaaaaa", "CODECOV_TOKEN=needed-by-tests", "no-equals-sign", "=empty-name",
		"DUP=first", "DUP=second",
		// An input's value is not a secret: variables that contain it stay.
		"INPUT_WORKING-DIRECTORY=/home/runner/work/repo", "GITHUB_WORKSPACE=/home/runner/work/repo",
		"PATH=/home/runner/work/repo/bin:/usr/bin",
	}
	got := ScrubEnv(environ, []string{"CODECOV_TOKEN"})
	want := []string{
		"HOME=/home/u", "GOPATH=/go", "GOCACHE=/c", "GOFLAGS=-mod=mod", "GOPROXY=https://proxy.golang.org",
		"JAVA_HOME=/jdk", "GITHUB_REPOSITORY=o/r", "GITHUB_ACTIONS=true", "CI=true",
		"CODECOV_TOKEN=needed-by-tests", "DUP=second", "GITHUB_WORKSPACE=/home/runner/work/repo",
		"PATH=/home/runner/work/repo/bin:/usr/bin",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ScrubEnv =\n%q\nwant\n%q", got, want)
	}
}

func TestScrubEnvDoesNotChangeItsInput(t *testing.T) {
	t.Parallel()
	in := []string{"A=1", "GITHUB_TOKEN=x", "B=2"}
	ScrubEnv(in, nil)
	if !reflect.DeepEqual(in, []string{"A=1", "GITHUB_TOKEN=x", "B=2"}) {
		t.Errorf("input changed: %q", in)
	}
}
