package agent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/repoctx"
)

// The look step: between the plan and the first edit, the model is shown
// the parts of the repository its plan needs, within LookBudget tokens: the
// definitions of the files it will change that its steps name (or those
// files whole, or their outline when too large), then what it asked to see
// in the plan's "look" list.
const (
	// MaxLook is how many "look" requests a plan may make; more are
	// dropped, and the model is told.
	MaxLook = 6
	// lookBase is what the look step may show in any window: the
	// conversation's reserve (reservedTokens) holds it.
	lookBase = 3072
	// maxLookTokens bounds what it shows in a window with room past it.
	maxLookTokens = 6144
)

// LookBudget is what the look step may show, in tokens, for a model whose
// context window is window: lookBase, and what the window leaves past the
// pack, the reply, the conversation's reserve and a reproduction's rerank
// (see RerankBudget), up to maxLookTokens in all. That is lookBase up to
// a 25,600-token window and maxLookTokens from 28,672; maxLookTokens when
// the window is not known, as the pack is then the largest too. The agent
// spends it within LookRoom. On the real-bug benchmark the look's second
// 3,072 tokens show every fixed line of more cases (bench/realbugs, "The
// look step's budget and the window").
func LookBudget(window int) int {
	if window <= 0 {
		return maxLookTokens
	}
	return lookBase + clamp(spareTokens(window)-maxRerank, maxLookTokens-lookBase)
}

// LookEvent is a session event: what the look step was asked and what it
// showed. Replay reproduces it from the recorded plan.
type LookEvent struct {
	// Stage is what failed for a look at the places its failures point
	// at (see failureLook): "reproduce", the reproducing test on the
	// unfixed code, or "verify", the checks of round Round; "rerank" for
	// what the reproducing test's failure ranks first (see rerank); "" for
	// the look between plan and patch.
	Stage string `json:"stage,omitempty"`
	Round int    `json:"round,omitempty"`
	// Requests are what was looked up: the plan's files around its
	// targets, then the model's own requests, then the likeliest places
	// beside the definitions the steps name, and their siblings, that the
	// look showed (see PlanLook).
	Requests []string `json:"requests"`
	// Dropped are the model's requests past MaxLook.
	Dropped []string `json:"dropped,omitempty"`
	// Items are what each request became, then what the requests led to
	// (a name of FILE:A, B that another file defines), each with its
	// own request.
	Items  []repoctx.LookItem `json:"items"`
	Tokens int                `json:"tokens"`
}

const lookHeader = "Before you write the edit, here is what your plan needs to see (line numbers on the left, as above):\n"

// lookDropped tells the model that its requests past MaxLook were dropped.
var lookDropped = fmt.Sprintf("(Only the first %d \"look\" requests are answered.)\n", MaxLook)

// look shows the model what its plan names and asks for, and records it.
// It returns the text to say before the patch request, "" when nothing is
// new.
func (r *run) look(p *Plan) string {
	if r.index == nil {
		return ""
	}
	l, reqs, dropped := PlanLook(r.index, r.ranked, p, r.shown, r.lookRoom(p))
	if len(reqs) == 0 {
		return ""
	}
	r.record("look", LookEvent{Requests: reqs, Dropped: dropped, Items: l.Items, Tokens: l.Tokens})
	if !news(l.Items) && len(dropped) == 0 {
		return "" // all of it is in the pack already
	}
	var b strings.Builder
	if len(dropped) > 0 {
		b.WriteString(lookDropped)
	}
	if strings.TrimSpace(l.Text) == "" {
		return b.String()
	}
	r.logf("look: %d requests, %d tokens shown", len(reqs), l.Tokens)
	return lookHeader + b.String() + l.Text
}

// besideNames is how many of the likeliest places of a plan file whose
// definitions the steps name, other than those, the look shows after
// what the plan asks for (see PlanLook).
const besideNames = 2

