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

	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// addRates commits a package of rates that nothing in shop uses yet, with
// Rate, which panics past 100 per cent, among other functions.
func addRates(t *testing.T, repo string) {
	t.Helper()
	tiers := smallFuncs("// Package rates converts shares.\npackage rates\n\nimport \"fmt\"\n", 40,
		"\n// Tier%[1]d is the share of tier %[1]d.\nfunc Tier%[1]d() int {\n\treturn %[2]d\n}\n", 3)
	commitFile(t, repo, "rates/rates.go", tiers+"\n// Rate checks a share in tenths of a per cent.\nfunc Rate(tenths int) int {\n\tif tenths > 100 {\n\t\tpanic(fmt.Sprintf(\"rates: %d tenths is over 100\", tenths))\n\t}\n\treturn tenths\n}\n")
}

// ratesEdit is a first edit that calls rates.Rate, which panics for the
// test's 25 per cent: the failure is in a file the model has not seen.
const ratesEdit = `Use the rates package.

price/price.go
<<<<<<< SEARCH
import "fmt"
=======
import (
	"fmt"

	"example.com/shop/rates"
)
>>>>>>> REPLACE

price/price.go
<<<<<<< SEARCH
	return cents - cents*percent/10
=======
	return cents - cents*rates.Rate(percent*10)/1000
>>>>>>> REPLACE`

// TestAFailedRoundShowsWhereItsFailuresPoint: after a round whose checks
// fail in code the model has not seen (its edit calls a function of
// another file, which panics), the next patch request shows that
// function; not the lines of the file the edit changed. It is recorded as
// a look of that round, and replayed.
func TestAFailedRoundShowsWhereItsFailuresPoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	addRates(t, h.repo)
	plan := `{"files": ["price/price.go"], "steps": ["In Discount, divide by 100 instead of 10."]}`
	h.srv.Script(testModel, ollamafake.Text(plan), ollamafake.Text(ratesEdit), ollamafake.Text(reply(t, "shop-fix.sr")))
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed || res.Rounds != 2 {
		t.Fatalf("result %s in %d rounds (%s), want fixed in 2\n%s", res.Result, res.Rounds, res.StopDetail, h.log.String())
	}
	rate := "## rates/rates.go (lines 206-212 of 212)\n206\t// Rate checks a share in tenths of a per cent.\n\tfunc Rate(tenths int) int {"
	shownAfter(t, promptOf(h.srv.Chats()[1]), h.srv.Chats()[2].LastMessage(), "func Rate(", rate, "price/price.go")
	got := lookEvents(t, h.events())
	if len(got) != 2 || got[1].Stage != "verify" || got[1].Round != 1 || !reflect.DeepEqual(got[1].Requests, []string{"rates/rates.go:206-212"}) || got[1].Tokens <= 0 || got[1].Tokens > FailureLookBudget {
		t.Fatalf("look events = %+v, want the plan's, then round 1's of rates/rates.go:206-212", got)
	}
	replaysLooks(t, h, got, addRates)
}

