package main

import (
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// ciLog, when set (-ci-log actions), measures each case's failing output
// as the raw log of the CI step that ran it, the text a maintainer gets
// from "View raw logs" or the API's job logs and may paste whole.
var ciLog string

// quoteFailing, when set (-quote), measures each case's failing output
// as a report quotes it in Markdown: "> " before each line.
var quoteFailing bool

// runnerPaths, when set (-runner-paths), measures each case's failing
// output with the absolute paths a GitHub-hosted runner prints: the
// checkout under /home/runner/work/REPO/REPO, Go under the tool cache and
// the module cache under the runner's home, in place of this machine's.
var runnerPaths bool

// reTreeRoot is the root of a case's tree in the output go test printed
// in it: the stored outputs' (discover's before) or -gotest's (failing).
var reTreeRoot = regexp.MustCompile(`/tmp/realbugs-\d+/(?:before|failing)\b`)

// storedGo are GOROOT and GOMODCACHE where the stored outputs were made.
var storedGo = [2]string{"/usr/local/go", "/root/go/pkg/mod"}

// onRunner is out with the tree's, GOROOT's and the module cache's paths
// (where the stored outputs were made, and this machine's: goroot and
// modcache) as a GitHub-hosted runner's job for repo ("owner/name")
// prints them.
func onRunner(out, repo, goroot, modcache string) string {
	name := path.Base(repo)
	out = reTreeRoot.ReplaceAllLiteralString(out, "/home/runner/work/"+name+"/"+name)
	var pairs []string
	for _, p := range [][2]string{storedGo, {goroot, modcache}} {
		if p[0] != "" {
			pairs = append(pairs, filepath.ToSlash(p[0])+"/", "/opt/hostedtoolcache/go/1.24.9/x64/")
		}
		if p[1] != "" {
			pairs = append(pairs, filepath.ToSlash(p[1])+"/", "/home/runner/go/pkg/mod/")
		}
	}
	return strings.NewReplacer(pairs...).Replace(out)
}

// goEnv is go env's value of name, "" when go cannot say.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// quoted is text with "> " before each line.
func quoted(text string) string {
	return "> " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n> ") + "\n"
}

// ciLogs are the values -ci-log takes: the failed step's log, or the
// whole job's.
var ciLogs = []string{"actions", "actions-job"}

// actionsStart is the first line's time stamp of every log actionsLog
// writes, fixed so that a run is reproducible.
var actionsStart = time.Date(2026, 1, 15, 9, 30, 0, 0, time.UTC)

// actionsLog is out as GitHub Actions keeps a failed "run" step's log:
// a byte order mark, every line stamped with its time (RFC 3339, seven
// digits of the second), the step's script and shell in a group, its
// command echoed in the runner's cyan, and the runner's error line last.
// With job, it is the whole job's log, which the API's job logs and
// "Download log archive" give: the runner's set-up, checkout and setup-go
// before the step, their cleanup after it (job is "owner/repo").
func actionsLog(out, command, job string) string {
	var b strings.Builder
	b.WriteString("\ufeff")
	at := actionsStart
	line := func(s string) {
		b.WriteString(at.Format("2006-01-02T15:04:05.0000000Z"))
		b.WriteString(" ")
		b.WriteString(s)
		b.WriteString("\n")
		at = at.Add(1731 * time.Microsecond)
	}
	lines := func(text string) {
		for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
			line(strings.TrimPrefix(l, "\t"))
		}
	}
	if job != "" {
		lines(strings.ReplaceAll(jobHead, "OWNER/REPO", job))
	}
	line("##[group]Run " + command)
	line("\x1b[36;1m" + command + "\x1b[0m")
	line("shell: /usr/bin/bash -e {0}")
	line("env:")
	line("  GOTOOLCHAIN: local")
	line("##[endgroup]")
	for _, l := range strings.SplitAfter(out, "\n") {
		if l != "" {
			line(strings.TrimSuffix(l, "\n"))
		}
	}
	line("##[error]Process completed with exit code 1.")
	if job != "" {
		lines(jobTail)
	}
	return b.String()
}

