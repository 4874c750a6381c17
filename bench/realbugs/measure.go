package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agentfix/agentfix/bench/internal/bm25"
	"github.com/agentfix/agentfix/bench/internal/digest"
	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/verify"
)

var budgets = []int{8192, 12288, 16384}

// Who packs: the engine; plain BM25 over whole files; the engine then the
// look step with a scripted model whose plan names the fix's files it
// can see in its prompt and asks to look at them (look:files), or whose
// steps also name the definitions around the fix that the prompt shows
// (look:names); or, for an issue, what the agent shows before the plan
// once the model's test reproduces it (look:repro), the release's tests
// standing for the model's: the engine's pack of the issue, then the
// places the test's failure points at that the pack did not show, then
// what the failure ranks first that is still not shown.
var whos = []string{"engine", "bm25", "look:files", "look:names", "look:repro"}

// tally is one row of the report: per query kind, ranker and budget.
type tally struct {
	cases     int
	filesAll  int     // cases with every fixed file packed
	siteShare float64 // sum over cases of the share of sites shown
	sitesAll  int     // cases with every site shown
	// missed counts the sites not shown by where they are (see
	// missKinds), and missedIn the cases with such a site.
	missed, missedIn map[string]int
}

type key struct {
	kind, who string
	budget    int
}

// verboseBudget is the budget whose misses -v prints (-vbudget).
var verboseBudget = 16384

// verboseWho is the ranker whose misses -v prints (-vwho).
var verboseWho = "engine"

// packDigests, when set (-digest), gets a line per engine pack: case,
// query kind, budget and digest.Pack.
var packDigests *strings.Builder

// packsDir, when set (-packs), gets each engine pack's text, a file per
// case, query kind and budget: the corpus bench/tokens counts.
var packsDir string

// subdir, when set (-subdir), is the directory of the repository each
// case's module is measured in, rather than its root.
var subdir string

// keepTrees keeps each case's trees instead of removing them (-keep).
var keepTrees bool

// issueHead, when set (-issue-head), goes before each issue text, as a bug
// report template's questions and the reporter's go version and go env
// output do.
var issueHead string

