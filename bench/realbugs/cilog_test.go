package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestActionsLog: the log is what Actions writes: a byte order mark, a
// time before every line, the step's group, the output's lines in order
// after it, the runner's exit line; for a job, its set-up before the step
// and its cleanup after.
func TestActionsLog(t *testing.T) {
	out := "--- FAIL: TestGet (0.00s)\n    kv_test.go:11: want false\nFAIL\n"
	stamp := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z `)
	for _, job := range []string{"", "storeco/kvstore"} {
		log := actionsLog(out, "go test ./...", job)
		body, ok := strings.CutPrefix(log, "\ufeff")
		if !ok {
			t.Fatalf("no byte order mark: %q", log[:20])
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
			loc := stamp.FindStringIndex(l)
			if loc == nil {
				t.Fatalf("a line without a time: %q", l)
			}
			lines = append(lines, l[loc[1]:])
		}
		text := strings.Join(lines, "\n") + "\n"
		step := "##[group]Run go test ./...\n\x1b[36;1mgo test ./...\x1b[0m\nshell: /usr/bin/bash -e {0}\nenv:\n  GOTOOLCHAIN: local\n##[endgroup]\n" + out + "##[error]Process completed with exit code 1.\n"
		if !strings.Contains(text, step) {
			t.Errorf("job %q: the step is not in the log:\n%s", job, text)
		}
		if job == "" && text != step {
			t.Errorf("the step's log holds more than the step:\n%s", text)
		}
		if job != "" && (!strings.HasPrefix(text, "Current runner version:") || !strings.Contains(text, "repository: "+job+"\n") || !strings.HasSuffix(text, "Cleaning up orphan processes\n")) {
			t.Errorf("the job's log lacks its set-up or cleanup:\n%s", text)
		}
	}
	if got := ciJob(Case{Module: "github.com/tdewolff/parse/v2"}); got != "tdewolff/parse" {
		t.Errorf("ciJob = %q, want tdewolff/parse", got)
	}
}

func TestOnRunner(t *testing.T) {
	out := "--- FAIL: TestGet (0.00s)\n" +
		"panic: boom\n" +
		"example.com/kv.(*Store).Get(...)\n" +
		"\t/tmp/realbugs-1234/before/store/store.go:12 +0x1d\n" +
		"testing.tRunner(0xc000007380, 0x5f1e08)\n" +
		"\t/usr/local/go/src/testing/testing.go:1595 +0xff\n" +
		"github.com/stretchr/testify/assert.Fail(...)\n" +
		"\t/root/go/pkg/mod/github.com/stretchr/testify@v1.8.4/assert/assertions.go:333\n" +
		"\t/opt/go/src/runtime/panic.go:770 +0x132\n" +
		"\t/tmp/realbugs-99/failing/kv.go:3\n"
	want := "--- FAIL: TestGet (0.00s)\n" +
		"panic: boom\n" +
		"example.com/kv.(*Store).Get(...)\n" +
		"\t/home/runner/work/kv/kv/store/store.go:12 +0x1d\n" +
		"testing.tRunner(0xc000007380, 0x5f1e08)\n" +
		"\t/opt/hostedtoolcache/go/1.24.9/x64/src/testing/testing.go:1595 +0xff\n" +
		"github.com/stretchr/testify/assert.Fail(...)\n" +
		"\t/home/runner/go/pkg/mod/github.com/stretchr/testify@v1.8.4/assert/assertions.go:333\n" +
		"\t/opt/hostedtoolcache/go/1.24.9/x64/src/runtime/panic.go:770 +0x132\n" +
		"\t/home/runner/work/kv/kv/kv.go:3\n"
	if got := onRunner(out, "example/kv", "/opt/go", "/home/u/go/pkg/mod"); got != want {
		t.Errorf("onRunner:\n%s\nwant:\n%s", got, want)
	}
}
