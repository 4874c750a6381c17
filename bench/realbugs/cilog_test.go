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
