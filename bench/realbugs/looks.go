package main

import (
	"context"
	"regexp"
	"strings"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/repoctx"
)

// reproduced is what the agent shows at budget b once rep's tests
// reproduce its issue: the engine's pack of the issue, made on the tree
// without the tests as the agent's is made before the model writes one,
// then the places the failures point at (agent.FailurePlaces), then the
// parts of the failures' own pack still not shown (agent.UnseenParts),
// the files written left out. The two trees differ in the files written
// only, so the first pack's lines are the same in ix's tree.
func reproduced(ctx context.Context, ix *repoctx.Index, rep *reproduction, ch *change, b int) (result, error) {
	pack := func(tree *repoctx.Index, q string) (*repoctx.Pack, error) {
		ranked, err := tree.Rank(ctx, q)
		if err != nil {
			return nil, err
		}
		return ranked.Pack(ctx, repoctx.Options{Budget: b})
	}
	before, err := repoctx.Open(ctx, rep.issueRoot)
	if err != nil {
		return result{}, err
	}
	p, err := pack(before, rep.issue)
	if err != nil {
		return result{}, err
	}
	shown := map[string][]repoctx.Chunk{}
	for _, f := range p.Files {
		shown[f.Path] = append([]repoctx.Chunk(nil), f.Chunks...)
	}
	looked(shown, ix.Look(agent.FailurePlaces(ix, ix.Root(), rep.failures, rep.written, shown), shown, agent.FailureLookBudget))
	if p, err = pack(ix, agent.FailuresQuery(rep.failures)); err != nil {
		return result{}, err
	}
	looked(shown, ix.Look(agent.UnseenParts(p, rep.written, shown), shown, agent.RerankBudget(lookWindow(b))))
	res := score(shown, ch)
	res.missed, res.kinds = whyMissed(ix, shown, ch)
	return res, nil
}

// lookWindow is the model's context window the look rows at budget b
// stand for: the one whose pack is b tokens when b is less than the
// largest pack (agent.ContextBudget), so the look and the rerank have
// what that window leaves; else 0, a window with room for their largest
// budgets (as a model of 32k tokens has, its window not set:
// agent.LookBudget, agent.RerankBudget).
func lookWindow(b int) int {
	if b >= agent.ContextBudget(0) {
		return 0
	}
	w := b
	for agent.ContextBudget(w) < b {
		w++
	}
	return w
}

// copyShown is a copy of shown to add a look's chunks to.
func copyShown(shown map[string][]repoctx.Chunk) map[string][]repoctx.Chunk {
	seen := map[string][]repoctx.Chunk{}
	for f, cs := range shown {
		seen[f] = append([]repoctx.Chunk(nil), cs...)
	}
	return seen
}

// looked adds what look l showed to seen.
func looked(seen map[string][]repoctx.Chunk, l *repoctx.Look) {
	for _, it := range l.Items {
		if it.Error == "" && !it.Outline {
			seen[it.Path] = append(seen[it.Path], it.Chunks...)
		}
	}
}

// scriptedPlan is the plan of a model that changes the fix's files it can
// see named in its prompt; with names, its steps name the definitions
// holding the fix's sites whose names the prompt shows.
func scriptedPlan(ix *repoctx.Index, prompt string, ch *change, names bool) agent.Plan {
	var plan agent.Plan
	for _, f := range ch.codeFiles {
		if strings.Contains(prompt, f) {
			plan.Files = append(plan.Files, f)
		}
	}
	if !names {
		return plan
	}
	for _, f := range plan.Files {
		l := ix.Look([]string{f}, map[string][]repoctx.Chunk{}, 1<<30)
		for _, s := range ch.sites {
			if s.File != f || len(l.Items) == 0 {
				continue
			}
			for _, sym := range enclosing(ix, f, s) {
				if name, ok := shownName(prompt, sym); ok {
					plan.Steps = append(plan.Steps, "Change "+name+".")
				}
			}
		}
	}
	return plan
}

// shownName is how a model that read prompt would name definition sym
// (Name or Type.Method), and whether it could: the prompt shows the
// qualified name, or, for a method, its name as a word, as code shows a
// method (enc.encodeSlice(...), func (enc *Encoder) encodeSlice(...)).
func shownName(prompt, sym string) (string, bool) {
	if hasWord(prompt, sym) {
		return sym, true
	}
	if _, method, ok := strings.Cut(sym, "."); ok && hasWord(prompt, method) {
		return method, true
	}
	return "", false
}

// hasWord reports whether text holds w with no identifier character
// either side.
func hasWord(text, w string) bool {
	return regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(w) + `($|[^\w])`).MatchString(text)
}
