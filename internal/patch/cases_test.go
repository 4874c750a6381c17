package patch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/golden"
)

// defaultPolicy is what the config's defaults give.
var defaultPolicy = Policy{
	Allow:           []string{"**"},
	Deny:            []string{".github/workflows/**", "**/*.pem", "**/.env*"},
	MaxFiles:        10,
	MaxChangedLines: 400,
}

// testCase is a testdata/cases/NAME.txt file: sections "-- NAME --" hold
// the repository's files, the "reply", and optionally a JSON "policy".
// A section name ending in " (crlf)" has its newlines turned into CRLF.
type testCase struct {
	files  map[string]string
	reply  string
	policy Policy
}

func readCase(t *testing.T, path string) testCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := testCase{files: map[string]string{}, policy: defaultPolicy}
	var name string
	var body strings.Builder
	flush := func() {
		if name == "" {
			return
		}
		s := body.String()
		if n, ok := strings.CutSuffix(name, " (crlf)"); ok {
			name, s = n, toCRLF(s)
		}
		if n, ok := strings.CutSuffix(name, " (no eol)"); ok {
			name, s = n, strings.TrimSuffix(s, "\n")
		}
		switch name {
		case "reply":
			c.reply = s
		case "policy":
			c.policy = Policy{}
			if err := json.Unmarshal([]byte(s), &c.policy); err != nil {
				t.Fatalf("%s: policy: %v", path, err)
			}
		default:
			c.files[name] = s
		}
		body.Reset()
	}
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --\n") {
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --\n")
			continue
		}
		body.WriteString(l)
	}
	flush()
	return c
}

// TestCases applies every testdata/cases reply to its files and compares
// the result, the normalised diff, the feedback and the files afterwards
// with the golden file. A refused patch must leave every file as it was.
func TestCases(t *testing.T) {
	paths, _ := filepath.Glob("testdata/cases/*.txt")
	if len(paths) == 0 {
		t.Fatal("no test cases")
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txt")
		t.Run(name, func(t *testing.T) {
			c := readCase(t, p)
			dir := t.TempDir()
			for f, s := range c.files {
				writeTestFile(t, dir, f, s)
			}
			before := snapshot(t, dir)
			res, err := Apply(dir, c.reply, c.policy, Options{})
			if err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, dir)
			if !res.Applied && !equalMaps(before, after) {
				t.Errorf("refused, but the tree changed")
			}
			if res.Applied {
				replay(t, c, res)
			}
			wantApplied := !strings.HasPrefix(name, "refuse-")
			if res.Applied != wantApplied {
				t.Errorf("applied = %v, want %v; errors: %v", res.Applied, wantApplied, res.Errors)
			}
			golden.Assert(t, "testdata/cases/"+name+".golden", render(res, before, after))
		})
	}
}

// replay checks that the normalised diff applies to the original files and
// gives the same result.
func replay(t *testing.T, c testCase, res *Result) {
	t.Helper()
	dir := t.TempDir()
	for f, s := range c.files {
		writeTestFile(t, dir, f, s)
	}
	pol := c.policy
	r2, err := Apply(dir, res.Diff, pol, Options{})
	if err != nil || !r2.Applied {
		t.Fatalf("the normalised diff does not re-apply: %v %v\n%s", err, r2.Errors, res.Diff)
	}
	if r2.Diff != res.Diff {
		t.Errorf("re-applying the normalised diff gives another diff:\n%s\nthen:\n%s", res.Diff, r2.Diff)
	}
}

// render is the golden form of a result: what a user would read.
func render(res *Result, before, after map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "applied: %v\nfiles: %s\n", res.Applied, strings.Join(res.Files, ", "))
	for _, r := range res.Repairs {
		fmt.Fprintf(&b, "repair: %s\n", r)
	}
	for _, e := range res.Errors {
		fmt.Fprintf(&b, "error: %s\n", e)
	}
	if res.Diff != "" {
		b.WriteString("-- diff --\n" + res.Diff)
	}
	if f := res.Feedback(); f != "" {
		b.WriteString("-- feedback --\n" + f)
	}
	var names []string
	for n := range after {
		if before[n] != after[n] {
			names = append(names, n)
		}
	}
	for n := range before {
		if _, ok := after[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		s, ok := after[n]
		switch {
		case !ok:
			fmt.Fprintf(&b, "-- %s (deleted) --\n", n)
		default:
			fmt.Fprintf(&b, "-- %s (after) --\n%s", n, strings.ReplaceAll(s, "\r", "␍"))
			if !strings.HasSuffix(s, "\n") {
				b.WriteString("⏎ no newline at end of file\n")
			}
		}
	}
	return b.String()
}

// snapshot reads every file under dir, and the mode bits.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			m[filepath.ToSlash(rel)] = "symlink to " + target
			return nil
		}
		b, _ := os.ReadFile(p)
		m[filepath.ToSlash(rel)] = string(b)
		if fi.Mode()&0o111 != 0 {
			m[filepath.ToSlash(rel)+" (mode)"] = "executable"
		}
		return nil
	})
	return m
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