// TestFailureLookLeavesOutWhatTheRoundChanged: the places a round's
// failures point at are shown as the definitions that hold them, at most
// maxFailurePlaces; not those in a file the round changed (their lines
// are the changed file's), not lines shown already, not frames outside
// the repository.
func TestFailureLookLeavesOutWhatTheRoundChanged(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	addRates(t, h.repo)
	addCatalog(t, h.repo)
	ix, err := repoctx.Open(context.Background(), h.repo)
	if err != nil {
		t.Fatal(err)
	}
	r := newRun(Job{Repo: &workspace.Repo{Root: h.repo}, Record: session.NewRecorder(&h.record)})
	r.index = ix
	r.shown = map[string][]repoctx.Chunk{"catalog/catalog.go": {{StartLine: 1, EndLine: 25}}}
	frames := "panic: boom\n\ngoroutine 7 [running]:\n" +
		"example.com/shop/catalog.Item3(...)\n\tcatalog/catalog.go:20\n" + // shown already
		"example.com/shop/rates.Tier1(...)\n\t" + filepath.Join(h.repo, "rates", "rates.go") + ":12 +0x1d\n" + // absolute, inside
		"example.com/shop/price.Discount(...)\n\tprice/price.go:9 +0x2e\n" + // the round changed it
		"runtime.gopanic(...)\n\t/usr/local/go/src/runtime/panic.go:860 +0x13a\n" + // outside
		"example.com/shop/catalog.Item20(...)\n\tcatalog/catalog.go:105\n"
	report := &verify.Report{Commands: []verify.CommandResult{{Failures: []verify.Failure{
		{Test: "TestA", File: "catalog/catalog.go", Line: 50, Output: frames},
		{Test: "TestB", File: "rates/rates.go", Line: 14, Output: "rates_test.go:3: Tier1 = 3"}, // Tier1 again
		{Test: "TestC", File: "catalog/catalog.go", Line: 200},
		{Test: "TestD", File: "catalog/catalog.go", Line: 300}, // past maxFailurePlaces
	}}}}
	text := r.failureLook("verify", report, []string{"price/price.go"})
	ev := lookEvents(t, h.events())
	want := []string{"catalog/catalog.go:49-52", "rates/rates.go:11-14", "catalog/catalog.go:104-107", "catalog/catalog.go:199-202"}
	if len(ev) != 1 || !reflect.DeepEqual(ev[0].Requests, want) {
		t.Fatalf("look events %+v, want one asking for %q", ev, want)
	}
	if !strings.HasPrefix(text, failureLookHeader) || !strings.Contains(text, "func Tier1() int {") || strings.Contains(text, "func Item3()") {
		t.Errorf("the text:\n%s", text)
	}
}