// measure rebuilds every case from the module proxy and prints file and
// site recall per query kind, ranker and budget.
func measure(cs []Case, only string, verbose bool, out io.Writer) error {
	ctx := context.Background()
	var goroot, modcache string
	if runnerPaths {
		goroot, modcache = goEnv("GOROOT"), goEnv("GOMODCACHE")
	}
	tallies := map[key]*tally{}
	measured := 0
	for _, c := range cs {
		if only != "" && c.ID != only {
			continue
		}
		bdir, err := goModDir(c.Module, c.Before)
		if err != nil {
			return err
		}
		adir, err := goModDir(c.Module, c.After)
		if err != nil {
			return err
		}
		ch, err := diffModules(bdir, adir)
		if err != nil {
			return err
		}
		tmp, err := os.MkdirTemp("", "realbugs-")
		if err != nil {
			return err
		}
		trees := map[string]string{"failing": filepath.Join(tmp, "failing"), "issue": filepath.Join(tmp, "issue")}
		// mods are where the module is in each tree: its root, or -subdir.
		mods := map[string]string{"failing": filepath.Join(trees["failing"], subdir), "issue": filepath.Join(trees["issue"], subdir)}
		if err := c.buggyTree(bdir, adir, ch.testFiles, mods["failing"]); err != nil {
			return err
		}
		if err := copyTree(bdir, mods["issue"]); err != nil {
			return err
		}
		fix := ch.in(subdir)
		measured++
		var runs []siteRun // -executed
		if executedMode {
			if runs, err = executedSites(c, mods["failing"], ch.sites); errors.Is(err, errTooLong) || errors.Is(err, errNoProfile) {
				fmt.Fprintf(os.Stderr, "realbugs: %v; what its tests run is not measured\n", err)
				execs.unmeasured++
			} else if err != nil {
				return err
			}
			if runs != nil {
				execs.add(runs)
			}
		}
		for _, kind := range []string{"failing", "issue"} {
			query := c.Failing
			if kind == "issue" {
				query = issueText(c)
			} else if goTestMode != "" {
				if query, err = packageOutput(mods[kind], c); errors.Is(err, errTooLong) {
					fmt.Fprintf(os.Stderr, "realbugs: %v; its failing output is not measured\n", err)
					continue
				} else if err != nil {
					return err
				}
			}
			if strings.TrimSpace(query) == "" {
				continue
			}
			if kind == "failing" && runnerPaths {
				query = onRunner(query, ciJob(c), goroot, modcache)
			}
			if kind == "failing" && quoteFailing {
				query = quoted(query)
			}
			switch {
			case kind != "failing":
			case ciLog == "actions":
				query = actionsLog(query, ciCommand(), "")
			case ciLog == "actions-job":
				query = actionsLog(query, ciCommand(), ciJob(c))
			}
			root := trees[kind]
			if err := gitInit(root); err != nil {
				return err
			}
			// An issue reproduced, on the tree that holds the release's
			// tests, which stand for the model's.
			var rep *reproduction
			if kind == "failing" && c.Issue != "" {
				if err := gitInit(trees["issue"]); err != nil {
					return err
				}
				rep = &reproduction{issue: issueText(c), issueRoot: mods["issue"], failures: failuresIn(c.Failing, root), written: fix.testFiles}
			}
			res, err := measureOne(ctx, root, query, fix, c.ID+" "+kind, rep)
			if err != nil {
				return fmt.Errorf("%s (%s): %w", c.ID, kind, err)
			}
			for k, r := range res {
				kinds := []string{kind}
				switch {
				case k.who == "look:repro":
					kinds = []string{"issue"}
				case kind == "failing" && reached(runs):
					kinds = append(kinds, "executed")
				}
				for _, kk := range kinds {
					k.kind = kk
					t := tallies[k]
					if t == nil {
						t = &tally{missed: map[string]int{}, missedIn: map[string]int{}}
						tallies[k] = t
					}
					t.cases++
					t.siteShare += float64(r.shown) / float64(len(ch.sites))
					if r.shown == len(ch.sites) {
						t.sitesAll++
					}
					if r.files == len(ch.codeFiles) {
						t.filesAll++
					}
					for mk, n := range r.kinds {
						t.missed[mk] += n
						t.missedIn[mk]++
					}
				}
				if verbose && k.who == verboseWho && k.budget == verboseBudget {
					run := ""
					if kinds[0] == "failing" && runs != nil {
						run = "  " + runsString(runs)
					}
					fmt.Fprintf(out, "%-28s %-7s files %d/%d sites %d/%d%s  %s\n", c.ID, kinds[0], r.files, len(ch.codeFiles), r.shown, len(ch.sites), run, r.missed)
				}
			}
		}
		if keepTrees {
			fmt.Fprintf(os.Stderr, "%s: trees kept in %s\n", c.ID, tmp)
		} else {
			os.RemoveAll(tmp)
		}
	}
	report(out, tallies, measured)
	if verbose {
		reportMisses(out, tallies)
	}
	return nil
}

// issueText is the query of a case's issue: its text, after -issue-head's.
func issueText(c Case) string {
	if issueHead != "" && c.Issue != "" {
		return issueHead + "\n" + c.Issue
	}
	return c.Issue
}

// reproduction is an issue reproduced: its text, the tree it was packed
// from before the tests were written (issueRoot), what verify makes of the
// reproducing tests' failing output, and the files they are in, written
// by the model.
type reproduction struct {
	issue     string
	issueRoot string
	failures  []verify.Failure
	written   []string
}

// failuresIn is what verify makes of a case's failing output (go test's,
// kept as it printed it in the tree it ran in) in the tree at root.
func failuresIn(failing, root string) []verify.Failure {
	return verify.ParseOutput("go test ./...", reTreeRoot.ReplaceAllLiteralString(failing, root), root)
}

// result is how one pack did on one case.
type result struct {
	files  int            // fixed files packed
	shown  int            // sites inside a shown chunk
	missed string         // the sites not shown
	kinds  map[string]int // the sites not shown, by where they are
}

