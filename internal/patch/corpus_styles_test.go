package patch

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// gdHunk is one hunk of a git diff.
type gdHunk struct {
	oldStart, oldN, newStart, newN int
	body                           []string
}

var reGitHunk = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// splitGitDiff cuts a one-file git diff into its header lines and hunks.
func splitGitDiff(d string) ([]string, []gdHunk) {
	var hdr []string
	var hunks []gdHunk
	for _, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		if m := reGitHunk.FindStringSubmatch(l); m != nil {
			h := gdHunk{oldN: 1, newN: 1}
			h.oldStart, _ = strconv.Atoi(m[1])
			h.newStart, _ = strconv.Atoi(m[3])
			if m[2] != "" {
				h.oldN, _ = strconv.Atoi(m[2])
			}
			if m[4] != "" {
				h.newN, _ = strconv.Atoi(m[4])
			}
			hunks = append(hunks, h)
			continue
		}
		if len(hunks) == 0 {
			hdr = append(hdr, l)
		} else {
			hunks[len(hunks)-1].body = append(hunks[len(hunks)-1].body, l)
		}
	}
	return hdr, hunks
}

func (h gdHunk) header() string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.oldStart, h.oldN, h.newStart, h.newN)
}

func joinHunks(hunks []gdHunk, header func(gdHunk) string) string {
	var b strings.Builder
	for _, h := range hunks {
		b.WriteString(header(h) + "\n")
		for _, l := range h.body {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func fenced(lang, body string) string {
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return "```" + lang + "\n" + body + "```\n"
}

const prose = "The bug is in the loop below; this change fixes it.\n\n"

// corpusStyles are the ways models write the same edit.
func corpusStyles() []style {
	plain := func(r func(c *corpusCase) string) func(c *corpusCase) (string, bool) {
		return func(c *corpusCase) (string, bool) { return r(c), false }
	}
	return []style{
		{"git", plain(func(c *corpusCase) string { return prose + fenced("diff", c.diff) })},
		{"bare", plain(func(c *corpusCase) string { return prose + c.diff + "\nThat is all.\n" })},
		{"no-git-header", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			return prose + fenced("patch", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks(hunks, gdHunk.header))
		})},
		{"no-prefix", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			return prose + fenced("", "--- "+c.rel+"\n+++ "+c.rel+"\n"+joinHunks(hunks, gdHunk.header))
		})},
		{"wrong-numbers", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			for i := range hunks {
				d := 3 + c.rng.Intn(38)
				if c.rng.Intn(2) == 0 {
					d = -d
				}
				hunks[i].oldStart = max(1, hunks[i].oldStart+d)
				hunks[i].newStart = max(1, hunks[i].newStart+d)
			}
			return prose + fenced("diff", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks(hunks, gdHunk.header))
		})},
		{"wrong-counts", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			for i := range hunks {
				hunks[i].oldN += 1 + c.rng.Intn(3)
				hunks[i].newN = max(0, hunks[i].newN-1-c.rng.Intn(2))
			}
			return prose + fenced("diff", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks(hunks, gdHunk.header))
		})},
		{"no-numbers", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			return prose + fenced("diff", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks(hunks, func(gdHunk) string {
				if c.rng.Intn(2) == 0 {
					return "@@ ... @@"
				}
				return "@@"
			}))
		})},
		{"trimmed-context", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			for i := range hunks {
				hunks[i].body = trimContext(hunks[i].body, 1)
			}
			return prose + fenced("diff", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks(hunks, gdHunk.header))
		})},
		{"trailing-ws", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			for i := range hunks {
				for j, l := range hunks[i].body {
					if strings.HasPrefix(l, " ") && c.rng.Intn(2) == 0 {
						hunks[i].body[j] = l + strings.Repeat(" ", 1+c.rng.Intn(3))
					}
				}
			}
			return prose + fenced("diff", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks(hunks, gdHunk.header))
		})},
		{"indent-drift", plain(func(c *corpusCase) string {
			// The model wrote every tab of indentation as four spaces.
			// Hunks whose old lines show no tab are left alone: nothing in
			// them says the file is indented with tabs.
			_, hunks := splitGitDiff(c.diff)
			for i := range hunks {
				evidence := false
				for _, l := range hunks[i].body {
					if in, _ := indentOf(strings.TrimPrefix(l, " ")); l != "" && l[0] != '+' && strings.Contains(in, "\t") {
						evidence = true
					}
				}
				for j, l := range hunks[i].body {
					if l == "" || l[0] == '\\' || !evidence {
						continue
					}
					in, rest := indentOf(l[1:])
					hunks[i].body[j] = l[:1] + strings.ReplaceAll(in, "\t", "    ") + rest
				}
			}
			return prose + fenced("diff", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks(hunks, gdHunk.header))
		})},
		{"crlf-file", func(c *corpusCase) (string, bool) { return prose + fenced("diff", c.diff), true }},
		{"crlf-reply", plain(func(c *corpusCase) string { return toCRLF(prose + fenced("diff", c.diff)) })},
		{"multi-fence", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			var b strings.Builder
			b.WriteString(prose)
			for i, h := range hunks {
				fmt.Fprintf(&b, "Change %d:\n\n", i+1)
				b.WriteString(fenced("diff", "--- a/"+c.rel+"\n+++ b/"+c.rel+"\n"+joinHunks([]gdHunk{h}, gdHunk.header)))
				b.WriteString("\n")
			}
			return b.String()
		})},
		{"hunks-under-path", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			return prose + "`" + c.rel + "`:\n" + fenced("diff", joinHunks(hunks, gdHunk.header))
		})},
		{"search-replace", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			var b strings.Builder
			b.WriteString(prose)
			b.WriteString(c.rel + "\n```go\n")
			for _, h := range hunks {
				var search, replace []string
				for _, l := range h.body {
					if strings.HasPrefix(l, `\`) {
						continue
					}
					if l[0] != '+' {
						search = append(search, l[1:])
					}
					if l[0] != '-' {
						replace = append(replace, l[1:])
					}
				}
				b.WriteString("<<<<<<< SEARCH\n")
				for _, l := range search {
					b.WriteString(l + "\n")
				}
				b.WriteString("=======\n")
				for _, l := range replace {
					b.WriteString(l + "\n")
				}
				b.WriteString(">>>>>>> REPLACE\n")
			}
			b.WriteString("```\n")
			return b.String()
		})},
		{"whole-file", plain(func(c *corpusCase) string {
			if strings.Count(c.old, "\n") > maxWholeLines {
				return ""
			}
			return prose + "**" + c.rel + "**\n" + fenced("go", c.new)
		})},
		{"all-sloppy", plain(func(c *corpusCase) string {
			_, hunks := splitGitDiff(c.diff)
			for i := range hunks {
				for j, l := range hunks[i].body {
					switch {
					case l == " ":
						hunks[i].body[j] = ""
					case strings.HasPrefix(l, " ") && c.rng.Intn(3) == 0:
						hunks[i].body[j] = l + " "
					}
				}
			}
			return "Sure! Here's the patch:\n" + fenced("diff", "--- "+c.rel+"\n+++ "+c.rel+"\n"+joinHunks(hunks, func(gdHunk) string { return "@@ -1,1 +1,1 @@" })) + "\nLet me know if it works.\n"
		})},
	}
}

// trimContext keeps at most n context lines at the start and end of a hunk body.
func trimContext(body []string, n int) []string {
	first, last := -1, -1
	for i, l := range body {
		if l != "" && (l[0] == '+' || l[0] == '-') {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	end := min(len(body), last+1+n)
	if end < len(body) && strings.HasPrefix(body[end], `\`) {
		end++
	}
	return body[max(0, first-n):end]
}