// promptOf is all that request r sent the model, pack and conversation.
func promptOf(r ollamafake.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

// shownAfter checks that a request after a failure (after) shows shown,
// the definition def that the whole request before it (before: pack and
// conversation) did not show (else the test shows nothing), with the failure's panic message and the look's
// header, and shows nothing of file, which the model wrote.
func shownAfter(t *testing.T, before, after, def, shown, file string) {
	t.Helper()
	if strings.Contains(before, def) {
		t.Fatalf("%s was shown before the failure; the test shows nothing:\n%s", def, before)
	}
	for _, want := range []string{"rates: 250 tenths is over 100", failureLookHeader, shown} {
		if !strings.Contains(after, want) {
			t.Errorf("the request after the failure lacks %q:\n%s", want, after)
		}
	}
	if strings.Contains(after, "## "+file) {
		t.Errorf("the request after the failure shows %s, which the model wrote:\n%s", file, after)
	}
}

// addQuarter makes shop's Discount go through rates.Rate, whose check
// panics past 100 tenths of a per cent, with no test of more than 10 %
// off, and commits a catalog too: an issue about a quarter off passes its
// checks, and a small pack of it shows items, not rates.
func addQuarter(t *testing.T, repo string) {
	t.Helper()
	addCatalog(t, repo)
	commitFile(t, repo, "rates/rates.go", "// Package rates converts shares.\npackage rates\n\nimport \"fmt\"\n\n"+
		"// Rate is a share in tenths of a per cent, checked.\nfunc Rate(tenths int) int {\n\treturn check(tenths)\n}\n\n"+
		"// check panics past 100 tenths.\nfunc check(tenths int) int {\n\tif tenths > 100 {\n\t\tpanic(fmt.Sprintf(\"rates: %d tenths is over 100\", tenths))\n\t}\n\treturn tenths\n}\n")
	ratedDiscount(t, repo, "rates.Rate(percent*10)/1000")
}

// ratedDiscount commits shop's Discount taking off cents*share, share
// an expression of rates, with no test of more than 10 % off.
func ratedDiscount(t *testing.T, repo, share string) {
	t.Helper()
	commitFile(t, repo, "price/price.go", "// Package price computes prices in cents.\npackage price\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/shop/rates\"\n)\n\n"+
		"// Discount returns cents less percent per cent of it.\nfunc Discount(cents, percent int) int {\n\treturn cents - cents*"+share+"\n}\n\n"+
		"// Format writes cents as euros, e.g. 12.50 EUR.\nfunc Format(cents int) string {\n\treturn fmt.Sprintf(\"%d.%02d EUR\", cents/100, cents%100)\n}\n")
	commitFile(t, repo, "price/price_test.go", "package price\n\nimport \"testing\"\n\nfunc TestDiscount(t *testing.T) {\n\tif got := Discount(1000, 10); got != 900 {\n\t\tt.Errorf(\"Discount(1000, 10) = %d, want 900\", got)\n\t}\n}\n")
}

// reproducedAndFixed runs task on h asked to reproduce it, the model
// answering with replies (its test, plan and fix), and fails unless the
// fix is proven by the test.
func reproducedAndFixed(t *testing.T, h *harness, task Task, replies ...string) {
	t.Helper()
	if res := runReproducing(t, h, task, replies...); res.Result != Fixed || res.Proof.Kind != ProofReproduced {
		t.Fatalf("result %s, proof %+v (%s)\n%s", res.Result, res.Proof, res.StopDetail, h.log.String())
	}
}

// quarterTask is the issue addQuarter's shop has.
var quarterTask = Task{Title: "A quarter off crashes the shop", Body: "Item1, Item2, Item3, Item4, Item5, Item6, Item7, Item8 and Item9 at 25 % off: the shop crashes."}

// quarterTest is the model's reproducing test of a quarter off.
var quarterTest = quarterTestSaying(`"Discount(2000, 25) = %d, want 1500"`)

// quarterTestSaying is the diff that adds a test of Discount(2000, 25)
// that fails with the format message.
func quarterTestSaying(message string) string {
	return "--- /dev/null\n+++ b/price/quarter_test.go\n@@ -0,0 +1,9 @@\n+package price\n+\n+import \"testing\"\n+\n" +
		"+func TestQuarterOff(t *testing.T) {\n+\tif got := Discount(2000, 25); got != 1500 {\n+\t\tt.Fatalf(" + message + ", got)\n+\t}\n+}\n"
}

const quarterFix = `rates/rates.go
<<<<<<< SEARCH
	if tenths > 100 {
=======
	if tenths > 1000 {
>>>>>>> REPLACE`

// TestAReproductionShowsWhereItsFailurePoints: when the model's test
// reproduces an issue by failing in code the pack did not show (its
// panic's frames), the plan is asked for with that code shown, and the
// test the model wrote is not shown back to it.
func TestAReproductionShowsWhereItsFailurePoints(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	h.srv = ollamafake.New(t, ollamafake.Model{Name: testModel, ContextLength: 11000}) // the smallest pack
	addQuarter(t, h.repo)
	plan := `{"files": ["rates/rates.go"], "steps": ["In check, allow up to 1000 tenths."]}`
	reproducedAndFixed(t, h, quarterTask, quarterTest, plan, quarterFix)
	check := "\tfunc check(tenths int) int {\n\t\tif tenths > 100 {\n\t\t\tpanic("
	shownAfter(t, promptOf(h.srv.Chats()[0]), h.asked(1), "func check(", check, "price/quarter_test.go")
	got := lookEvents(t, h.events())
	if len(got) == 0 || got[0].Stage != "reproduce" || got[0].Requests[0] != "rates/rates.go:11-17" {
		t.Fatalf("look events = %+v, want the reproduction's first, at rates/rates.go:11-17", got)
	}
	replaysLooksOf(t, h, got, addQuarter, quarterTask, true)
}

// addQuarterReports makes shop's Discount take rates.Rate's share, which
// halves shares over 20 per cent, with no test of more than 10 % off,
// and commits reports of the shop's quarters: an issue about a quarter
// off passes its checks, and its pack is the reports'.
func addQuarterReports(t *testing.T, repo string) {
	t.Helper()
	commitFile(t, repo, "rates/rates.go", "// Package rates converts shares.\npackage rates\n\n"+
		"// Rate is the share taken off for percent.\nfunc Rate(percent int) int {\n\tif percent > 20 {\n\t\treturn percent / 2\n\t}\n\treturn percent\n}\n")
	ratedDiscount(t, repo, "rates.Rate(percent)/100")
	for q := 0; q < 24; q++ {
		var b strings.Builder
		fmt.Fprintf(&b, "// Package report%d reports a quarter of the shop.\npackage report%d\n\n// Quarter%d is what the shop sold in quarter %d, a quarter off or not.\nfunc Quarter%d() []string {\n\treturn []string{\n", q, q, q, q, q)
		for i := 0; i < 40; i++ {
			fmt.Fprintf(&b, "\t\t\"quarter %d: the shop sold item %d at a quarter off, and nothing crashes\",\n", q, i)
		}
		b.WriteString("\t}\n}\n")
		commitFile(t, repo, fmt.Sprintf("report%d/report.go", q), b.String())
	}
}

// quarterQuiet is quarterTest saying nothing of what it called: only
// the test's lines lead to Discount.
var quarterQuiet = quarterTestSaying(`"got %d, want 1500"`)

// quarterOffPlan and quarterOffFix are the model's plan and fix of
// quarterOffTask.
const (
	quarterOffPlan = `{"files": ["rates/rates.go"], "steps": ["In Rate, take the share whole."]}`
	quarterOffFix  = "rates/rates.go\n<<<<<<< SEARCH\n\t\treturn percent / 2\n=======\n\t\treturn percent\n>>>>>>> REPLACE"
)

var quarterOffTask = Task{Title: "A quarter off is wrong in the shop", Body: "The shop sells at a quarter off: the price it shows is not a quarter off."}

// TestAReproductionRanksTheCodeAgain: once the model's test reproduces an
// issue whose pack (ranked from its text) left the code out, the plan is
// asked for with the code the test's failure ranks first (what the
// function the test calls calls, which no frame names: the test fails on
// a value, not a panic, and its message names nothing, so the ranking
// follows the test's lines, which git does not track yet); not the test
// the model wrote.
func TestAReproductionRanksTheCodeAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	addQuarterReports(t, h.repo)
	reproducedAndFixed(t, h, quarterOffTask, quarterQuiet, quarterOffPlan, quarterOffFix)
	first, ask := promptOf(h.srv.Chats()[0]), h.asked(1)
	if strings.Contains(first, "func Rate(") {
		t.Fatalf("the pack showed Rate already; the test shows nothing:\n%s", first)
	}
	if !strings.Contains(ask, "\tfunc Rate(percent int) int {\n\t\tif percent > 20 {") {
		t.Errorf("the plan request lacks Rate:\n%s", ask)
	}
	if !strings.Contains(ask, rerankHeader) || strings.Contains(ask, "## price/quarter_test.go") {
		t.Errorf("the plan request:\n%s", ask)
	}
	var stages []string
	for _, e := range lookEvents(t, h.events()) {
		stages = append(stages, e.Stage)
	}
	if !slices.Contains(stages, "rerank") {
		t.Errorf("look events of stages %q, want a rerank", stages)
	}
	replaysLooksOf(t, h, lookEvents(t, h.events()), addQuarterReports, quarterOffTask, true)
}

