package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

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
	if ev.Requests[0] != "price/price.go:Discount" || ev.Requests[1] != "catalog/catalog.go:Item9" || len(ev.Dropped) != 1 || ev.Dropped[0] != "main.go:7-12" || ev.Tokens <= 0 || ev.Tokens > LookBudget {
		t.Errorf("look event = %+v", ev)
	}

	// Replayed from the record with no server: the same look.
	rec, err := ParseRecording(h.events())
	if err != nil {
		t.Fatal(err)
	}
	h2 := newHarness(t, "shop")
	addCatalog(t, h2.repo)
	job := h2.job(failingTask)
	job.Model = NewReplayModel(rec)
	if _, err := Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	if again := lookEvents(t, h2.events()); !reflect.DeepEqual(again, got) {
		t.Errorf("replay looked at\n%+v\nthe record has\n%+v", again, got)
	}
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

// addCatalog commits a file too large to be packed for a price query.
func addCatalog(t *testing.T, repo string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("// Package catalog lists items.\npackage catalog\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "\n// Item%d returns the price of item %d.\nfunc Item%d() int {\n\treturn %d\n}\n", i, i, i, i*7)
	}
	if err := os.MkdirAll(filepath.Join(repo, "catalog"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "catalog", "catalog.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	gitOut(t, repo, "add", "catalog")
	gitOut(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "catalog")
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
	repo := t.TempDir()
	for _, f := range []string{"a", "b"} {
		var src strings.Builder
		fmt.Fprintf(&src, "package p\n")
		for i := range 10 {
			fmt.Fprintf(&src, "\n// %s%d rounds the total of order %d.\nfunc %s%d(total int) int {\n\treturn total / %d\n}\n", strings.ToUpper(f), i, i, strings.ToUpper(f), i, i+1)
		}
		if err := os.WriteFile(filepath.Join(repo, f+".go"), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitOut(t, repo, "init", "-q")
	gitOut(t, repo, "add", "-A")
	ix, err := repoctx.Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	ranked, err := ix.Rank(context.Background(), "the total of an order is rounded down")
	if err != nil {
		t.Fatal(err)
	}
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
