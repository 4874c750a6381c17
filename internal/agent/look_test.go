package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

const lookPlan = `{"files": ["price/price.go", "catalog/catalog.go"], "steps": ["In Discount, divide by 100 instead of 10.", "Item9 stays as it is."],
 "look": ["` + "`Item7`" + `", "price/price.go:Nope", "nothere/x.go", "price/price.go:90-99", "main.go:1-3", "price/price.go", "main.go:7-12"]}`

// TestLookShowsWhatThePlanAsksFor: between the plan and the edit, the model
// is shown the definitions its plan names and what it asked to see (a
// name without its file too), with a precise answer for what does not
// exist, bounded, recorded and replayed.
func TestLookShowsWhatThePlanAsksFor(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	addCatalog(t, h.repo)
	h.srv.Script(testModel, ollamafake.Text(lookPlan), ollamafake.Text(reply(t, "shop-fix.sr")))
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed {
		t.Fatalf("result %s (%s)\n%s", res.Result, res.StopDetail, h.log.String())
	}
	ask := h.srv.Chats()[1].LastMessage()
	for _, want := range []string{
		lookHeader,
		"## catalog/catalog.go (lines 39-42 of 502)\n39\t// Item7 returns the price of item 7.\n40\tfunc Item7() int {",
		`price/price.go defines no function, method or type named "Nope"; it defines: Discount, Format`,
		"## nothere/x.go: no such file in the repository",
		"## price/price.go:90-99: the file has 15 lines; line 90 does not exist",
		`(Only the first 6 "look" requests are answered.)`,
	} {
		if !strings.Contains(ask, want) {
			t.Errorf("the patch request lacks %q:\n%s", want, ask)
		}
	}
	if strings.Contains(ask, "7-12") {
		t.Errorf("the 7th request was answered:\n%s", ask)
	}
	if i, j := strings.Index(ask, lookHeader), strings.Index(ask, patchRequest); i < 0 || j < i {
		t.Errorf("the look does not come before the edit request:\n%s", ask)
	}
	got := lookEvents(t, h.events())
	if len(got) != 1 {
		t.Fatalf("%d look events, want 1", len(got))
	}
	ev := got[0]
	if !strings.Contains(ask, "func Item9() int {") {
		t.Errorf("the plan's target in a file the pack left out is not shown:\n%s", ask)
	}
	if ev.Requests[0] != "price/price.go:Discount" || ev.Requests[1] != "catalog/catalog.go:Item9" || len(ev.Dropped) != 1 || ev.Dropped[0] != "main.go:7-12" || ev.Tokens <= 0 || ev.Tokens > LookBudget(32768) {
		t.Errorf("look event = %+v", ev)
	}

	// Replayed from the record with no server: the same look.
	replaysLooks(t, h, got, addCatalog)
}

func lookEvents(t *testing.T, events []session.Event) []LookEvent {
	t.Helper()
	var out []LookEvent
	for _, e := range events {
		if e.Kind == "look" {
			var l LookEvent
			if err := e.Decode(&l); err != nil {
				t.Fatal(err)
			}
			out = append(out, l)
		}
	}
	return out
}

// replaysLooks replays h's record with no server on a new harness of
// shop, with add's files committed, and checks that it looks at what the
// record's look events got did.
func replaysLooks(t *testing.T, h *harness, got []LookEvent, add func(*testing.T, string)) {
	t.Helper()
	replaysLooksOf(t, h, got, add, failingTask, false)
}

// replaysLooksOf is replaysLooks of a run of task, asked to reproduce it
// or not.
func replaysLooksOf(t *testing.T, h *harness, got []LookEvent, add func(*testing.T, string), task Task, reproduce bool) {
	t.Helper()
	rec, err := ParseRecording(h.events())
	if err != nil {
		t.Fatal(err)
	}
	h2 := newHarness(t, "shop")
	add(t, h2.repo)
	job := h2.job(task)
	job.Reproduce = reproduce
	job.Model = NewReplayModel(rec)
	if _, err := Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	if again := lookEvents(t, h2.events()); !reflect.DeepEqual(again, got) {
		t.Errorf("replay looked at\n%+v\nthe record has\n%+v", again, got)
	}
}

// addCatalog commits a file too large to be packed for a price query.
func addCatalog(t *testing.T, repo string) {
	t.Helper()
	commitFile(t, repo, "catalog/catalog.go", smallFuncs("// Package catalog lists items.\npackage catalog\n", 100,
		"\n// Item%[1]d returns the price of item %[1]d.\nfunc Item%[1]d() int {\n\treturn %[2]d\n}\n", 7))
}

// smallFuncs is head, then n functions written by format from their
// number i and i*k.
func smallFuncs(head string, n int, format string, k int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, format, i, i*k)
	}
	return b.String()
}