// measureOne packs one query at every budget with every ranker.
// With rep, it measures look:repro too: what the agent shows once rep's
// tests reproduce rep's issue.
func measureOne(ctx context.Context, root, query string, ch *change, label string, rep *reproduction) (map[key]result, error) {
	ix, err := repoctx.Open(ctx, root)
	if err != nil {
		return nil, err
	}
	ranked, err := ix.Rank(ctx, query)
	if err != nil {
		return nil, err
	}
	listed, err := exec.Command("git", "-C", root, "ls-files").Output()
	if err != nil {
		return nil, err
	}
	files := strings.Split(strings.TrimSpace(string(listed)), "\n")
	base := bm25.New(root, files, []string{query})
	order := base.Rank(query)
	out := map[key]result{}
	for _, b := range budgets {
		p, err := ranked.Pack(ctx, repoctx.Options{Budget: b})
		if err != nil {
			return nil, err
		}
		if packDigests != nil {
			fmt.Fprintf(packDigests, "%s %d %s\n", label, b, digest.Pack(p))
		}
		if packsDir != "" {
			name := strings.ReplaceAll(label, " ", "-") + "-" + strconv.Itoa(b) + ".txt"
			if err := os.WriteFile(filepath.Join(packsDir, name), []byte(p.Text()), 0o644); err != nil {
				return nil, err
			}
		}
		shown := map[string][]repoctx.Chunk{}
		for _, f := range p.Files {
			shown[f.Path] = f.Chunks
		}
		res := score(shown, ch)
		res.missed, res.kinds = whyMissed(ix, shown, ch)
		out[key{who: "engine", budget: b}] = res
		whole := map[string][]repoctx.Chunk{}
		for f := range base.Packed(order, b) {
			whole[f] = []repoctx.Chunk{{StartLine: 1, EndLine: 1 << 30}}
		}
		out[key{who: "bm25", budget: b}] = score(whole, ch)
		prompt := p.Text()
		for _, who := range []string{"look:files", "look:names"} {
			seen := copyShown(shown)
			plan := scriptedPlan(ix, prompt, ch, who == "look:names")
			looked(seen, ix.Look(agent.AroundPlan(ranked, &plan, seen), seen, agent.LookBudget(lookWindow(b))))
			res := score(seen, ch)
			res.missed, res.kinds = whyMissed(ix, seen, ch)
			out[key{who: who, budget: b}] = res
		}
		if rep != nil {
			res, err := reproduced(ctx, ix, rep, ch, b)
			if err != nil {
				return nil, err
			}
			out[key{who: "look:repro", budget: b}] = res
		}
	}
	return out, nil
}

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

// enclosing names the definitions of file f that hold site s, or for a
// pure insertion, those holding the lines either side of it.
func enclosing(ix *repoctx.Index, f string, s Site) []string {
	var spans []string
	for _, sp := range s.spans() {
		spans = append(spans, fmt.Sprintf("%s:%d-%d", f, sp[0], sp[1]))
	}
	var out []string
	for _, it := range ix.Look(spans, map[string][]repoctx.Chunk{}, 1<<30).Items {
		for _, c := range it.Chunks {
			for _, sym := range c.Symbols {
				if !slices.Contains(out, sym) {
					out = append(out, sym)
				}
			}
		}
	}
	return out
}

// Where a site the pack does not show is, by what the pack shows around
// it: its file not at all; of the definitions holding it, nothing or only
// other lines; or, in a file packed, no definition holds it (an import, a
// comment between definitions, a file the outline knows no definitions
// of).
const (
	missFile    = "file not packed"
	missDef     = "file packed, definition not shown"
	missPart    = "file packed, definition shown in part"
	missOutside = "file packed, outside any definition"
)

// missKinds are the kinds of misses, in the order the report gives them.
var missKinds = []string{missFile, missDef, missPart, missOutside}

// whyMissed lists the sites the shown chunks miss, each with the
// definitions holding it and where it is (see missKind):
// gjson.go:1011-1011[parseObjectPath; file packed, definition not shown];
// and counts them by where they are.
func whyMissed(ix *repoctx.Index, shown map[string][]repoctx.Chunk, ch *change) (string, map[string]int) {
	var out []string
	kinds := map[string]int{}
	for _, s := range ch.sites {
		if inChunks(shown[s.File], s) {
			continue
		}
		syms := enclosing(ix, s.File, s)
		why := missKind(ix, shown[s.File], s.File, syms)
		kinds[why]++
		out = append(out, fmt.Sprintf("%s[%s; %s]", s, strings.Join(syms, ","), why))
	}
	return strings.Join(out, " "), kinds
}

// missKind says where a site of file is that shown (the chunks of file
// the pack shows) does not show; syms are the definitions holding it.
func missKind(ix *repoctx.Index, shown []repoctx.Chunk, file string, syms []string) string {
	switch {
	case len(shown) == 0:
		return missFile
	case len(syms) == 0:
		return missOutside
	}
	reqs := make([]string, len(syms))
	for k, sym := range syms {
		reqs[k] = file + ":" + sym
	}
	for _, it := range ix.Look(reqs, map[string][]repoctx.Chunk{}, 1<<30).Items {
		for _, c := range it.Chunks {
			if it.Path == file && slices.ContainsFunc(shown, func(sc repoctx.Chunk) bool {
				return sc.StartLine <= c.EndLine && c.StartLine <= sc.EndLine
			}) {
				return missPart
			}
		}
	}
	return missDef
}

