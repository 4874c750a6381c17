package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/patch"
)

// appliedPatch is a patch that is in the work tree.
type appliedPatch = patch.Result

// PatchEvent is a session event: what the patch engine made of one reply.
type PatchEvent struct {
	Round   int           `json:"round"`
	Attempt int           `json:"attempt"`
	Form    string        `json:"form"` // "diff" or "search-replace"
	Applied bool          `json:"applied"`
	Result  *patch.Result `json:"result"`
}

// patch asks for an edit and applies it, up to diffAttempts unified diffs
// and then one SEARCH/REPLACE answer, feeding back the patch engine's exact
// errors each time. It returns nil when no attempt applied: the round is
// spent without a check.
func (r *run) patch(ctx context.Context) (*appliedPatch, error) {
	for attempt := 1; attempt <= diffAttempts+1; attempt++ {
		searchReplace := attempt > diffAttempts
		form := "diff"
		if searchReplace {
			form = "search-replace"
		}
		if err := r.enter(StatePatch, fmt.Sprintf("attempt %d, %s", attempt, form)); err != nil {
			return nil, err
		}
		reply, split, err := r.ask(ctx, attempt, searchReplace)
		if err != nil {
			return nil, err
		}
		var opts patch.Options
		if split {
			// The reply also held the reproducing test, which is applied.
			opts.Only = func(p string) bool { return !r.isTest(p) }
		}
		res, err := patch.Apply(r.repo.Root, reply, r.policy(), opts)
		if err != nil {
			return nil, fmt.Errorf("apply: %w", err)
		}
		r.record("patch", PatchEvent{Round: r.round, Attempt: attempt, Form: form, Applied: res.Applied, Result: res})
		if res.Applied {
			r.touched = append(r.touched, res.Files...)
			r.logf("patch applied: %v", res.Files)
			return res, nil
		}
		why := make([]string, len(res.Errors))
		for i, p := range res.Errors {
			why[i] = p.String()
		}
		r.logf("patch attempt %d not applied: %s", attempt, strings.Join(why, "; "))
		r.say(fmt.Sprintf(feedbackPatch, res.Feedback()))
		if r.cut {
			r.say(feedbackCut)
		}
	}
	return nil, nil
}

// ask gets the reply for a patch attempt: the fix a reproducing reply
// held (split: its test part is in the tree already), the edit the model
// sent instead of a plan, or the answer to a new request.
func (r *run) ask(ctx context.Context, attempt int, searchReplace bool) (reply string, split bool, err error) {
	if reply := r.held; reply != "" {
		r.held = ""
		return reply, true, nil
	}
	if reply := r.early; reply != "" {
		r.early = ""
		return reply, false, nil
	}
	r.conv = append(r.conv, user(patchMessage(r.pending, searchReplace, r.res.Plan)))
	r.pending = nil
	reply, err = r.chat(ctx, chatCall{purpose: "patch", attempt: attempt, model: r.cfg.Model, messages: r.conv, maxReply: patchReplyTokens})
	if err != nil {
		return "", false, err
	}
	r.conv = append(r.conv, assistant(reply))
	return reply, false, nil
}

// policy is what a patch may touch: the config's paths and limits, and
// never the reproducing test.
func (r *run) policy() patch.Policy {
	pol := patch.PolicyFrom(r.cfg)
	pol.Frozen = append(pol.Frozen, r.job.Frozen...)
	if r.repro != nil {
		pol.Frozen = append(pol.Frozen, r.repro.files...)
	}
	return pol
}
