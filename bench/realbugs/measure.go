package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
				execs.add(runs, ch.sites)
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
						run = "  " + runsString(runs, ch.sites)
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
			l, _, _ := agent.PlanLook(ix, ranked, &plan, seen, agent.LookBudget(lookWindow(b)))
			looked(seen, l)
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
		fmt.Fprintf(out, "executed: of the %d fixed files, %d in %d cases have a site in a function the failing tests do not run and none in one they run\n",
			execs.files, execs.unrun, execs.unrunCases)
		if execs.unmeasured > 0 {
			fmt.Fprintf(out, "executed: %d cases not measured: their tests ended without a coverage profile (a fatal error) or ran too long (stderr says which)\n", execs.unmeasured)
		}
	}
}