// TestRerankBudget: a reproduction's rerank has what the window leaves
// past the largest pack, the reply and the conversation's reserve.
func TestRerankBudget(t *testing.T) {
	for _, c := range []struct{ window, want int }{
		{0, 3072},     // not known: the pack is the largest too
		{11000, 0},    // the smallest pack
		{20000, 0},    // the pack takes what the reserve leaves
		{24000, 1472}, // 24000 - 12288 - 4096 - 6144
		{32768, 3072},
		{131072, 3072},
	} {
		if got := RerankBudget(c.window); got != c.want {
			t.Errorf("RerankBudget(%d) = %d, want %d", c.window, got, c.want)
		}
	}
}

// TestAFailedRoundDoesNotShowTheReproducingTest: a round whose checks
// fail in the model's own reproducing test is not answered with that
// test's lines: the model wrote them.
func TestAFailedRoundDoesNotShowTheReproducingTest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	addQuarterReports(t, h.repo)
	wrong := "rates/rates.go\n<<<<<<< SEARCH\n// Rate is the share taken off for percent.\n=======\n// Rate is the share taken off.\n>>>>>>> REPLACE"
	reproducedAndFixed(t, h, quarterOffTask, quarterTest, quarterOffPlan, wrong, quarterOffFix)
	for _, e := range lookEvents(t, h.events()) {
		for _, q := range e.Requests {
			if e.Stage == "verify" && strings.HasPrefix(q, "price/quarter_test.go") {
				t.Errorf("round %d's look asks for the model's test: %q", e.Round, e.Requests)
			}
		}
	}
	if ask := h.asked(3); !strings.Contains(ask, "Discount(2000, 25) = 1760, want 1500") || strings.Contains(ask, "## price/quarter_test.go") {
		t.Errorf("the second patch request:\n%s", ask)
	}
}