// inChunks reports whether site s is shown by cs: every line of a changed
// range (it may span a packed chunk and the look step's chunk right after
// it), or for a pure insertion, a line next to it that is not blank.
func inChunks(cs []repoctx.Chunk, s Site) bool {
	shown := func(l int) bool {
		return slices.ContainsFunc(cs, func(c repoctx.Chunk) bool { return c.StartLine <= l && l <= c.EndLine })
	}
	if s.insertion() {
		return s.Before > 0 && shown(s.Before) || s.After > 0 && shown(s.After)
	}
	for l := s.Start; l <= s.End; l++ {
		if !shown(l) {
			return false
		}
	}
	return true
}

// score counts the fixed files and the sites that the shown chunks hold.
func score(shown map[string][]repoctx.Chunk, ch *change) result {
	var r result
	for _, f := range ch.codeFiles {
		if len(shown[f]) > 0 {
			r.files++
		}
	}
	for _, s := range ch.sites {
		if inChunks(shown[s.File], s) {
			r.shown++
		}
	}
	return r
}

// reportMisses says, for -v's ranker and budget, where the sites the
// packs do not show are (see missKind): per query kind, how many sites
// and in how many cases.
func reportMisses(out io.Writer, tallies map[key]*tally) {
	for _, kind := range []string{"failing", "issue", "executed"} {
		t := tallies[key{kind, verboseWho, verboseBudget}]
		if t == nil || t.cases == 0 {
			continue
		}
		total := 0
		var parts []string
		for _, mk := range missKinds {
			total += t.missed[mk]
			in := "cases"
			if t.missedIn[mk] == 1 {
				in = "case"
			}
			parts = append(parts, fmt.Sprintf("%s %d (%d %s)", mk, t.missed[mk], t.missedIn[mk], in))
		}
		fmt.Fprintf(out, "misses, %s at %dk, %s: %d sites not shown in %d of %d cases; %s\n",
			verboseWho, verboseBudget/1024, kind, total, t.cases-t.sitesAll, t.cases, strings.Join(parts, "; "))
	}
}

func report(out io.Writer, tallies map[key]*tally, measured int) {
	if goTestMode != "" {
		what := fmt.Sprintf("go test -%s of every test of each case's package", goTestMode)
		switch goTestMode {
		case "all":
			what = "go test ./... of each case's module"
		case "gotestsum":
			what = fmt.Sprintf("go test -json of every test of each case's package, as %s --format %s prints it", goTestSum, goTestSumFormat)
		}
		fmt.Fprintf(out, "\nfailing output: %s, run on the buggy tree", what)
	}
	fmt.Fprintf(out, "\n%d cases. files: every file the fix changes is packed; sites: share of the fix's sites shown (its changed lines of the buggy release, blank ends left out; an insertion, by a line next to it), mean; all: every site shown\n", measured)
	fmt.Fprintf(out, "%-9s %-12s", "query", "who")
	for _, b := range budgets {
		fmt.Fprintf(out, " | %2dk files  sites    all", b/1024)
	}
	fmt.Fprintln(out)
	kinds := []string{"failing", "issue"}
	if executedMode {
		kinds = append(kinds, "executed")
	}
	for _, kind := range kinds {
		for _, who := range whos {
			fmt.Fprintf(out, "%-9s %-12s", kind, who)
			for _, b := range budgets {
				t := tallies[key{kind, who, b}]
				if t == nil || t.cases == 0 {
					fmt.Fprintf(out, " | %23s", "-")
					continue
				}
				n := float64(t.cases)
				fmt.Fprintf(out, " | %8.0f%% %5.0f%% %5.0f%%", 100*float64(t.filesAll)/n, 100*t.siteShare/n, 100*float64(t.sitesAll)/n)
			}
			fmt.Fprintln(out)
		}
	}
	var ns []string
	for _, kind := range kinds {
		if t := tallies[key{kind, "engine", budgets[0]}]; t != nil {
			ns = append(ns, fmt.Sprintf("%s: %d cases", kind, t.cases))
		}
	}
	sort.Strings(ns)
	fmt.Fprintln(out, strings.Join(ns, ", "))
	if executedMode {
		fmt.Fprintf(out, "executed: the failing output's rows for the %d of %d cases whose every site is in a function the failing tests run (go test -cover) or in none; "+
			"of all %d sites, %d in functions run, %d in functions not run, %d in none\n",
			execs.reached, execs.cases, execs.executed+execs.skipped+execs.noCode, execs.executed, execs.skipped, execs.noCode)
		if execs.unmeasured > 0 {
			fmt.Fprintf(out, "executed: %d cases not measured: their tests ended without a coverage profile (a fatal error) or ran too long (stderr says which)\n", execs.unmeasured)
		}
	}
}
