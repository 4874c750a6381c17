package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The report reads texts relative to the counts file, compares the
// estimate with the highest count of each file, and names the files it is
// below.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.go": "func main() {}\n", "b.txt": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// a.go: 10 estimated tokens, counted at 5 and 6; b.txt: 1, counted at 3
	// and 1: 11 against the highest, 9.
	counts := `{"path":"a.go","bytes":15,"counts":{"one":5,"two":6}}
{"path":"b.txt","bytes":1,"counts":{"one":3,"two":1}}
`
	name := filepath.Join(dir, "counts.jsonl")
	if err := os.WriteFile(name, []byte(counts), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := report(name, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"2 files, 16 bytes",
		"one                     8        2.00",
		"tokens.Estimate / the highest tokenizer per file: total 1.222, min 0.333",
		"below it: 1 of 2 files (lowest: " + filepath.Join(dir, "b.txt") + ")",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	// The lowest ratio of a file per tokenizer, at the end of its row of
	// ratios: one, 1/3 (b.txt); two, 1/1 (b.txt), below a.go's 10/6.
	for _, line := range strings.Split(out.String(), "\n") {
		for prefix, lowest := range map[string]string{"one ": "0.333", "two ": "1.000"} {
			if strings.HasPrefix(line, prefix) && strings.Contains(line, ".") && !strings.HasSuffix(line, " "+lowest) {
				t.Errorf("row %q does not end with the lowest ratio %s", line, lowest)
			}
		}
	}
}

// A counts file whose texts changed since they were counted is refused.
func TestReportRefusesStaleCounts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "counts.jsonl")
	if err := os.WriteFile(name, []byte(`{"path":"a.go","bytes":3,"counts":{"one":1}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := report(name, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "count it again") {
		t.Errorf("report of stale counts: %v, want a refusal", err)
	}
}

// windows counts, per tokenizer, the prompts whose window is too small for
// the tokenizer's count and those it is larger than needed for, with the
// client's estimate and with four bytes a token.
func TestWindows(t *testing.T) {
	// 20,000 digits: 20,008 tokens by the client's count, 5,004 by four
	// bytes a token. With the reply, the client asks 32,768, and the rule
	// before (an eighth more) 16,384. Counted at 13,000, the prompt needs
	// 32,768; at 100, 8,192.
	texts := []string{strings.Repeat("1234567890", 2000)}
	rows := []row{{Path: "digits.txt", Bytes: 20000, Counts: map[string]int{"a": 13000, "b": 100}}}
	var out strings.Builder
	windows(rows, texts, []string{"a", "b"}, &out)
	for _, want := range []string{
		"a                       0          0                1                0",
		"b                       0          1                0                1",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("windows lacks %q:\n%s", want, out.String())
		}
	}
}
