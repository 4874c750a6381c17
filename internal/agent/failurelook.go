package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/verify"
)

// The look at what failed (a reproducing test on the unfixed code, or a
// round's checks): the places the failures point at that the model has
// not seen.
const (
	// FailureLookBudget bounds what one look at failures shows, in tokens.
	FailureLookBudget = 1536
	// maxFailurePlaces bounds the places one look at failures shows.
	maxFailurePlaces = 4
)

const failureLookHeader = "The failures point at code you have not seen yet (line numbers on the left, as above):\n"

// reFrames are the file lines of a stack trace's frames, relative to the
// repository or absolute: Go's (relative when verify trimmed the trace),
// pytest's, Python's own, Node's and Rust's.
var reFrames = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`),
	regexp.MustCompile(`(?m)^(\S+\.py):(\d+): `),
	regexp.MustCompile(`File "([^"\n]+\.py)", line (\d+)`),
	regexp.MustCompile(`(?m)^\s+at (?:.*\()?([^\s()]+\.[cm]?[jt]sx?):(\d+):\d+\)?$`),
	regexp.MustCompile(`(?m)(?:^\s+--> |panicked at )(\S+\.rs):(\d+):\d+`),
}

// failureLook shows the model the code the failures of report point at
// that it has not seen (FailurePlaces), within FailureLookBudget tokens.
// It records a look event of stage and returns the text to say with the
// failures, "" when there is nothing new to show.
func (r *run) failureLook(stage string, report *verify.Report, changed []string) string {
	if r.index == nil || report == nil || report.Passed {
		return ""
	}
	reqs := FailurePlaces(r.index, r.repo.Root, report.Failures(), changed, r.shown)
	if len(reqs) == 0 {
		return ""
	}
	l := r.index.Look(reqs, r.shown, FailureLookBudget)
	r.record("look", LookEvent{Stage: stage, Round: r.round, Requests: reqs, Items: l.Items, Tokens: l.Tokens})
	if !news(l.Items) || strings.TrimSpace(l.Text) == "" {
		return ""
	}
	r.logf("look at the failures (%s, round %d): %d places, %d tokens shown", stage, r.round, len(reqs), l.Tokens)
	return failureLookHeader + l.Text
}

// FailurePlaces are the look requests for the places failures point at
// that shown does not show: where each failure is located, then the
// frames of its stack inside the repository at root, each as the
// definition that holds the line (repoctx.Index.At), at most
// maxFailurePlaces. Lines in the files changed are left out: their numbers
// are the changed file's, and the model wrote them.
func FailurePlaces(ix *repoctx.Index, root string, failures []verify.Failure, changed []string, shown map[string][]repoctx.Chunk) []string {
	var reqs []string
	seen := map[string]bool{}
	add := func(file string, line int) {
		if len(reqs) >= maxFailurePlaces || line <= 0 || slices.Contains(changed, file) || shownLine(shown[file], line) {
			return
		}
		if q := ix.At(file, line); q != "" && !seen[q] {
			seen[q] = true
			reqs = append(reqs, q)
		}
	}
	for _, f := range failures {
		add(f.File, f.Line)
		for _, m := range frames(f.Output) {
			file := m[0]
			if filepath.IsAbs(file) {
				rel, err := filepath.Rel(root, file)
				if err != nil || !filepath.IsLocal(rel) {
					continue // the runtime's, a module's: not the repository's
				}
				file = filepath.ToSlash(rel)
			}
			line, _ := strconv.Atoi(m[1])
			add(file, line)
		}
	}
	return reqs
}

// frames are the file and line of each frame of the traces in out, in the
// order they are printed.
func frames(out string) [][2]string {
	type at struct {
		pos  int
		file [2]string
	}
	var all []at
	for _, re := range reFrames {
		for _, m := range re.FindAllStringSubmatchIndex(out, -1) {
			all = append(all, at{m[0], [2]string{out[m[2]:m[3]], out[m[4]:m[5]]}})
		}
	}
	slices.SortStableFunc(all, func(a, b at) int { return a.pos - b.pos })
	fs := make([][2]string, len(all))
	for k, a := range all {
		fs[k] = a.file
	}
	return fs
}

// shownLine reports whether chunks show line.
func shownLine(chunks []repoctx.Chunk, line int) bool {
	for _, c := range chunks {
		if c.StartLine <= line && line <= c.EndLine {
			return true
		}
	}
	return false
}

// maxRerank bounds what a reproduction's rerank shows, in tokens.
const maxRerank = 3072

const rerankHeader = "Your test's failure also points to this code (line numbers on the left, as above):\n"