// jobHead is what a GitHub-hosted runner logs of a Go job before its test
// step: the job's set-up, actions/checkout and actions/setup-go. It was
// written for this benchmark after the shape of such logs (their steps,
// groups and kinds of lines); the versions and digests are made up.
const jobHead = `
	Current runner version: '2.330.0'
	##[group]Operating System
	Ubuntu
	24.04.3
	LTS
	##[endgroup]
	##[group]Runner Image
	Image: ubuntu-24.04
	Version: 20261102.5.1
	Included Software: https://github.com/actions/runner-images/blob/ubuntu24/20261102.5/images/ubuntu/Ubuntu2404-Readme.md
	Image Release: https://github.com/actions/runner-images/releases/tag/ubuntu24%2F20261102.5
	##[endgroup]
	##[group]GITHUB_TOKEN Permissions
	Contents: read
	Metadata: read
	##[endgroup]
	Secret source: Actions
	Prepare workflow directory
	Prepare all required actions
	Getting action download info
	Download action repository 'actions/checkout@v4' (SHA:0f3c1a9e2b7d4c5a6e8f9a0b1c2d3e4f5a6b7c8d)
	Download action repository 'actions/setup-go@v5' (SHA:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b)
	Complete job name: test (ubuntu-latest)
	##[group]Run actions/checkout@v4
	with:
	  repository: OWNER/REPO
	  token: ***
	  ssh-strict: true
	  ssh-user: git
	  persist-credentials: true
	  clean: true
	  fetch-depth: 1
	  lfs: false
	  submodules: false
	##[endgroup]
	Syncing repository: OWNER/REPO
	##[group]Getting Git version info
	Working directory is '/home/runner/work/REPO/REPO'
	[command]/usr/bin/git version
	git version 2.51.0
	##[endgroup]
	Temporarily overriding HOME='/home/runner/work/_temp/5d1e9c2a' before making global git config changes
	Adding repository directory to the temporary git global config as a safe directory
	[command]/usr/bin/git config --global --add safe.directory /home/runner/work/REPO/REPO
	Deleting the contents of '/home/runner/work/REPO/REPO'
	##[group]Initializing the repository
	[command]/usr/bin/git init /home/runner/work/REPO/REPO
	Initialized empty Git repository in /home/runner/work/REPO/REPO/.git/
	[command]/usr/bin/git remote add origin https://github.com/OWNER/REPO
	##[endgroup]
	##[group]Disabling automatic garbage collection
	[command]/usr/bin/git config --local gc.auto 0
	##[endgroup]
	##[group]Setting up auth
	[command]/usr/bin/git config --local --name-only --get-regexp core\.sshCommand
	[command]/usr/bin/git config --local http.https://github.com/.extraheader AUTHORIZATION: basic ***
	##[endgroup]
	##[group]Fetching the repository
	[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +4b6f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c:refs/remotes/origin/main
	From https://github.com/OWNER/REPO
	 * [new ref]         4b6f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c -> origin/main
	##[endgroup]
	##[group]Checking out the ref
	[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main
	Switched to a new branch 'main'
	branch 'main' set up to track 'origin/main'.
	##[endgroup]
	[command]/usr/bin/git log -1 --format=%H
	4b6f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c
	##[group]Run actions/setup-go@v5
	with:
	  go-version-file: go.mod
	  check-latest: false
	  token: ***
	  cache: true
	##[endgroup]
	Setup go version spec 1.24
	Found in cache @ /opt/hostedtoolcache/go/1.24.9/x64
	Added go to the path
	Successfully set up Go version 1.24
	[command]/opt/hostedtoolcache/go/1.24.9/x64/bin/go env GOMODCACHE
	[command]/opt/hostedtoolcache/go/1.24.9/x64/bin/go env GOCACHE
	/home/runner/go/pkg/mod
	/home/runner/.cache/go-build
	Cache hit for: setup-go-Linux-x64-ubuntu24-go-1.24.9-7e1f0a2b3c4d5e6f
	Received 48234711 of 48234711 (100.0%), 91.2 MBs/sec
	Cache Size: ~46 MB (48234711 B)
	[command]/usr/bin/tar -xf /home/runner/work/_temp/0c9d8e7f/cache.tzst -P -C /home/runner/work/REPO/REPO --use-compress-program unzstd
	Cache restored successfully
	Cache restored from key: setup-go-Linux-x64-ubuntu24-go-1.24.9-7e1f0a2b3c4d5e6f
	go version go1.24.9 linux/amd64
	
	##[group]go env
	GO111MODULE=''
	GOARCH='amd64'
	GOBIN=''
	GOCACHE='/home/runner/.cache/go-build'
	GOENV='/home/runner/.config/go/env'
	GOEXE=''
	GOFLAGS=''
	GOHOSTARCH='amd64'
	GOHOSTOS='linux'
	GOMODCACHE='/home/runner/go/pkg/mod'
	GOOS='linux'
	GOPATH='/home/runner/go'
	GOPROXY='https://proxy.golang.org,direct'
	GOROOT='/opt/hostedtoolcache/go/1.24.9/x64'
	GOTOOLCHAIN='auto'
	GOVERSION='go1.24.9'
	CGO_ENABLED='1'
	CC='gcc'
	CXX='g++'
	##[endgroup]
`

// jobTail is what the runner logs after a failed step: the post steps'
// cleanup.
const jobTail = `
	Post job cleanup.
	[command]/usr/bin/git version
	git version 2.51.0
	Temporarily overriding HOME='/home/runner/work/_temp/8a7b6c5d' before making global git config changes
	Adding repository directory to the temporary git global config as a safe directory
	[command]/usr/bin/git config --global --add safe.directory /home/runner/work/REPO/REPO
	[command]/usr/bin/git config --local --name-only --get-regexp core\.sshCommand
	[command]/usr/bin/git config --local --name-only --get-regexp http\.https\:\/\/github\.com\/\.extraheader
	http.https://github.com/.extraheader
	[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader
	Cleaning up orphan processes
`

// ciJob is the repository a job of c's module runs in: owner/repo of a
// github.com module path, its first two elements after the host else.
func ciJob(c Case) string {
	parts := strings.Split(c.Module, "/")
	if len(parts) >= 3 {
		return parts[1] + "/" + parts[2]
	}
	return "example/" + parts[len(parts)-1]
}

// ciCommand is the command of the CI step that printed the failing
// output: go test of the whole module, as a workflow runs it, in the form
// -gotest prints (not the case's tests and package, which a CI step does
// not name and the output may not either).
func ciCommand() string {
	switch goTestMode {
	case "", "all":
		return "go test ./..."
	case "gotestsum":
		return "gotestsum --format " + goTestSumFormat + " -- ./..."
	case "gotestfmt":
		return "go test -json -v ./... 2>&1 | gotestfmt"
	}
	return "go test -" + goTestMode + " ./..."
}
