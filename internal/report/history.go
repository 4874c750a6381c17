package report

import (
	"regexp"
	"strings"
)

// The status comment's history of earlier runs sits between these markers,
// one Markdown list item per run, newest first.
const (
	historyStart = "<!-- agentfix:history -->"
	historyEnd   = "<!-- /agentfix:history -->"
)

// maxHistory bounds the earlier runs a status comment keeps; maxEntry
// bounds each one.
const (
	maxHistory = 10
	maxEntry   = 400
)

var runLinkRE = regexp.MustCompile(`\[Workflow run\]\((https?://[^)\s]+)\)`)

// EarlierRuns is the history a status comment carries on from the comment
// an earlier run left (prev, "" when there was none): that run's outcome,
// its headline and its workflow run's link, then the runs it carried
// itself, newest first and at most maxHistory.
func EarlierRuns(prev string) []string {
	if !strings.Contains(prev, StatusMarker) {
		return nil
	}
	var out []string
	if head := headline(prev); head != "" {
		if m := runLinkRE.FindStringSubmatch(prev); m != nil {
			head += " ([workflow run](" + m[1] + "))"
		}
		out = append(out, cutLine(head))
	}
	if _, rest, ok := strings.Cut(prev, historyStart); ok {
		block, _, _ := strings.Cut(rest, historyEnd)
		for _, l := range strings.Split(block, "\n") {
			if item, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok && item != "" {
				out = append(out, cutLine(item))
			}
		}
	}
	if len(out) > maxHistory {
		out = out[:maxHistory]
	}
	return out
}

// headline is the first line of a status comment after its marker: how
// its run ended, or the stage it was at when it stopped posting.
func headline(body string) string {
	_, rest, _ := strings.Cut(body, StatusMarker)
	for _, l := range strings.Split(rest, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if strings.HasPrefix(l, "⏳") {
				l += " (this run did not report an outcome)"
			}
			return l
		}
	}
	return ""
}

// cutLine bounds one history entry.
func cutLine(s string) string {
	if len(s) <= maxEntry {
		return s
	}
	s = s[:maxEntry]
	for len(s) > 0 && !validUTF8End(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// history writes the earlier runs, folded.
func history(b *strings.Builder, r *Run) {
	if len(r.History) == 0 {
		return
	}
	b.WriteString("\n<details><summary>Earlier runs here</summary>\n\n" + historyStart + "\n")
	for _, h := range r.History {
		b.WriteString("- " + h + "\n")
	}
	b.WriteString(historyEnd + "\n</details>\n")
}
