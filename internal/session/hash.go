package session

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// RangeHash fingerprints one changed line range of a diff: the hunk's
// position in the new file and the SHA-256 of its resulting lines, so a
// later reader can check that a line range still holds what agentfix wrote.
type RangeHash struct {
	File   string `json:"file"`
	Start  int    `json:"start"`
	Lines  int    `json:"lines"`
	SHA256 string `json:"sha256"`
}

// RangeHashes returns a RangeHash for every hunk of a unified diff. The
// hash covers the hunk's new-side lines (context and additions), each
// ending in "\n".
func RangeHashes(diff string) []RangeHash {
	var (
		out  []RangeHash
		file string
		cur  *RangeHash
		body strings.Builder
	)
	finish := func() {
		if cur != nil {
			sum := sha256.Sum256([]byte(body.String()))
			cur.SHA256 = hex.EncodeToString(sum[:])
			out = append(out, *cur)
			cur = nil
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(diff, "\n") {
		text := strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(text, "diff --git "):
			finish()
		case strings.HasPrefix(text, "--- "):
			finish()
			file = diffPath(text[4:], "a/")
		case strings.HasPrefix(text, "+++ "):
			finish()
			// A deleted file keeps the name from its --- line.
			if p := diffPath(text[4:], "b/"); p != "/dev/null" {
				file = p
			}
		case strings.HasPrefix(text, "@@ "):
			finish()
			start, lines := newRange(text)
			cur = &RangeHash{File: file, Start: start, Lines: lines}
		case cur != nil && (strings.HasPrefix(text, "+") || strings.HasPrefix(text, " ")):
			body.WriteString(text[1:] + "\n")
		}
	}
	finish()
	return out
}

// diffPath is the path of a ---/+++ header without its prefix and any
// tab-separated timestamp.
func diffPath(s, prefix string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimPrefix(s, prefix)
}

// newRange reads "+start,lines" from a hunk header "@@ -a,b +c,d @@".
func newRange(header string) (start, lines int) {
	for _, f := range strings.Fields(header) {
		if !strings.HasPrefix(f, "+") {
			continue
		}
		s, l, ok := strings.Cut(f[1:], ",")
		start, _ = strconv.Atoi(s)
		lines = 1
		if ok {
			lines, _ = strconv.Atoi(l)
		}
		return start, lines
	}
	return 0, 0
}

// String formats h as file:start+lines sha256.
func (h RangeHash) String() string {
	return fmt.Sprintf("%s:%d+%d %s", h.File, h.Start, h.Lines, h.SHA256)
}
