package patch

import (
	"strings"
	"testing"
)

// hybridH is a minimal reproduction of llama.cpp's llama-memory-hybrid.h
// around the hunk of issue 12: two "    //" lines, one followed by a
// comment, the other by a blank line.
const hybridH = `#pragma once

class llama_memory_hybrid {
public:
    //
    // llama_memory_hybrid_context
    //

    llama_memory_hybrid(int n);
};
`

// defines repeats a block of #defines, as ggml's arch-fallback.h does for
// each architecture: the same lines at lines 3 and 13.
const defines = `#pragma once
#if defined(__aarch64__)
#define gemv_q4_0_4x4 gemv_q4_0_4x4_generic
#define gemv_q4_0_4x8 gemv_q4_0_4x8_generic
#define gemv_q4_K_8x4 gemv_q4_K_8x4_generic
#define gemv_q4_K_8x8 gemv_q4_K_8x8_generic
#define gemv_iq4_nl   gemv_iq4_nl_generic
#define gemm_q4_0_4x4 gemm_q4_0_4x4_generic
#endif
// x86
#if defined(__x86_64__)
#define gemv_q8_0_4x4 gemv_q8_0_4x4_generic
#define gemv_q4_0_4x4 gemv_q4_0_4x4_generic
#define gemv_q4_0_4x8 gemv_q4_0_4x8_generic
#define gemv_q4_K_8x4 gemv_q4_K_8x4_generic
#define gemv_q4_K_8x8 gemv_q4_K_8x8_generic
#define gemv_iq4_nl   gemv_iq4_nl_generic
#define gemm_q4_0_4x4 gemm_q4_0_4x4_generic
#endif
`

// removeK88 is a hunk that matches defines at lines 3 and 13 alike.
const removeK88 = ` #define gemv_q4_0_4x8 gemv_q4_0_4x8_generic
 #define gemv_q4_K_8x4 gemv_q4_K_8x4_generic
-#define gemv_q4_K_8x8 gemv_q4_K_8x8_generic
 #define gemv_iq4_nl   gemv_iq4_nl_generic
`

// loops is a Go file with the same three lines in two functions.
const loops = `package poll

func (fd *FD) Read(p []byte) (int, error) {
	for {
		n, err := read(fd, p)
		if err != nil {
			n = 0
			if err == errAgain {
				continue
			}
		}
		return n, err
	}
}

func (fd *FD) Write(p []byte) (int, error) {
	for {
		n, err := write(fd, p)
		if err != nil {
			n = 0
			if err == errAgain {
				continue
			}
		}
		return n, err
	}
}
`

func diffOf(path, body string) string {
	return "```diff\n--- a/" + path + "\n+++ b/" + path + "\n" + body + "```\n"
}

