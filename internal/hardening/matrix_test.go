package hardening

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the hardening block of README.md from this run")

func TestMain(m *testing.M) { os.Exit(actiontest.Main(func() int { return mainRun(m) })) }

// mainRun runs the rows and checks the README's figures against them.
func mainRun(m *testing.M) int {
	// Most rows wait (on retries, timeouts, the project's tests) rather
	// than compute: run four at a time unless -parallel says otherwise.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "4")
	}
	code := m.Run()
	rs := recorded()
	if len(rs) == 0 {
		return code
	}
	printTable(os.Stdout, rs)
	if !complete(rs) {
		if *updateReadme {
			fmt.Fprintln(os.Stderr, "hardening: -update-readme needs every row of both matrices; run without -run")
			return 1
		}
		return code
	}
	if err := checkReadme(rs, *updateReadme); err != nil {
		fmt.Fprintf(os.Stderr, "hardening: %v\n", err)
		return 1
	}
	return code
}

// scenario is one declared row of a matrix.
type scenario struct {
	name     string
	expected string
	run      func(t *testing.T, c *check)
}

// row is what a scenario observed.
type row struct {
	matrix   string // "fault" or "attack"
	order    int
	name     string
	expected string
	observed string
	ok       bool
	// lostDiffs counts model diffs that passed validation and ended up
	// nowhere (no branch, no comment, no summary); dupPRs counts open PRs
	// beyond one per head branch.
	lostDiffs, dupPRs int
}

var (
	rowsMu sync.Mutex
	rows   []row
)

func recorded() []row {
	rowsMu.Lock()
	defer rowsMu.Unlock()
	out := append([]row(nil), rows...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].matrix != out[j].matrix {
			return out[i].matrix == "fault"
		}
		return out[i].order < out[j].order
	})
	return out
}

// check collects one row while its scenario runs.
type check struct {
	t   *testing.T
	row row
	obs []string
}

// runMatrix runs each scenario as a parallel subtest and records its row
// when it ends, passed or not.
func runMatrix(t *testing.T, matrix string, scs []scenario) {
	for i, sc := range scs {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			c := &check{t: t, row: row{matrix: matrix, order: i, name: sc.name, expected: sc.expected}}
			t.Cleanup(func() {
				if t.Skipped() {
					return
				}
				c.row.ok = !t.Failed()
				c.row.observed = strings.Join(c.obs, "; ")
				if c.row.observed == "" {
					c.row.observed = "(nothing observed)"
				}
				rowsMu.Lock()
				rows = append(rows, c.row)
				rowsMu.Unlock()
			})
			sc.run(t, c)
		})
	}
}

// see adds to the row's observed column.
func (c *check) see(format string, args ...any) {
	c.obs = append(c.obs, fmt.Sprintf(format, args...))
}

// must fails the row with what was observed and the run's output.
func (c *check) must(r *actiontest.Result, cond bool, format string, args ...any) {
	c.t.Helper()
	if cond {
		return
	}
	msg := fmt.Sprintf(format, args...)
	c.see("FAILED: %s", msg)
	if r != nil {
		c.t.Fatalf("%s\nexit %d, outputs %v\n--- stderr ---\n%s\n--- stdout ---\n%s", msg, r.Code, r.Outputs, tail(r.Stderr, 6000), tail(r.Stdout, 3000))
	}
	c.t.Fatal(msg)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// totals is the figures line, counted from rows.
func totals(rs []row) string {
	var fOK, fN, aOK, aN, lost, dup int
	for _, r := range rs {
		lost += r.lostDiffs
		dup += r.dupPRs
		switch r.matrix {
		case "fault":
			fN++
			if r.ok {
				fOK++
			}
		case "attack":
			aN++
			if r.ok {
				aOK++
			}
		}
	}
	return fmt.Sprintf("faults survived %d/%d, attacks refused %d/%d, diffs lost %d, duplicate PRs %d", fOK, fN, aOK, aN, lost, dup)
}

func printTable(w io.Writer, rs []row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nMATRIX\tSCENARIO\tEXPECTED\tOBSERVED\tRESULT")
	for _, r := range rs {
		res := "pass"
		if !r.ok {
			res = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.matrix, r.name, r.expected, oneLine(r.observed), res)
	}
	tw.Flush()
	fmt.Fprintln(w, totals(rs))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 220 {
		s = s[:220] + "…"
	}
	return s
}

// complete reports whether every declared row of both matrices ran.
func complete(rs []row) bool {
	ran := map[string]bool{}
	for _, r := range rs {
		ran[r.matrix+"/"+r.name] = true
	}
	for _, m := range []struct {
		name string
		scs  []scenario
	}{{"fault", faults}, {"attack", attacks}} {
		for _, sc := range m.scs {
			if !ran[m.name+"/"+sc.name] {
				return false
			}
		}
	}
	return true
}
