// Command checkoverhead measures what `agentfix check` costs on top of
// running the same test command directly: process group, -json event
// parsing, output capture and failure extraction.
//
// It generates a Go module whose suite takes several seconds (tests that
// sleep and log, and a package that prints -lines lines), builds agentfix,
// then runs the suite alternately three ways and prints the medians: go
// test directly, go test -json directly (what agentfix runs, so the cost
// of -json itself shows apart), and agentfix check.
//
//	go run ./bench/checkoverhead            # from the repository root
//	go run ./bench/checkoverhead -runs 7 -lines 100000   # a chatty suite
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	var (
		pkgs  = flag.Int("pkgs", 4, "packages in the generated suite")
		tests = flag.Int("tests", 14, "tests per package")
		sleep = flag.Duration("sleep", 200*time.Millisecond, "how long each test works")
		logs  = flag.Int("logs", 100, "t.Log lines per test")
		lines = flag.Int("lines", 0, "lines the chatty package prints (100 bytes each)")
		runs  = flag.Int("runs", 5, "runs of each way, alternating")
		keep  = flag.String("keep", "", "only write the suite and agentfix to `DIR` (to profile them by hand)")
	)
	flag.Parse()
	if err := run(*pkgs, *tests, *sleep, *logs, *lines, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "checkoverhead:", err)
		os.Exit(1)
	}
}

func run(pkgs, tests int, sleep time.Duration, logs, lines, runs int, keep string) error {
	work, err := os.MkdirTemp("", "checkoverhead-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	suite := filepath.Join(work, "suite")
	if err := writeSuite(suite, pkgs, tests, sleep, logs, lines); err != nil {
		return err
	}
	agentfix := filepath.Join(work, "agentfix")
	if out, err := exec.Command("go", "build", "-o", agentfix, "./cmd/agentfix").CombinedOutput(); err != nil {
		return fmt.Errorf("build agentfix (run from the repository root): %v\n%s", err, out)
	}
	direct := []string{"go", "test", "-count=1", "./..."}
	viaCheck := append([]string{agentfix, "check", "--quiet", "--repo", suite, "--"}, direct...)
	if keep != "" {
		os.RemoveAll(keep)
		if err := os.Rename(work, keep); err != nil {
			return err
		}
		fmt.Printf("suite in %s, agentfix in %s\n", filepath.Join(keep, "suite"), filepath.Join(keep, "agentfix"))
		return nil
	}

	// Warm the build cache so both ways only link and run.
	if _, err := timed(suite, direct); err != nil {
		return err
	}
	directJSON := []string{"go", "test", "-json", "-count=1", "./..."}
	var d, j, c, dcpu, jcpu, ccpu []time.Duration
	for i := 0; i < runs; i++ {
		sd, err := timed(suite, direct)
		if err != nil {
			return err
		}
		sj, err := timed(suite, directJSON)
		if err != nil {
			return err
		}
		sc, err := timed(suite, viaCheck)
		if err != nil {
			return err
		}
		d, j, c = append(d, sd.wall), append(j, sj.wall), append(c, sc.wall)
		dcpu, jcpu, ccpu = append(dcpu, sd.cpu), append(jcpu, sj.cpu), append(ccpu, sc.cpu)
		fmt.Printf("run %d: direct %.2fs (cpu %.2fs), -json %.2fs (cpu %.2fs), agentfix check %.2fs (cpu %.2fs)\n",
			i+1, sd.wall.Seconds(), sd.cpu.Seconds(), sj.wall.Seconds(), sj.cpu.Seconds(), sc.wall.Seconds(), sc.cpu.Seconds())
	}
	md, mj, mc := median(d), median(j), median(c)
	fmt.Printf("\nsuite: %d packages x %d tests (%s each, %d log lines), plus %d lines of output; %d runs each, alternating\n",
		pkgs, tests, sleep, logs, lines, runs)
	fmt.Printf("direct:          %-40s median %.2fs (min %.2fs), cpu %.2fs\n", strings.Join(direct, " "), md.Seconds(), minOf(d).Seconds(), median(dcpu).Seconds())
	fmt.Printf("direct -json:    %-40s median %.2fs (min %.2fs), cpu %.2fs\n", strings.Join(directJSON, " "), mj.Seconds(), minOf(j).Seconds(), median(jcpu).Seconds())
	fmt.Printf("agentfix check:  %-40s median %.2fs (min %.2fs), cpu %.2fs\n", "check --quiet -- "+strings.Join(direct, " "), mc.Seconds(), minOf(c).Seconds(), median(ccpu).Seconds())
	fmt.Printf("overhead over direct: wall %+.1f%% of the median (%+.2fs), min %+.1f%%, cpu %+.2fs; goal <= 5%% wall\n",
		pct(md, mc), (mc - md).Seconds(), pct(minOf(d), minOf(c)), (median(ccpu) - median(dcpu)).Seconds())
	fmt.Printf("of which go test -json itself: wall %+.1f%%, cpu %+.2fs\n", pct(md, mj), (median(jcpu) - median(dcpu)).Seconds())
	return nil
}

// sample is one run: wall time, and CPU time of the process and all its
// descendants (less sensitive than wall time to a busy machine).
type sample struct{ wall, cpu time.Duration }

// timed runs argv in dir. agentfix check exits 1 when the suite fails,
// which the generated suite never does.
func timed(dir string, argv []string) (sample, error) {
	cmd := exec.CommandContext(context.Background(), argv[0], argv[1:]...)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(string(out), 2000))
	}
	return sample{took, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, nil
}

// writeSuite writes a module with pkgs packages of tests tests each, and a
// chatty package printing lines lines.
func writeSuite(dir string, pkgs, tests int, sleep time.Duration, logs, lines int) error {
	files := map[string]string{"go.mod": "module example.com/suite\n\ngo 1.22\n"}
	for p := 0; p < pkgs; p++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n", p)
		for t := 0; t < tests; t++ {
			fmt.Fprintf(&b, "\nfunc TestWork%d(t *testing.T) {\n\tfor i := 0; i < %d; i++ {\n\t\tt.Log(\"step\", i)\n\t}\n\ttime.Sleep(%d)\n}\n", t, logs, sleep)
		}
		files[fmt.Sprintf("p%d/p_test.go", p)] = b.String()
	}
	files["chatty/chatty_test.go"] = fmt.Sprintf(`package chatty

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestChatty(t *testing.T) {
	w := bufio.NewWriter(os.Stdout)
	pad := strings.Repeat("x", 100-len("line 0000000 \n"))
	for i := 0; i < %d; i++ {
		fmt.Fprintf(w, "line %%07d %%s\n", i, pad)
	}
	w.Flush()
}
`, lines)
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func minOf(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = min(m, d)
	}
	return m
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

func pct(base, x time.Duration) float64 {
	return 100 * (x.Seconds() - base.Seconds()) / base.Seconds()
}
