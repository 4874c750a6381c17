package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// contextRepo is a git repository with a small Go package and, if cfg is
// not empty, a config file.
func contextRepo(t *testing.T, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                "module example.com/calc\n\ngo 1.22\n",
		"calc/sum.go":           "package calc\n\n// Sum adds the numbers in xs.\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs[1:] {\n\t\tt += x\n\t}\n\treturn t\n}\n",
		"calc/sum_test.go":      "package calc\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif got := Sum([]int{1, 2}); got != 3 {\n\t\tt.Errorf(\"Sum = %d, want 3\", got)\n\t}\n}\n",
		"calc/product.go":       "package calc\n\n// Product multiplies the numbers in xs.\nfunc Product(xs []int) int {\n\tp := 1\n\tfor _, x := range xs {\n\t\tp *= x\n\t}\n\treturn p\n}\n",
		"cmd/calc/main.go":      "package main\n\nfunc main() {}\n",
		"vendor/x/y/y.go":       "package y\n\nfunc Sum() {}\n",
		".github/agent-fix.yml": cfg,
	}
	if cfg == "" {
		delete(files, ".github/agent-fix.yml")
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// untrackedRepo is a repository that git init made and whose file was
// never added.
func untrackedRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

const sumFailure = "--- FAIL: TestSum (0.00s)\n    sum_test.go:7: Sum = 2, want 3\nFAIL\nFAIL\texample.com/calc/calc\t0.003s\n"

func TestContextText(t *testing.T) {
	t.Parallel()
	repo := contextRepo(t, "")
	code, out, errOut := runCLI(t, nil, "context", "--repo", repo, "--query", sumFailure, "--budget", "1500")
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "# Repository map (5 files indexed)\n") {
		t.Errorf("stdout does not start with the repo map:\n%s", out)
	}
	codeAt := strings.Index(out, "# Code")
	sumAt := strings.Index(out, "## calc/sum.go (lines 1-10 of 10)\n")
	if codeAt < 0 || sumAt < codeAt {
		t.Errorf("calc/sum.go not packed whole after the map:\n%s", out)
	}
	if !strings.Contains(out, "## calc/sum.go (lines 1-10 of 10)\n1\tpackage calc\n") || !strings.Contains(out, "\n\tfunc Sum(xs []int) int {\n") {
		t.Errorf("calc/sum.go not shown from its numbered first line, with Sum:\n%s", out)
	}
	if strings.Contains(out, "vendor/") {
		t.Errorf("vendored code packed:\n%s", out)
	}
	if !strings.Contains(errOut, "of 1500 tokens, 5 files indexed") {
		t.Errorf("stderr = %q, want the summary line", errOut)
	}
}

func TestContextJSON(t *testing.T) {
	t.Parallel()
	repo := contextRepo(t, "")
	code, out, errOut := runCLI(t, nil, "context", "--repo", repo, "--query", sumFailure, "--budget", "800", "--json")
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, errOut)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	for _, key := range []string{"files", "tokens_used", "repo_files", "took_ms"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("JSON lacks %q: %s", key, out)
		}
	}
	var got struct {
		Files []struct {
			Path   string  `json:"path"`
			Score  float64 `json:"score"`
			Tokens int     `json:"tokens"`
			Chunks []struct {
				StartLine int `json:"start_line"`
				EndLine   int `json:"end_line"`
			} `json:"chunks"`
		} `json:"files"`
		TokensUsed int `json:"tokens_used"`
		RepoFiles  int `json:"repo_files"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Files) == 0 || got.Files[0].Path != "calc/sum.go" {
		t.Fatalf("files = %+v, want calc/sum.go first", got.Files)
	}
	f := got.Files[0]
	if f.Score <= 0 || f.Tokens <= 0 || len(f.Chunks) != 1 || f.Chunks[0].StartLine != 1 || f.Chunks[0].EndLine != 10 {
		t.Errorf("first file = %+v, want a positive score and tokens and chunk 1-10", f)
	}
	for i := 1; i < len(got.Files); i++ {
		if got.Files[i].Score > got.Files[i-1].Score {
			t.Errorf("files not in rank order: %+v", got.Files)
		}
	}
	if got.TokensUsed <= 0 || got.TokensUsed > 800 {
		t.Errorf("tokens_used = %d, want within (0, 800]", got.TokensUsed)
	}
	if got.RepoFiles != 5 {
		t.Errorf("repo_files = %d, want 5 (vendor/ left out)", got.RepoFiles)
	}
}

func TestContextQueryFile(t *testing.T) {
	t.Parallel()
	repo := contextRepo(t, "")
	qf := filepath.Join(t.TempDir(), "q.txt")
	if err := os.WriteFile(qf, []byte("calc: Product of an empty list should be 1"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, nil, "context", "--repo", repo, "--query-file", qf, "--json")
	if code != 0 || !strings.Contains(out, `"path": "calc/product.go"`) {
		t.Fatalf("exit %d, stdout %s, stderr %s; want calc/product.go packed", code, out, errOut)
	}

	var stdout, stderr bytes.Buffer
	e := MapEnv(nil, strings.NewReader(sumFailure), &stdout, &stderr)
	if code := Main(context.Background(), []string{"context", "--repo", repo, "--query-file", "-", "--json"}, e); code != 0 {
		t.Fatalf("--query-file -: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"path": "calc/sum.go"`) {
		t.Errorf("--query-file - did not read the query from stdin: %s", stdout.String())
	}
}