// commitFile writes the file name of repo and commits it.
func commitFile(t *testing.T, repo, name, content string) {
	t.Helper()
	p := filepath.Join(repo, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	gitOut(t, repo, "add", name)
	gitOut(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", name)
}

// TestLookSaysWhichFileAPlanMeant: a plan that names a file without its
// directory is told, before the edit, which file it meant.
func TestLookSaysWhichFileAPlanMeant(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	plan := `{"files": ["price.go"], "steps": ["In Discount, divide by 100 instead of 10."]}`
	h.srv.Script(testModel, ollamafake.Text(plan), ollamafake.Text(reply(t, "shop-fix.sr")))
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed {
		t.Fatalf("result %s (%s)\n%s", res.Result, res.StopDetail, h.log.String())
	}
	if ask := h.srv.Chats()[1].LastMessage(); !strings.Contains(ask, "(price.go: no file price.go; price/price.go is the one file of that name)") {
		t.Errorf("the patch request does not say which file the plan meant:\n%s", ask)
	}
}

// TestAroundPlanTakesEachFileInTurn: a plan that names two files and none
// of their definitions is shown the likeliest place in each before the
// lesser places of the first (whose answers would fill the look budget).
func TestAroundPlanTakesEachFileInTurn(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for _, f := range []string{"a", "b"} {
		var src strings.Builder
		fmt.Fprintf(&src, "package p\n")
		for i := range 10 {
			fmt.Fprintf(&src, "\n// %s%d rounds the total of order %d.\nfunc %s%d(total int) int {\n\treturn total / %d\n}\n", strings.ToUpper(f), i, i, strings.ToUpper(f), i, i+1)
		}
		files[f+".go"] = src.String()
	}
	_, ranked := rankedRepo(t, files, "the total of an order is rounded down")
	plan := &Plan{Files: []string{"a.go", "b.go"}, Steps: []string{"Round the total up."}}
	var each [2][]string
	for k, f := range plan.Files {
		each[k] = ranked.Around(f, plan.Steps[0], nil)
		if len(each[k]) < 3 {
			t.Fatalf("Around(%s) = %q, want its likeliest definitions and the file", f, each[k])
		}
	}
	if len(each[0]) != len(each[1]) {
		t.Fatalf("Around gives a.go %q and b.go %q: want as many places each", each[0], each[1])
	}
	// Each file's places in its own order, a.go's and b.go's alternating.
	got := AroundPlan(ranked, plan, map[string][]repoctx.Chunk{})
	var from [2][]string
	for k, q := range got {
		f := k % 2
		if !strings.HasPrefix(q, plan.Files[f]) {
			t.Fatalf("AroundPlan = %q: request %d is not %s's, want the files in turn", got, k, plan.Files[f])
		}
		from[f] = append(from[f], q)
	}
	if !reflect.DeepEqual(from, each) {
		t.Errorf("AroundPlan = %q, want a.go's %q and b.go's %q in turn", got, each[0], each[1])
	}
}

// TestPlanLookShowsTheLikeliestPlaceBesideWhatThePlanNames: a plan that
// names the wrong function of the right file is shown, after it, the one
// the task points at; and the function the plan names is shown whole
// before it, even when the likeliest place is the smaller answer and the
// budget does not hold both (the look shows small answers first).
func TestPlanLookShowsTheLikeliestPlaceBesideWhatThePlanNames(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	src.WriteString("package shop\n\n// RoundTotal rounds the total of an order down to whole cents.\nfunc RoundTotal(total float64) float64 {\n\treturn float64(int(total*100)) / 100\n}\n")
	src.WriteString("\n// Render writes a receipt.\nfunc Render(lines []string) string {\n\tout := \"\"\n")
	for i := range 80 {
		fmt.Fprintf(&src, "\tif len(lines) > %d {\n\t\tout += lines[%d] + \"\\n\"\n\t}\n", i, i)
	}
	src.WriteString("\treturn out\n}\n")
	for i := range 6 {
		fmt.Fprintf(&src, "\n// Label%d names shelf %d.\nfunc Label%d() string { return \"shelf %d\" }\n", i, i, i, i)
	}
	ix, ranked := rankedRepo(t, map[string]string{"shop.go": src.String()}, "the total of an order is rounded up, not down")
	plan := &Plan{Files: []string{"shop.go"}, Steps: []string{"In Render, print the total rounded."}}
	if got := BesidePlan(ranked, plan, nil); len(got) == 0 || got[0] != "shop.go:RoundTotal" {
		t.Fatalf("BesidePlan = %q, want shop.go:RoundTotal first", got)
	}
	cost := func(q string) int { return ix.Look([]string{q}, map[string][]repoctx.Chunk{}, 1<<20).Tokens }
	render, round := cost("shop.go:Render"), cost("shop.go:RoundTotal")
	if render < 3*round {
		t.Fatalf("Render costs %d tokens and RoundTotal %d: the test wants Render the larger by far", render, round)
	}
	for _, c := range []struct {
		budget    int
		wantRound bool
	}{
		{1 << 20, true},
		{render + round/2, false}, // both do not fit: Render whole, RoundTotal not past the budget
	} {
		l, reqs, _ := PlanLook(ix, ranked, plan, map[string][]repoctx.Chunk{}, c.budget)
		var renderWhole, roundShown bool
		for _, it := range l.Items {
			switch it.Request {
			case "shop.go:Render":
				renderWhole = it.Error == "" && it.Omitted == ""
			case "shop.go:RoundTotal":
				roundShown = it.Error == "" && len(it.Chunks) > 0
			}
		}
		if !renderWhole {
			t.Errorf("budget %d: Render, which the plan names, is not shown whole: %+v", c.budget, l.Items)
		}
		if c.wantRound && (!roundShown || !strings.Contains(l.Text, "func RoundTotal(")) {
			t.Errorf("budget %d: RoundTotal, the likeliest place, is not shown: requests %q\n%s", c.budget, reqs, l.Text)
		}
		if l.Tokens > c.budget {
			t.Errorf("budget %d: the look took %d tokens", c.budget, l.Tokens)
		}
	}
}

// rankedRepo indexes a git repository of files and ranks it for query.
func rankedRepo(t *testing.T, files map[string]string, query string) (*repoctx.Index, *repoctx.Ranking) {
	t.Helper()
	repo := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitOut(t, repo, "init", "-q")
	gitOut(t, repo, "add", "-A")
	ix, err := repoctx.Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	ranked, err := ix.Rank(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	return ix, ranked
}

// TestLookBudget: the look has lookBase in any window, and what the window
// leaves past the pack, the reply, the reserve and the rerank, up to
// maxLookTokens.
func TestLookBudget(t *testing.T) {
	for _, c := range []struct{ window, want int }{
		{0, 6144}, // not known: the pack is the largest too
		{4096, 3072},
		{18432, 3072}, // an 8k pack
		{25600, 3072}, // the rerank takes what is left
		{27648, 5120}, // 27648 - 12288 - 4096 - 6144 - 3072 more
		{28672, 6144},
		{131072, 6144},
	} {
		if got := LookBudget(c.window); got != c.want {
			t.Errorf("LookBudget(%d) = %d, want %d", c.window, got, c.want)
		}
	}
}

// TestLookRoom: the look's budget never takes the first patch request
// past the window, nor past the num_ctx it needs with the base look.
func TestLookRoom(t *testing.T) {
	for _, c := range []struct{ window, used, want int }{
		{32768, 18000, 6144},  // room to spare
		{32768, 28000, 4768},  // 32768 - 28000: the window's end
		{32768, 30000, 3072},  // the base look, which the reserve holds
		{131072, 28000, 4768}, // not past a num_ctx of 32768
		{131072, 30000, 6144}, // the base look needs 65536 already
		{0, 18000, 6144},      // a window not known
		{0, 28000, 4768},      // ... still not past a num_ctx of 32768
		{18432, 10000, 3072},  // an 8k pack's window leaves no more
	} {
		if got := LookRoom(c.window, c.used); got != c.want {
			t.Errorf("LookRoom(%d, %d) = %d, want %d", c.window, c.used, got, c.want)
		}
	}
}

// TestALargeWindowLooksFurther: a model whose window has room past the
// pack is shown more of what its plan asks to see than one whose window
// the pack fills.
func TestALargeWindowLooksFurther(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		numCtx   int
		min, max int
	}{
		{18432, 1, 3072},    // the pack takes what the reply and the reserve leave
		{32768, 3073, 6144}, // the harness's model, num_ctx chosen per request
	} {
		h := newHarness(t, "shop")
		h.cfg.Ollama.NumCtx = c.numCtx
		lookAtLedger(t, h)
		if res := h.run(context.Background(), failingTask); res.Result != Fixed {
			t.Fatalf("num_ctx %d: result %s (%s)\n%s", c.numCtx, res.Result, res.StopDetail, h.log.String())
		}
		got := lookEvents(t, h.events())
		if len(got) != 1 || got[0].Tokens < c.min || got[0].Tokens > c.max {
			t.Errorf("num_ctx %d: look events %+v, want one of %d to %d tokens", c.numCtx, got, c.min, c.max)
		}
	}
}

// lookAtLedger commits a 400-function ledger to h's repository and scripts
// a plan that asks to see four 250-line ranges of it (more than the look's
// largest budget), then the fix.
func lookAtLedger(t *testing.T, h *harness) {
	t.Helper()
	commitFile(t, h.repo, "ledger/ledger.go", smallFuncs("// Package ledger keeps entries.\npackage ledger\n", 400,
		"\n// Entry%[1]d returns the amount of entry %[1]d.\nfunc Entry%[1]d() int {\n\treturn %[2]d\n}\n", 3))
	const plan = `{"files": ["price/price.go"], "steps": ["Divide by 100."],
 "look": ["ledger/ledger.go:1-250", "ledger/ledger.go:251-500", "ledger/ledger.go:501-750", "ledger/ledger.go:751-1000"]}`
	h.srv.Script(testModel, ollamafake.Text(plan), ollamafake.Text(reply(t, "shop-fix.sr")))
}

// TestALongConversationLooksWithinTheWindow: the look's extra room is
// what the conversation leaves, so the first patch request still fits the
// model's window (the fixed prefix, which the plan ends, cannot be cut).
func TestALongConversationLooksWithinTheWindow(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	lookAtLedger(t, h)
	task := Task{Title: "Discounts are off", Body: strings.Repeat("The discount shown at checkout was not the one the catalog promised. ", 1060)}
	if res := h.run(context.Background(), task); res.Result != Fixed {
		t.Fatalf("result %s (%s)\n%s", res.Result, res.StopDetail, h.log.String())
	}
	var patch *Chat
	for _, e := range h.events() {
		var c Chat
		if e.Kind == "chat" && e.Decode(&c) == nil && c.Purpose == "patch" {
			patch = &c
			break
		}
	}
	looks := lookEvents(t, h.events())
	if patch == nil || len(looks) != 1 {
		t.Fatalf("patch chat %v, %d look events", patch != nil, len(looks))
	}
	used := llm.WindowTokens(patch.Messages, "") + patchReplyTokens
	if used > 32768 {
		t.Errorf("the first patch request takes %d tokens with its reply, past the model's 32768; its look took %d", used, looks[0].Tokens)
	}
	// The body is sized so that the conversation leaves the look more than
	// its base and less than its most: what the test is about.
	if n := looks[0].Tokens; n <= lookBase || n > maxLookTokens-512 {
		t.Errorf("the look took %d tokens; the body no longer leaves it between %d and %d: resize it", n, lookBase, maxLookTokens-512)
	}
}

// TestPlanLookShowsTheSiblingsOfWhatThePlanNames: a definition whose name
// is one word apart from one the steps name is shown after the likeliest
// places, in the room they leave.
func TestPlanLookShowsTheSiblingsOfWhatThePlanNames(t *testing.T) {
	t.Parallel()
	src := "package match\n\ntype matcher struct{ next *matcher }\n\n" +
		"// matcherFuncOr matches when one of a and b does.\nfunc (m *matcher) matcherFuncOr(a, b func() bool) bool {\n\treturn a() || b()\n}\n\n" +
		"// matcherFuncAnd matches when both a and b do.\nfunc (m *matcher) matcherFuncAnd(a, b func() bool) bool {\n\treturn a() && b()\n}\n\n" +
		"// Close stops the matcher.\nfunc (m *matcher) Close() { m.next = nil }\n\n" +
		"// Reset clears the matcher.\nfunc (m *matcher) Reset() { m.next = nil }\n"
	// The task points at Close and Reset: they are the likeliest places.
	ix, ranked := rankedRepo(t, map[string]string{"match.go": src}, "after Close or Reset, a matcher still calls the second function when the first matches")
	plan := &Plan{Files: []string{"match.go"}, Steps: []string{"In matcherFuncOr, call b only when a does not match."}}
	if got := SiblingsPlan(ix, plan, nil); !slices.Equal(got, []string{"match.go:matcher.matcherFuncAnd"}) {
		t.Fatalf("SiblingsPlan = %q, want match.go:matcher.matcherFuncAnd", got)
	}
	if got := BesidePlan(ranked, plan, nil); len(got) != 2 || slices.Contains(got, "match.go:matcher.matcherFuncAnd") {
		t.Fatalf("BesidePlan = %q, want two places, not matcherFuncAnd: the test wants the sibling shown for being one", got)
	}
	l, reqs, _ := PlanLook(ix, ranked, plan, map[string][]repoctx.Chunk{}, 1<<20)
	if !slices.Contains(reqs, "match.go:matcher.matcherFuncAnd") || !strings.Contains(l.Text, "func (m *matcher) matcherFuncAnd(") {
		t.Errorf("the look does not show matcherFuncAnd beside matcherFuncOr: requests %q\n%s", reqs, l.Text)
	}
}
