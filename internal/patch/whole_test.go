package patch

import (
	"fmt"
	"strings"
	"testing"
)

// mathxFile is a Go file of funcs functions, each eleven lines, after an
// eight-line header; body(i) is the i-th function's return expression.
func mathxFile(funcs int, body func(i int) string) string {
	var b strings.Builder
	b.WriteString("// Package mathx has small helpers.\npackage mathx\n\nimport (\n\t\"errors\"\n)\n\nvar errEmpty = errors.New(\"empty\")\n")
	for i := range funcs {
		fmt.Fprintf(&b, "\n// F%[1]d folds xs with the %[1]d-th rule.\nfunc F%[1]d(xs%[1]d []int) (int, error) {\n\tif len(xs%[1]d) == 0 {\n\t\treturn 0, errEmpty\n\t}\n\tacc%[1]d := xs%[1]d[0]\n\tfor _, x := range xs%[1]d[1:] {\n\t\tacc%[1]d = %[2]s\n\t}\n\treturn acc%[1]d, nil\n}\n", i, body(i))
	}
	return b.String()
}

func wholeReply(path, content string) string {
	return "Here is the complete file.\n\n**" + path + "**\n```go\n" + content + "```\n"
}

// TestWholeFileRewriteThatGrowsIsAccepted: a complete file whose new code
// was added at the end (58 lines grown to 78 here, as in the corpus that
// found the refusal) is the file, not a fragment.
func TestWholeFileRewriteThatGrowsIsAccepted(t *testing.T) {
	old := mathxFile(4, func(i int) string { return fmt.Sprintf("acc%d + x*%d", i, i) })
	fixed := func(i int) string {
		if i == 1 {
			return "acc1 - x"
		}
		return fmt.Sprintf("acc%d + x*%d", i, i)
	}
	for _, tc := range []struct {
		name  string
		funcs int
	}{{"same length", 4}, {"grown by one function", 5}, {"grown by two functions", 6}, {"grown by four functions", 8}} {
		t.Run(tc.name, func(t *testing.T) {
			new := mathxFile(tc.funcs, fixed)
			dir := t.TempDir()
			writeTestFile(t, dir, "mathx/mathx.go", old)
			res, err := Apply(dir, wholeReply("mathx/mathx.go", new), defaultPolicy, Options{})
			if err != nil || !res.Applied {
				t.Fatalf("%d lines for a file of %d refused: %v %v", strings.Count(new, "\n"), strings.Count(old, "\n"), err, res.Errors)
			}
			if got := readTestFile(t, dir, "mathx/mathx.go"); got != new {
				t.Errorf("the file is not the reply's:\n%s", got)
			}
		})
	}
}

// TestWholeFileFragmentsAreRefused: a block that is only part of the file
// (its middle, or the file cut short) never replaces it.
func TestWholeFileFragmentsAreRefused(t *testing.T) {
	old := mathxFile(5, func(i int) string { return fmt.Sprintf("acc%d + x*%d", i, i) })
	lines := strings.SplitAfter(old, "\n")
	for _, tc := range []struct {
		name, block string
	}{
		{"the middle", strings.Join(lines[20:45], "")},
		{"cut short", strings.Join(lines[:len(lines)*3/4], "")},
		{"cut short and grown", strings.Join(lines[:len(lines)-12], "") + strings.ReplaceAll(mathxFile(2, func(int) string { return "0" })[60:], "F", "G")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTestFile(t, dir, "mathx/mathx.go", old)
			res, err := Apply(dir, wholeReply("mathx/mathx.go", tc.block), defaultPolicy, Options{})
			if err != nil || res.Applied || len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, "fragment") {
				t.Fatalf("a fragment was not refused as one: %v %+v", err, res)
			}
			if got := readTestFile(t, dir, "mathx/mathx.go"); got != old {
				t.Error("a refused fragment changed the file")
			}
		})
	}
}

// TestNULByteMakesABinaryFileAndIsRefused: text replies only change text
// files; an added line with a NUL byte is refused in every reply format.
func TestNULByteMakesABinaryFileAndIsRefused(t *testing.T) {
	old := "package calc\n\nconst sep = \",\"\n"
	for name, reply := range map[string]string{
		"diff":           "```diff\n--- a/calc.go\n+++ b/calc.go\n@@ -1,3 +1,3 @@\n package calc\n \n-const sep = \",\"\n+const sep = \"\x00\"\n```\n",
		"search/replace": "calc.go\n```go\n<<<<<<< SEARCH\nconst sep = \",\"\n=======\nconst sep = \"\x00\"\n>>>>>>> REPLACE\n```\n",
		"whole file":     wholeReply("calc.go", "package calc\n\nconst sep = \"\x00\"\n"),
		"new file":       "```diff\n--- /dev/null\n+++ b/blob.go\n@@ -0,0 +1 @@\n+\x00\x01\x02\n```\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTestFile(t, dir, "calc.go", old)
			res, err := Apply(dir, reply, defaultPolicy, Options{})
			if err != nil || res.Applied {
				t.Fatalf("a NUL byte was accepted: %v %+v", err, res)
			}
			found := false
			for _, p := range res.Errors {
				found = found || strings.Contains(p.Message, "NUL byte")
			}
			if !found {
				t.Errorf("errors %+v do not name the NUL byte", res.Errors)
			}
			if got := readTestFile(t, dir, "calc.go"); got != old {
				t.Error("the file changed")
			}
		})
	}
}