// TestPlacement pins where a hunk goes when several places could take it,
// and in particular that a match needing a relaxation never beats a
// stricter match elsewhere (issue 12). want is the file afterwards, or ""
// when the reply must be refused with an error containing refusal.
func TestPlacement(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, file, reply string
		want, refusal     string
	}{
		{
			// The header claims the first "    //"; without its blank line
			// the hunk matches there too. The blank line is part of the
			// hunk, so the one exact match wins.
			name: "issue 12: a trailing blank context line is part of the hunk",
			file: hybridH,
			reply: diffOf("memory.h", `@@ -5,6 +5,7 @@
     //
+	// agentfix: inserted line 2.0
 
`),
			want: strings.Replace(hybridH, "    //\n\n", "    //\n\t// agentfix: inserted line 2.0\n\n", 1),
		},
		{
			// From the corpus (a flatbuffers .ts file): blank lines all
			// over, two in a row once.
			name: "a hunk of blank lines goes to the one place with as many",
			file: "import a;\n\nimport b;\n\n\nclass A {\n}\n\nclass B {\n}\n",
			reply: diffOf("memory.h", `@@ -2,6 +2,8 @@
 
+// inserted
 
`),
			want: "import a;\n\nimport b;\n\n// inserted\n\nclass A {\n}\n\nclass B {\n}\n",
		},
		{
			// Without the blank lines the hunk is a relaxed reading, which
			// the header cannot vouch for: "    //" is at its line and two
			// lines below.
			name: "blank lines dropped: several matches are ambiguous even at the header's line",
			file: hybridH,
			reply: diffOf("memory.h", `@@ -5,3 +5,4 @@
 
     //
+	// added
 
`),
			refusal: "match 2 places",
		},
		{
			name:  "the header's line picks one of several exact matches",
			file:  defines,
			reply: diffOf("memory.h", "@@ -14,4 +14,3 @@\n"+removeK88),
			want:  removeLine(defines, 16),
		},
		{
			// From the corpus (ggml's arch-fallback.h): the header is 27
			// lines off the block meant, and one line off another copy.
			// Being near says nothing about which copy was meant.
			name:    "a header near one of several exact matches, but not at it, is ambiguous",
			file:    defines,
			reply:   diffOf("memory.h", "@@ -5,4 +5,3 @@\n"+removeK88),
			refusal: "match 2 places",
		},
		{
			// The header counts 7 old lines and the hunk has 4: its
			// context was trimmed, and it lies within lines 12 to 18.
			name:  "the span a trimmed hunk's header claims picks one of several matches",
			file:  defines,
			reply: diffOf("memory.h", "@@ -12,7 +12,6 @@\n"+removeK88),
			want:  removeLine(defines, 16),
		},
		{
			// From the corpus (mlx's fft.h, numbers off by different
			// amounts): the first hunk is unique and found 5 lines before
			// its header's line; that offset puts the second hunk one line
			// off a copy, which is a guess, not the header's word.
			name: "an offset learned from another hunk does not pick a near match",
			file: defines,
			reply: diffOf("memory.h", `@@ -7,2 +7,3 @@
 #if defined(__aarch64__)
+// arm
 #define gemv_q4_0_4x4 gemv_q4_0_4x4_generic
@@ -10,4 +11,3 @@
`+removeK88),
			refusal: "match 2 places",
		},
		{
			name: "an offset learned from another hunk picks an exact match at the moved line",
			file: defines,
			reply: diffOf("memory.h", `@@ -7,2 +7,3 @@
 #if defined(__aarch64__)
+// arm
 #define gemv_q4_0_4x4 gemv_q4_0_4x4_generic
@@ -19,4 +20,3 @@
`+removeK88),
			want: strings.Replace(removeLine(defines, 16), "#if defined(__aarch64__)\n", "#if defined(__aarch64__)\n// arm\n", 1),
		},
		{
			// Same lines, but only with trailing whitespace ignored: the
			// offset is no reason to pick one.
			name: "an offset learned from another hunk does not pick a relaxed match",
			file: defines,
			reply: diffOf("memory.h", `@@ -7,2 +7,3 @@
 #if defined(__aarch64__)
+// arm
 #define gemv_q4_0_4x4 gemv_q4_0_4x4_generic
@@ -19,4 +20,3 @@
`+trailingSpaces(removeK88)),
			refusal: "match 2 places",
		},
		{
			name:  "trailing whitespace ignored: the match at the header's line wins",
			file:  defines,
			reply: diffOf("memory.h", "@@ -14,4 +14,3 @@\n"+trailingSpaces(removeK88)),
			want:  removeLine(defines, 16),
		},
		{
			name:    "trailing whitespace ignored: several matches, none at the header's line, are ambiguous",
			file:    defines,
			reply:   diffOf("memory.h", "@@ -15,4 +15,3 @@\n"+trailingSpaces(removeK88)),
			refusal: "match 2 places",
		},
		{
			name:  "an exact match beats one at the header's line that ignores trailing whitespace",
			file:  "a\nb  \nc\nx\na\nb\nc\n",
			reply: diffOf("memory.h", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"),
			want:  "a\nb  \nc\nx\na\nB\nc\n",
		},
		{
			name:  "an exact match beats one at the header's line that ignores indentation",
			file:  "if x {\n\tf()\n}\nif x {\n    f()\n}\n",
			reply: diffOf("memory.h", "@@ -1,3 +1,3 @@\n if x {\n-    f()\n+    g()\n }\n"),
			want:  "if x {\n\tf()\n}\nif x {\n    g()\n}\n",
		},
		{
			name:  "ignoring trailing whitespace beats ignoring indentation at the header's line",
			file:  "if x {\n    f()\n}\nif x {\n  f()  \n}\n",
			reply: diffOf("memory.h", "@@ -1,3 +1,3 @@\n if x {\n-  f()\n+  g()\n }\n"),
			want:  "if x {\n    f()\n}\nif x {\n  g()\n}\n",
		},
		{
			name:    "indentation ignored: several matches, none at the header's line, are ambiguous",
			file:    "if x {\n\tf()\n}\nif x {\n\tf()\n}\n",
			reply:   diffOf("memory.h", "@@ -2,3 +2,3 @@\n if x {\n-    f()\n+    g()\n }\n"),
			refusal: "match 2 places",
		},
		{
			// From the corpus (Go's internal/poll/fd_unix.go): one fence
			// per hunk, two of them alike but for their headers.
			name: "the same change at two lines is made twice",
			file: loops,
			reply: diffOf("memory.h", "@@ -6,3 +6,2 @@\n \t\tif err != nil {\n-\t\t\tn = 0\n \t\t\tif err == errAgain {\n") +
				"\n" + diffOf("memory.h", "@@ -19,3 +18,2 @@\n \t\tif err != nil {\n-\t\t\tn = 0\n \t\t\tif err == errAgain {\n"),
			want: strings.ReplaceAll(loops, "\t\t\tn = 0\n", ""),
		},
		{
			// The second fence numbers the file as the reply found it; the
			// first removed two lines above it.
			name: "a later edit's header is read against the file as earlier edits left it",
			file: "// one\n// two\n" + loops,
			reply: diffOf("memory.h", "@@ -1,3 +1,1 @@\n-// one\n-// two\n package poll\n") +
				"\n" + diffOf("memory.h", "@@ -21,3 +19,2 @@\n \t\tif err != nil {\n-\t\t\tn = 0\n \t\t\tif err == errAgain {\n"),
			want: loops[:strings.LastIndex(loops, "\t\t\tn = 0\n")] + loops[strings.LastIndex(loops, "\t\t\tn = 0\n")+len("\t\t\tn = 0\n"):],
		},
		{
			// From the corpus (a CRLF README.md sent in a CRLF reply).
			name:  "a CRLF reply for a CRLF file adds lines with one CR",
			file:  toCRLF("a\nb\nc\n"),
			reply: toCRLF(diffOf("memory.h", "@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n")),
			want:  toCRLF("a\nB\nc\n"),
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeTestFile(t, dir, "memory.h", c.file)
			res, err := Apply(dir, c.reply, Policy{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := readTestFile(t, dir, "memory.h")
			if c.want == "" {
				if res.Applied || got != c.file {
					t.Fatalf("applied, want refused; the file is now\n%s", got)
				}
				if !strings.Contains(joinProblems(res.Errors), c.refusal) {
					t.Errorf("errors %q, want one saying %q", joinProblems(res.Errors), c.refusal)
				}
				return
			}
			if !res.Applied {
				t.Fatalf("refused: %s", joinProblems(res.Errors))
			}
			if got != c.want {
				t.Errorf("the file is now\n%q\nwant\n%q\nrepairs: %q", got, c.want, res.Repairs)
			}
		})
	}
}

// removeLine drops line n (1-based) of s.
func removeLine(s string, n int) string {
	l := strings.SplitAfter(s, "\n")
	return strings.Join(append(l[:n-1:n-1], l[n:]...), "")
}

// trailingSpaces adds a space after every context line of a hunk body.
func trailingSpaces(body string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		if strings.HasPrefix(l, " ") {
			l = strings.TrimSuffix(l, "\n") + " \n"
		}
		b.WriteString(l)
	}
	return b.String()
}

func joinProblems(ps []Problem) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.String())
	}
	return strings.Join(s, "; ")
}