func TestContextDefaultBudget(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cfg  string
		want string
	}{
		{"", "of 12288 tokens"},
		{"ollama:\n  num_ctx: 16384\n", "of 6144 tokens"},
		{"ollama:\n  num_ctx: 4096\n", "of 1024 tokens"},
	} {
		repo := contextRepo(t, tt.cfg)
		code, _, errOut := runCLI(t, nil, "context", "--repo", repo, "--query", sumFailure)
		if code != 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("config %q: exit %d, stderr %q; want %q", tt.cfg, code, errOut, tt.want)
		}
	}
}

func TestContextUsageErrors(t *testing.T) {
	t.Parallel()
	repo := contextRepo(t, "")
	for _, tt := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"--repo", repo}, "exactly one of --query"},
		{[]string{"--repo", repo, "--query", "x", "--query-file", "f"}, "exactly one of --query"},
		{[]string{"--repo", repo, "--query", "x", "--budget", "-5"}, "--budget -5"},
		{[]string{"--repo", repo, "--query", "x", "extra"}, `unexpected argument "extra"`},
		{[]string{"--repo", repo, "--query", "  \n"}, "the query is empty"},
		{[]string{"--repo", repo, "--query-file", filepath.Join(repo, "missing.txt")}, "missing.txt"},
		{[]string{"--repo", t.TempDir(), "--query", "x"}, "not a git repository"},
		{[]string{"--repo", filepath.Join(repo, "nope"), "--query", "x"}, "not a directory"},
		{[]string{"--repo", untrackedRepo(t), "--query", "x"}, "git add"},
		{[]string{"--repo", contextRepo(t, "model: [\n"), "--query", "x"}, "agent-fix.yml"},
	} {
		code, _, errOut := runCLI(t, nil, append([]string{"context"}, tt.args...)...)
		if code != 2 || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("context %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.stderr)
		}
	}
}

// TestContextPacksWhatFixPacks: for the same task and model, `context`
// shows the files, chunks and token count that `fix` recorded as packed.
func TestContextPacksWhatFixPacks(t *testing.T) {
	t.Parallel()
	repo := fixRepo(t)
	srv := ollamafake.New(t, ollamafake.Model{Name: e2eModel})
	srv.Script(e2eModel, ollamafake.Text(e2ePlan), ollamafake.Text(fixReply(t, "fix.diff")))
	sessionPath := filepath.Join(t.TempDir(), "s.jsonl")
	if code, stdout, stderr := runFixCmd(t, "fix", "--repo", repo, "--failing", "--dry-run", "--ollama-host", srv.URL, "--session", sessionPath); code != 0 {
		t.Fatalf("fix: exit %d\n%s\n%s", code, stdout, stderr)
	}
	events, err := session.ReadFile(sessionPath)
	if err != nil {
		t.Fatal(err)
	}
	var packed *agent.Packed
	for _, e := range events {
		if e.Kind == "context" {
			packed = &agent.Packed{}
			if err := e.Decode(packed); err != nil {
				t.Fatal(err)
			}
		}
	}
	if packed == nil || len(packed.Files) == 0 {
		t.Fatalf("the fix recorded no context pack: %+v", packed)
	}
	qf := filepath.Join(t.TempDir(), "query.txt")
	if err := os.WriteFile(qf, []byte(packed.Query), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, nil, "context", "--repo", repo, "--query-file", qf, "--json")
	if code != 0 {
		t.Fatalf("context: exit %d\n%s", code, errOut)
	}
	var got struct {
		Files      []repoctx.File `json:"files"`
		TokensUsed int            `json:"tokens_used"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Files, packed.Files) || got.TokensUsed != packed.TokensUsed {
		t.Errorf("context packed %d tokens: %+v\nfix packed %d tokens (budget %d): %+v", got.TokensUsed, got.Files, packed.TokensUsed, packed.Budget, packed.Files)
	}
}

// TestContextReadsAGoTestJSONLog: a CI log of go test -json, read from
// stdin, is the text it encodes less what passed: TestProduct* passed, so
// calc/product.go is not raised as if they had failed.
func TestContextReadsAGoTestJSONLog(t *testing.T) {
	t.Parallel()
	repo := contextRepo(t, "")
	var log strings.Builder
	event := func(test, output string) {
		b, err := json.Marshal(map[string]string{"Time": "2026-11-25T05:00:00Z", "Action": "output", "Package": "example.com/calc/calc", "Test": test, "Output": output})
		if err != nil {
			t.Fatal(err)
		}
		log.Write(append(b, '\n'))
	}
	for _, name := range []string{"TestProduct", "TestProductEmpty", "TestProductNegative"} {
		event(name, "=== RUN   "+name+"\n")
		event(name, "    product_test.go:9: Product([]int{}) = 1\n")
		event(name, "--- PASS: "+name+" (0.00s)\n")
	}
	event("TestSum", "=== RUN   TestSum\n")
	event("TestSum", "    sum_test.go:7: Sum = 2, want 3\n")
	event("TestSum", "--- FAIL: TestSum (0.00s)\n")
	event("", "FAIL\n")
	var stdout, stderr bytes.Buffer
	e := MapEnv(nil, strings.NewReader(log.String()), &stdout, &stderr)
	if code := Main(context.Background(), []string{"context", "--repo", repo, "--query-file", "-", "--budget", "800", "--json"}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got struct {
		Files []struct {
			Path  string  `json:"path"`
			Score float64 `json:"score"`
		} `json:"files"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
	}
	if len(got.Files) == 0 || got.Files[0].Path != "calc/sum.go" {
		t.Fatalf("files %+v, want calc/sum.go first", got.Files)
	}
	for _, f := range got.Files {
		if f.Path == "calc/product.go" && f.Score > got.Files[0].Score/5 {
			t.Errorf("calc/product.go, tested only by tests that passed, scores %.3f against calc/sum.go's %.3f", f.Score, got.Files[0].Score)
		}
	}
}
