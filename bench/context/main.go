// Command context benchmarks agentfix's context engine on a corpus it builds
// at run time: GOROOT/src plus one version of every module in the module
// cache, linked into a temporary git repository (20k+ files).
//
// It reports, in one run:
//   - recall@budget (4k, 8k, 16k tokens) on a labelled set drawn from the
//     corpus, for failing-test output and for issue text, against a plain
//     whole-file BM25 baseline;
//   - the time of one Build (list, scan, rank, outline, pack) against
//     `git grep -c func` over the same files, and Build's peak RSS.
//
// Usage:
//
//	go run ./bench/context [-targets 60] [-seed 1] [-corpus DIR] [-max-files N] [-v]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/agentfix/agentfix/bench/internal/bm25"
	"github.com/agentfix/agentfix/bench/internal/digest"
	"github.com/agentfix/agentfix/internal/repoctx"
)

var budgets = []int{4096, 8192, 16384}

func main() {
	// As agentfix runs: the times are the product's.
	repoctx.TuneGC()
	repo := flag.String("repo", "", "pack one query (-query-file) against this repository; used for the timed runs")
	queryFile := flag.String("query-file", "", "the query for -repo")
	budget := flag.Int("budget", 8192, "token budget for -repo")
	quiet := flag.Bool("quiet", false, "with -repo, print nothing")
	corpus := flag.String("corpus", "", "use (or build, if missing) the corpus in this directory and keep it")
	targets := flag.Int("targets", 60, "functions in the labelled set (two queries each)")
	seed := flag.Uint64("seed", 1, "seed for picking the labelled set")
	verbose := flag.Bool("v", false, "list the misses")
	recall := flag.Bool("recall", true, "measure recall (set false to time only)")
	cpuprofile := flag.String("cpuprofile", "", "with -repo, write a CPU profile to this file")
	maxFiles := flag.Int("max-files", 0, "build the corpus with at most this many files (GOROOT/src first; 0: all), e.g. 20000 for the 20k-file goal")
	digestFile := flag.String("digest", "", "write each query's pack digest per budget (SHA-256 of its text and files) to this file, to prove that a change to the engine packs the same")
	queryDir := flag.String("write-queries", "", "write the labelled queries to this directory (one file each), for -repo -query-file runs")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	if *repo != "" {
		if err := packOne(*repo, *queryFile, *budget, *quiet); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if *cpuprofile != "" {
		fmt.Fprintln(os.Stderr, "bench/context: -cpuprofile needs -repo")
		os.Exit(2)
	}
	out := outputs{digest: *digestFile, queries: *queryDir}
	if err := run(*corpus, *maxFiles, *targets, *seed, *verbose, *recall, out); err != nil {
		fmt.Fprintln(os.Stderr, "bench/context:", err)
		os.Exit(1)
	}
}

func packOne(repo, queryFile string, budget int, quiet bool) error {
	q, err := os.ReadFile(queryFile)
	if err != nil {
		return err
	}
	p, err := repoctx.Build(context.Background(), repo, string(q), repoctx.Options{Budget: budget})
	if err != nil {
		return err
	}
	if quiet {
		// VmHWM is this process's own peak RSS; rusage's maxrss would also
		// count the parent's pages from before exec.
		if status, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, l := range strings.Split(string(status), "\n") {
				if strings.HasPrefix(l, "VmHWM:") {
					fmt.Fprintln(os.Stderr, strings.Join(strings.Fields(l), " "))
				}
			}
		}
		return nil
	}
	if os.Getenv("BENCH_TOP") != "" {
		ix, _ := repoctx.Open(context.Background(), repo)
		r, _ := ix.Rank(context.Background(), string(q))
		for _, f := range r.Top(15) {
			fmt.Fprintf(os.Stderr, "top %.3f %s\n", f.Score, f.Path)
		}
	}
	fmt.Print(p.Text())
	for _, f := range p.Files {
		fmt.Fprintf(os.Stderr, "%.3f %5d %s %v\n", f.Score, f.Tokens, f.Path, f.Chunks)
	}
	fmt.Fprintf(os.Stderr, "tokens %d files %d took %dms\n", p.TokensUsed, p.RepoFiles, p.TookMS)
	return nil
}

// outputs are the files a run writes besides its report.
type outputs struct {
	digest  string // pack digests, one line per query and budget
	queries string // directory for the labelled queries
}