// PlanLook is the look at plan p, within budget tokens, of index ix and
// ranking ranked, shown being what the model has seen (it gains what the
// look shows). First AroundPlan's requests and the plan's own "look" list
// (its first MaxLook; the rest are dropped); then, within what they leave,
// BesidePlan's, then SiblingsPlan's, one at a time, each shown only when
// some of it fits: a plan that names the wrong function of the right file
// still sees the likeliest place, a fix made in one of several like
// definitions is seen to belong in the others, and what the plan named
// never waits for them. It returns the look, the requests it answered, and
// those it dropped.
func PlanLook(ix *repoctx.Index, ranked *repoctx.Ranking, p *Plan, shown map[string][]repoctx.Chunk, budget int) (l *repoctx.Look, reqs, dropped []string) {
	seen := map[string]bool{}
	add := func(q string) {
		if q = strings.TrimSpace(q); q != "" && !seen[q] {
			seen[q] = true
			reqs = append(reqs, q)
		}
	}
	beside := append(BesidePlan(ranked, p, shown), SiblingsPlan(ix, p, shown)...)
	for _, q := range AroundPlan(ranked, p, shown) {
		add(q)
	}
	asked := p.Look
	if len(asked) > MaxLook {
		asked, dropped = asked[:MaxLook], asked[MaxLook:]
	}
	for _, q := range asked {
		add(q)
	}
	l = &repoctx.Look{}
	if len(reqs) > 0 {
		l = ix.Look(reqs, shown, budget)
	}
	for _, q := range beside {
		if seen[q] || l.Tokens >= budget {
			continue
		}
		more := ix.Look([]string{q}, shown, budget-l.Tokens)
		if it := more.Items[0]; it.Error != "" || it.Seen {
			continue
		}
		seen[q] = true
		reqs = append(reqs, q)
		l.Items = append(l.Items, more.Items...)
		l.Text += more.Text
		l.Tokens += more.Tokens
	}
	return l, reqs, dropped
}

// lookRoom is the look's budget for r: LookRoom of its model's window and
// of what the first patch request holds besides the look's answers (the
// conversation, the request for the plan p's edit, the look's header and
// the reply's room).
func (r *run) lookRoom(p *Plan) int {
	msgs := append(slices.Clone(r.conv), user(patchMessage(append(slices.Clone(r.pending), lookHeader+lookDropped), false, p)))
	return LookRoom(r.window(), llm.WindowTokens(msgs, r.tokenizer())+patchReplyTokens)
}

// LookRoom is the look step's budget, in tokens, for a model whose window
// is window, when the first patch request holds used tokens besides the
// look: LookBudget, less what would take that request past the window, or
// past the num_ctx it needs with lookBase tokens of look (llm.NumCtx: a
// larger one makes Ollama load the model again, with room for twice the
// tokens); never less than lookBase, which the conversation's reserve
// holds. The look is counted as the pack is (tokens.Estimate), above what
// a model's tokenizer counts, so it fits.
func LookRoom(window, used int) int {
	b := LookBudget(window)
	room := llm.NumCtx(used+lookBase, 0, window) - used
	return max(lookBase, min(b, room))
}

// AroundPlan are the look's requests for the files plan p will change,
// shown being what the pack shows of each: each file's places
// (repoctx.Ranking.Around: the definitions the steps name, else those the
// task points at most, then the file), taken in turn across the files,
// the first of each file before the second of any. A plan that names two
// files and none of their definitions sees the likeliest place in each
// before the look budget goes to the lesser ones of the first.
func AroundPlan(ranked *repoctx.Ranking, p *Plan, shown map[string][]repoctx.Chunk) []string {
	return eachFile(p, func(f, text string) []string { return ranked.Around(f, text, shown[f]) })
}

// BesidePlan are the likeliest places of the files plan p will change
// whose definitions its steps name, other than those (at most besideNames
// of each, repoctx.Ranking.Beside), taken in turn across the files.
func BesidePlan(ranked *repoctx.Ranking, p *Plan, shown map[string][]repoctx.Chunk) []string {
	return eachFile(p, func(f, text string) []string { return ranked.Beside(f, text, shown[f], besideNames) })
}

// eachFile are the places of each file plan p will change, given the
// steps' text, taken in turn across the files (see inTurn).
func eachFile(p *Plan, places func(file, text string) []string) []string {
	text := strings.Join(p.Steps, "\n")
	var all [][]string
	for _, f := range p.Files {
		all = append(all, places(f, text))
	}
	return inTurn(all)
}

// inTurn are the places of each file taken in turn: the first of each
// file, then the second of each, and so on.
func inTurn(places [][]string) []string {
	var out []string
	for k := 0; ; k++ {
		more := false
		for _, ps := range places {
			if k < len(ps) {
				out = append(out, ps[k])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// news reports whether a look shows or says anything the pack did not:
// lines it did not show, or which file a request meant.
func news(items []repoctx.LookItem) bool {
	for _, it := range items {
		if !it.Seen || it.Note != "" {
			return true
		}
	}
	return false
}

// siblingNames is how many siblings of the definitions a plan's steps name
// the look shows of each file, in the room left (see repoctx.Index.Siblings).
const siblingNames = 2

// SiblingsPlan are the siblings of the definitions plan p's steps name, of
// each file it will change (repoctx.Index.Siblings), taken in turn.
func SiblingsPlan(ix *repoctx.Index, p *Plan, shown map[string][]repoctx.Chunk) []string {
	return eachFile(p, func(f, text string) []string { return ix.Siblings(f, text, shown[f], siblingNames) })
}