// RerankBudget is what a reproduction's rerank may show, in tokens, for a
// model whose context window is window: what the window leaves past the
// pack, the reply and the conversation's reserve, at most maxRerank (all
// of it when the window is not known, as the pack is then the largest).
// The look step has what is left after it (LookBudget). With 6,144 tokens
// each, the prompt and the reply could pass 32,768 tokens, and a model of
// a larger window would be asked for a num_ctx of 65,536 (llm.NumCtx
// rounds up to a power of two): twice the memory for the same task.
func RerankBudget(window int) int {
	if window <= 0 {
		return maxRerank
	}
	return clamp(spareTokens(window), maxRerank)
}

// spareTokens is what a window leaves past the pack, the reply and the
// conversation's reserve.
func spareTokens(window int) int {
	return window - ContextBudget(window) - patchReplyTokens - reservedTokens
}

// clamp is n within 0 and most.
func clamp(n, most int) int {
	return max(0, min(most, n))
}

// minRerank is the least rerank budget worth a second ranking.
const minRerank = 256

// rerank shows the model, once its test has reproduced the task, the code
// the test's failure ranks first that the pack did not show: the engine's
// pack for the failing output alone, on the tree with the test (the files
// written, which git does not track yet, are ranked and followed, never
// shown), its parts in rank order within RerankBudget. An issue's pack is
// ranked from its text, and a failing test's output ranks the code better
// (bench/realbugs, look:repro). It records a look event and returns the
// text to say, "" when there is nothing new.
func (r *run) rerank(ctx context.Context, rep *verify.Report, written []string) string {
	budget := RerankBudget(r.window())
	if r.index == nil || budget < minRerank {
		return ""
	}
	ix, p, err := packFailures(ctx, r.repo.Root, rep, written, ContextBudget(r.window()))
	if err != nil {
		r.logf("rerank on the reproduction's failure: %v (not shown)", err)
		return ""
	}
	return r.showRanked(ix, p, written, budget)
}

// packFailures is the engine's pack, at budget, of the tree at root with
// the files written, for rep's failures alone.
func packFailures(ctx context.Context, root string, rep *verify.Report, written []string, budget int) (*repoctx.Index, *repoctx.Pack, error) {
	ix, err := repoctx.Open(ctx, root)
	if err != nil {
		return nil, nil, err
	}
	ix = ix.WithFiles(written...) // git does not track the test yet
	ranked, err := ix.Rank(ctx, FailuresQuery(rep.Failures()))
	if err != nil {
		return nil, nil, err
	}
	p, err := ranked.Pack(ctx, repoctx.Options{Budget: budget})
	return ix, p, err
}

// showRanked shows what pack p shows that the model has not seen, but not
// of the files written, within budget, and records it.
func (r *run) showRanked(ix *repoctx.Index, p *repoctx.Pack, written []string, budget int) string {
	reqs := UnseenParts(p, written, r.shown)
	if len(reqs) == 0 {
		return ""
	}
	r.index = ix // it holds the test
	l := ix.Look(reqs, r.shown, budget)
	r.record("look", LookEvent{Stage: "rerank", Requests: reqs, Items: l.Items, Tokens: l.Tokens})
	if !news(l.Items) || strings.TrimSpace(l.Text) == "" {
		return ""
	}
	r.logf("rerank on the reproduction's failure: %d parts, %d tokens shown", len(reqs), l.Tokens)
	return rerankHeader + l.Text
}

// UnseenParts are the look requests (FILE:START-END, at most
// repoctx.MaxLookRange lines each) for the parts pack p shows that shown
// does not, in p's order, but not of the files written.
func UnseenParts(p *repoctx.Pack, written []string, shown map[string][]repoctx.Chunk) []string {
	var reqs []string
	for _, f := range p.Files {
		if slices.Contains(written, f.Path) {
			continue
		}
		for _, c := range f.Chunks {
			for lo := c.StartLine; lo <= c.EndLine; lo += repoctx.MaxLookRange {
				hi := min(c.EndLine, lo+repoctx.MaxLookRange-1)
				if !shownSpan(shown[f.Path], lo, hi) {
					reqs = append(reqs, fmt.Sprintf("%s:%d-%d", f.Path, lo, hi))
				}
			}
		}
	}
	return reqs
}

// shownSpan reports whether chunks show every line from lo to hi.
func shownSpan(chunks []repoctx.Chunk, lo, hi int) bool {
	for l := lo; l <= hi; l++ {
		if !shownLine(chunks, l) {
			return false
		}
	}
	return true
}