func run(corpus string, maxFiles, ntargets int, seed uint64, verbose, recall bool, out outputs) error {
	ctx := context.Background()
	if corpus == "" {
		tmp, err := os.MkdirTemp("", "agentfix-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		corpus = filepath.Join(tmp, "corpus")
	}
	if _, err := os.Stat(filepath.Join(corpus, ".git")); err != nil {
		start := time.Now()
		modcache := strings.TrimSpace(goEnv("GOMODCACHE"))
		n, err := buildCorpus(corpus, corpusSources(strings.TrimSpace(goEnv("GOROOT")), modcache), maxFiles)
		if err != nil {
			return err
		}
		fmt.Printf("corpus: %d files from GOROOT/src and %s, built in %s\n", n, modcache, time.Since(start).Round(time.Second))
	}
	listed, err := exec.Command("git", "-C", corpus, "ls-files").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}
	files := strings.Split(strings.TrimSpace(string(listed)), "\n")
	fmt.Printf("corpus: %s, %d files in git\n\n", corpus, len(files))

	ts := pickTargets(corpus, files, ntargets, seed)
	qs := queries(ts)
	if out.queries != "" {
		if err := writeQueries(out.queries, qs); err != nil {
			return err
		}
	}

	if err := speed(corpus, qs); err != nil {
		return err
	}
	if !recall {
		return nil
	}

	ix, err := repoctx.Open(ctx, corpus)
	if err != nil {
		return err
	}
	texts := make([]string, len(qs))
	for k, q := range qs {
		texts[k] = q.query
	}
	base := bm25.New(corpus, files, texts)
	type key struct {
		kind, who string
		budget    int
	}
	hits := map[key]int{}
	total := map[string]int{}
	var misses []string
	var digests strings.Builder
	for n, q := range qs {
		if n%20 == 0 {
			fmt.Fprintf(os.Stderr, "recall: %d/%d queries\n", n, len(qs))
		}
		total[q.kind]++
		r, err := ix.Rank(ctx, q.query)
		if err != nil {
			return err
		}
		order := base.Rank(q.query)
		for _, b := range budgets {
			p, err := r.Pack(ctx, repoctx.Options{Budget: b})
			if err != nil {
				return err
			}
			if p.TokensUsed > b {
				return fmt.Errorf("pack over budget: %d > %d", p.TokensUsed, b)
			}
			fmt.Fprintf(&digests, "%s %d %d %s\n", q.kind, n, b, digest.Pack(p))
			if definitionPacked(p, q.t) {
				hits[key{q.kind, "engine", b}]++
			} else if b == 16384 {
				misses = append(misses, fmt.Sprintf("%s %s:%d %s (ranked: %s)", q.kind, q.t.file, q.t.decl, q.t.name, strings.Join(firstN(r.Files(), 3), " ")))
			}
			if base.Packed(order, b)[q.t.file] {
				hits[key{q.kind, "bm25", b}]++
			}
		}
	}
	if out.digest != "" {
		if err := os.WriteFile(out.digest, []byte(digests.String()), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("recall@budget: the target function's file packed (engine: with its definition in a packed chunk)\n")
	fmt.Printf("%-28s %8s %8s %8s\n", "query kind / ranker", "4k", "8k", "16k")
	for _, kind := range []string{"test", "issue"} {
		for _, who := range []string{"engine", "bm25"} {
			name := map[string]string{"test": "failing test output", "issue": "issue text"}[kind]
			fmt.Printf("%-28s", name+" / "+who)
			for _, b := range budgets {
				fmt.Printf(" %7.1f%%", 100*float64(hits[key{kind, who, b}])/float64(total[kind]))
			}
			fmt.Println()
		}
	}
	fmt.Printf("(%d queries of each kind, seed %d)\n", total["test"], seed)
	if verbose {
		sort.Strings(misses)
		fmt.Println("\nmisses at 16k:")
		for _, m := range misses {
			fmt.Println("  " + m)
		}
	}
	return nil
}

func firstN(s []string, n int) []string { return s[:min(n, len(s))] }

// definitionPacked reports whether the target's file is packed with a chunk
// holding its definition line.
func definitionPacked(p *repoctx.Pack, t *target) bool {
	for _, f := range p.Files {
		if f.Path != t.file {
			continue
		}
		for _, c := range f.Chunks {
			if t.decl >= c.StartLine && t.decl <= c.EndLine {
				return true
			}
		}
	}
	return false
}

func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod")
	}
	return string(out)
}

// speed times `git grep -c func` and one Build per query kind, each as a
// child process (median of 3, after a warm-up), and reports Build's peak RSS.
func speed(corpus string, qs []labelled) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	grep := func() *exec.Cmd { return exec.Command("git", "-C", corpus, "grep", "-c", "func") }
	gt, gcpu, _ := timed(grep)
	fmt.Printf("speed (median of 3 warm runs: wall time, CPU time (user+sys); Build's peak RSS (VmHWM)):\n")
	fmt.Printf("  git grep -c func            %6d ms  %6d ms CPU\n", gt.Milliseconds(), gcpu.Milliseconds())
	for _, kind := range []string{"test", "issue"} {
		var q labelled
		for _, x := range qs {
			if x.kind == kind {
				q = x
				break
			}
		}
		f, err := os.CreateTemp("", "query-")
		if err != nil {
			return err
		}
		f.WriteString(q.query)
		f.Close()
		defer os.Remove(f.Name())
		bt, bcpu, brss := timed(func() *exec.Cmd {
			return exec.Command(self, "-repo", corpus, "-query-file", f.Name(), "-budget", "8192", "-quiet")
		})
		fmt.Printf("  Build, %-5s query, 8k      %6d ms  %6d ms CPU  %4d MB   %.2fx git grep (wall), %.2fx (CPU)\n",
			kind, bt.Milliseconds(), bcpu.Milliseconds(), brss>>20, float64(bt)/float64(gt), float64(bcpu)/float64(gcpu))
	}
	fmt.Println()
	return nil
}

// timed runs the command four times and returns the median wall and CPU
// times of the last three and the largest peak RSS it reported (VmHWM).
func timed(mk func() *exec.Cmd) (time.Duration, time.Duration, int64) {
	var ds, cpus []time.Duration
	var rss int64
	for k := 0; k < 4; k++ {
		cmd := mk()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				fmt.Fprintln(os.Stderr, "run:", err)
			}
		}
		d := time.Since(start)
		var kb int64
		if _, err := fmt.Sscanf(strings.TrimSpace(stderr.String()), "VmHWM: %d kB", &kb); err == nil {
			rss = max(rss, kb*1024)
		}
		if k > 0 {
			ds = append(ds, d)
			cpus = append(cpus, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	return ds[len(ds)/2], cpus[len(cpus)/2], rss
}