// TestFailurePlacesReadPythonAndNodeTraces: the look at what failed reads
// pytest's traceback (real output) and Node's stack as it reads Go's.
func TestFailurePlacesReadPythonAndNodeTraces(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "pyclamp")
	calc := "\"\"\"Prices.\"\"\"\n\n\ndef rate(percent):\n    \"\"\"The share taken off.\"\"\"\n    if percent > 20:\n        raise ValueError(f\"rate: {percent} is over 20\")\n    return percent\n\n\n" +
		"def discount(cents, percent):\n    \"\"\"Cents less percent per cent of it.\"\"\"\n    return cents - cents * rate(percent) // 100\n"
	commitFile(t, h.repo, "app/__init__.py", "")
	commitFile(t, h.repo, "app/calc.py", calc)
	commitFile(t, h.repo, "tests/test_calc.py", "from app.calc import discount\n\n\ndef test_quarter():\n    assert discount(2000, 25) == 1500\n")
	commitFile(t, h.repo, "web/sum.js", "// sum adds.\nfunction sum(a, b) {\n  return a - b;\n}\n\nmodule.exports = sum;\n")
	ix, err := repoctx.Open(context.Background(), h.repo)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join("testdata", "failures", "pytest-trace.txt"))
	if err != nil {
		t.Fatal(err)
	}
	failures := verify.ParseOutput("pytest", string(out), h.repo)
	failures = append(failures, verify.Failure{Test: "sum adds", File: "web/sum.test.js", Line: 5,
		Output: "Expected: 3\nReceived: -1\n\n      at sum (" + filepath.Join(h.repo, "web", "sum.js") + ":3:12)\n      at Object.<anonymous> (web/sum.test.js:5:10)\n"})
	got := FailurePlaces(ix, h.repo, failures, []string{"tests/test_calc.py"}, map[string][]repoctx.Chunk{})
	want := []string{"app/calc.py:4-8", "app/calc.py:11-13", "web/sum.js:2-4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FailurePlaces = %q, want %q (failures %+v)", got, want, failures)
	}
}

// TestFramesOfEachRunner: the frames of each runner's traces, in the
// order printed.
func TestFramesOfEachRunner(t *testing.T) {
	for _, c := range []struct {
		out  string
		want [][2]string
	}{
		{"goroutine 7 [running]:\nexample.com/m.F(...)\n\tm/f.go:12 +0x1d\nexample.com/m.G()\n\t/abs/m/g.go:3\n", [][2]string{{"m/f.go", "12"}, {"/abs/m/g.go", "3"}}},
		{"Traceback (most recent call last):\n  File \"/repo/app/x.py\", line 9, in <module>\n    main()\n  File \"app/y.py\", line 4, in main\n", [][2]string{{"/repo/app/x.py", "9"}, {"app/y.py", "4"}}},
		{"tests/test_x.py:5: \n_ _ _\napp/x.py:13: in discount\n    return 1\napp/x.py:7: ValueError\n", [][2]string{{"tests/test_x.py", "5"}, {"app/x.py", "13"}, {"app/x.py", "7"}}},
		{"Error: boom\n    at sum (/r/web/sum.js:3:12)\n    at web/sum.test.ts:5:10\n    at node:internal/main:1:1\n", [][2]string{{"/r/web/sum.js", "3"}, {"web/sum.test.ts", "5"}}},
		{"thread 'tests::sub' panicked at src/lib.rs:22:5:\nattempt to subtract\n  --> src/main.rs:4:9\n", [][2]string{{"src/lib.rs", "22"}, {"src/main.rs", "4"}}},
	} {
		if got := frames(c.out); !reflect.DeepEqual(got, c.want) {
			t.Errorf("frames(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}
