package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/untrusted"
)

// Plan is the model's plan: the files it will change and how, and what it
// wants to see before it writes the edit.
type Plan struct {
	Files []string `json:"files"`
	Steps []string `json:"steps"`
	// Look lists up to MaxLook parts of the repository to be shown before
	// the edit: FILE, FILE:NAME (a function, type or Type.Method) or
	// FILE:START-END.
	Look []string `json:"look,omitempty"`
}

// planSchema is sent as the plan request's format, so the server constrains
// the reply to it (Ollama structured outputs).
var planSchema = json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"},"minItems":1},"steps":{"type":"array","items":{"type":"string"},"minItems":1},"look":{"type":"array","items":{"type":"string"},"maxItems":` + strconv.Itoa(MaxLook) + `}},"required":["files","steps"]}`)

// PlanEvent is a session event: one plan reply and whether it was usable.
type PlanEvent struct {
	Attempt int    `json:"attempt"`
	Plan    *Plan  `json:"plan,omitempty"`
	Error   string `json:"error,omitempty"`
}

// plan asks for a plan, retrying with the problem when the reply is not
// one; after planAttempts the loop goes on without a plan, which costs the
// patch step little. Only the usable exchange stays in the conversation.
func (r *run) plan(ctx context.Context) error {
	if err := r.enter(StatePlan, ""); err != nil {
		return err
	}
	ask := user(planMessage(r.pending))
	r.pending = nil
	msgs := append(append([]llm.Message(nil), r.conv...), ask)
	for attempt := 1; attempt <= planAttempts; attempt++ {
		reply, err := r.chat(ctx, chatCall{purpose: "plan", attempt: attempt, model: r.cfg.Model, messages: msgs, format: planSchema, maxReply: planReplyTokens, capped: true})
		if err != nil {
			return err
		}
		p, perr := parsePlan(reply, r.repo.Root, r.cfg.Limits.MaxFiles)
		ev := PlanEvent{Attempt: attempt, Plan: p}
		if perr != nil {
			ev.Error = perr.Error()
		}
		r.record("plan", ev)
		if perr == nil {
			r.conv = append(r.conv, ask, assistant(reply))
			r.fixed = len(r.conv)
			r.res.Plan = p
			r.logf("plan: %s", strings.Join(p.Files, ", "))
			if more := r.look(p); more != "" {
				r.say(more)
			}
			return nil
		}
		if looksLikeEdit(reply) {
			// The model skipped the plan and wrote the fix: take it as the
			// first patch attempt rather than asking for it again.
			r.conv = append(r.conv, ask, assistant(reply))
			r.early = reply
			r.logf("plan: the reply is an edit, not a plan; trying it as the first patch")
			return nil
		}
		r.logf("plan attempt %d: %v", attempt, perr)
		msgs = append(msgs, assistant(reply), user(fmt.Sprintf(feedbackPlanInvalid, perr)))
	}
	r.logf("plan: no usable plan after %d attempts; going on without one", planAttempts)
	return nil
}

// parsePlan decodes and checks a plan: valid JSON of the schema's shape,
// at least one file and one step, no more files than a patch may touch,
// and every file either in the repository or new in an existing directory.
func parsePlan(reply, root string, maxFiles int) (*Plan, error) {
	var p Plan
	// Extra keys, and prose around the object, are ignored: a model that
	// adds its reasoning to the plan has still given one.
	text := stripFence(reply)
	if i := strings.IndexByte(text, '{'); i > 0 {
		text = text[i:]
	}
	if err := json.NewDecoder(strings.NewReader(text)).Decode(&p); err != nil {
		return nil, fmt.Errorf("it is not JSON of the form {\"files\": [...], \"steps\": [...]} (%v)", err)
	}
	if len(p.Files) == 0 {
		return nil, fmt.Errorf(`"files" is empty; name at least one file to change`)
	}
	if len(p.Steps) == 0 {
		return nil, fmt.Errorf(`"steps" is empty; say what to change`)
	}
	if maxFiles > 0 && len(p.Files) > maxFiles {
		return nil, fmt.Errorf("it changes %d files; at most %d are allowed", len(p.Files), maxFiles)
	}
	var unknown []string
	for i, f := range p.Files {
		// A name is logged and shown on GitHub: a line break or a control
		// character in it is an attempt at a workflow command, not a path.
		if strings.ContainsFunc(strings.TrimSpace(f), func(r rune) bool { return unicode.IsControl(r) || untrusted.Invisible(r) || r == utf8.RuneError }) {
			return nil, fmt.Errorf("file name %q holds a line break, a control or an invisible character; give each file as its path relative to the repository root", f)
		}
		if strings.TrimSpace(f) == "" {
			return nil, fmt.Errorf(`"files" holds an empty name (entry %d); give each file as its path relative to the repository root, e.g. "pkg/a.go"`, i+1)
		}
		clean := path.Clean(strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(f)), "./"))
		p.Files[i] = clean
		if clean == "." || strings.HasPrefix(clean, "../") || clean == ".." || path.IsAbs(clean) || strings.HasPrefix(clean, ".git/") {
			unknown = append(unknown, f+" (outside the repository)")
			continue
		}
		full := filepath.Join(root, filepath.FromSlash(clean))
		if _, err := os.Stat(full); err == nil {
			continue
		}
		if st, err := os.Stat(filepath.Dir(full)); err != nil || !st.IsDir() {
			unknown = append(unknown, f)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("these files do not exist and their directories neither: %s; use paths relative to the repository root, as shown in the repository map", strings.Join(unknown, ", "))
	}
	return &p, nil
}

// looksLikeEdit reports whether a reply holds a unified diff or
// SEARCH/REPLACE blocks.
func looksLikeEdit(reply string) bool {
	hasOld, hasNew, hasHunk := false, false, false
	for _, line := range strings.Split(reply, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "<<<<<<< SEARCH"), strings.HasPrefix(line, "diff --git "):
			return true
		case strings.HasPrefix(line, "--- "):
			hasOld = true
		case strings.HasPrefix(line, "+++ "):
			hasNew = true
		case strings.HasPrefix(line, "@@ "):
			hasHunk = true
		}
	}
	return hasOld && hasNew && hasHunk
}

// stripFence removes a ```json fence some models put around JSON even
// when the format asks for JSON only.
func stripFence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") {
		return s
	}
	t = t[strings.IndexByte(t+"\n", '\n')+1:]
	if i := strings.LastIndex(t, "```"); i >= 0 {
		t = t[:i]
	}
	return t
}
