package patch

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The corpus takes files, makes seeded random edits, renders each edit in
// every sloppy style a model writes, and checks that Apply produces exactly
// the intended file or refuses, and that its normalised diff re-applies.
// By default the files are the ones committed under testdata/corpus, so
// the suite's input is the same on every machine. Sampling real files
// (Go from GOROOT/src, other languages from the module cache) is opt-in;
// with -corpus.report every reply also goes through git apply --recount:
//
//	go test ./internal/patch -run 'TestCorpus$' -corpus.files=400 -corpus.other=400 -corpus.report -v
var (
	corpusFiles  = flag.Int("corpus.files", 0, "sample this many Go files from GOROOT instead of the committed corpus")
	corpusOther  = flag.Int("corpus.other", 0, "sample this many non-Go files from the module cache instead of the committed corpus")
	corpusSeed   = flag.Int64("corpus.seed", 1, "seed of the files sampled and of the edits made")
	corpusList   = flag.String("corpus.list", "", "write the paths of the sampled files to this file")
	corpusOnly   = flag.String("corpus.only", "", "run only the cases whose path contains this text (debugging)")
	corpusReport = flag.Bool("corpus.report", false, "print figures by file type and compare with git apply --recount")
)

// corpusCase is one intended edit of one file.
type corpusCase struct {
	src      string // where the file came from
	rel      string // path in the repository
	old, new string
	diff     string // git diff of the edit (a/ b/, 3 lines of context)
	rng      *rand.Rand
}

// style renders a case as a model reply; the bool says whether the repo
// file should have CRLF line endings.
type style struct {
	name   string
	render func(c *corpusCase) (reply string, crlfFile bool)
}

func TestCorpus(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cases := buildCorpus(t)
	type tally struct{ n, exact, refused, wrong, gitExact, gitWrong, bodyExact, bodyWrong int }
	results := map[string]*tally{}
	byLang := map[string]*tally{}
	langOf := func(rel string) *tally {
		ext := path.Ext(rel)
		if byLang[ext] == nil {
			byLang[ext] = &tally{}
		}
		return byLang[ext]
	}
	var names []string
	for _, st := range corpusStyles() {
		names = append(names, st.name)
		tl := &tally{}
		results[st.name] = tl
		for i, c := range cases {
			if !strings.Contains(c.rel, *corpusOnly) {
				continue
			}
			c.rng = rand.New(rand.NewSource(int64(i)*7919 + int64(len(st.name)) + (*corpusSeed-1)*104729))
			reply, crlf := st.render(c)
			if reply == "" {
				continue // style not applicable (whole-file blocks for long files)
			}
			if crlf && strings.Contains(c.old, "\r") {
				continue // already CRLF
			}
			tl.n++
			lt := langOf(c.rel)
			lt.n++
			oldContent, want := c.old, c.new
			if crlf {
				oldContent, want = toCRLF(oldContent), toCRLF(want)
			}
			dir := t.TempDir()
			writeTestFile(t, dir, c.rel, oldContent)
			res, err := Apply(dir, reply, Policy{}, Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", st.name, c.rel, err)
			}
			got := readTestFile(t, dir, c.rel)
			switch {
			case !res.Applied:
				tl.refused++
				lt.refused++
				if got != oldContent {
					t.Errorf("%s %s: refused but the file changed", st.name, c.rel)
				}
				if testing.Verbose() && !*corpusReport {
					t.Logf("%s %s refused: %v", st.name, c.rel, res.Errors)
				}
			case got == want:
				tl.exact++
				lt.exact++
				checkReplay(t, st.name, c.rel, oldContent, want, res.Diff)
			default:
				tl.wrong++
				lt.wrong++
				t.Errorf("%s %s: WRONG application (of %s)\nreply:\n%s\ndiff:\n%s\nwanted:\n%s", st.name, c.rel, c.src, reply, res.Diff, gitDiff(t, c.rel, oldContent, want))
			}
			if *corpusReport {
				switch gitApply(t, c.rel, oldContent, reply) {
				case want:
					tl.gitExact++
				case oldContent, "":
				default:
					tl.gitWrong++
				}
				switch gitApply(t, c.rel, oldContent, fenceBodies(reply)) {
				case want:
					tl.bodyExact++
				case oldContent, "":
				default:
					tl.bodyWrong++
				}
			}
		}
	}
	var total tally
	var b strings.Builder
	fmt.Fprintf(&b, "%-25s %-24s | %-15s | %s\n", "", "Apply", "git apply", "git apply on")
	fmt.Fprintf(&b, "%-25s %-24s | %-15s | %s\n", "", "", "--recount", "fence bodies")
	fmt.Fprintf(&b, "%-18s %6s %8s %8s %6s | %8s %6s | %8s %6s\n", "style", "cases", "exact %", "refused", "wrong", "exact %", "wrong", "exact %", "wrong")
	row := func(n string, tl *tally) {
		fmt.Fprintf(&b, "%-18s %6d %8.1f %8d %6d | %8.1f %6d | %8.1f %6d\n", n, tl.n, pct(tl.exact, tl.n), tl.refused, tl.wrong, pct(tl.gitExact, tl.n), tl.gitWrong, pct(tl.bodyExact, tl.n), tl.bodyWrong)
	}
	for _, n := range names {
		tl := results[n]
		total.n += tl.n
		total.exact += tl.exact
		total.refused += tl.refused
		total.wrong += tl.wrong
		total.gitExact += tl.gitExact
		total.gitWrong += tl.gitWrong
		total.bodyExact += tl.bodyExact
		total.bodyWrong += tl.bodyWrong
		row(n, tl)
	}
	row("all", &total)
	var exts []string
	for e := range byLang {
		exts = append(exts, e)
	}
	sort.Strings(exts)
	b.WriteString("\nby file type (all styles):\n")
	for _, e := range exts {
		l := byLang[e]
		fmt.Fprintf(&b, "%-8s %6d cases %6.1f%% exact %4d refused %2d wrong\n", e, l.n, pct(l.exact, l.n), l.refused, l.wrong)
	}
	if !*corpusReport {
		b.WriteString("(the git apply columns need -corpus.report)\n")
	}
	t.Logf("patch corpus: %d cases:\n%s", len(cases), b.String())
	// The goal holds over a corpus large enough to mean something; a
	// handful of files with duplicated code would swing a small one.
	if p := pct(total.exact, total.n); len(cases) >= 40 && p < 97 {
		t.Errorf("applied exactly right: %.1f%%, want at least 97%%\n%s", p, b.String())
	}
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

// checkReplay applies the normalised diff again, with Apply and git apply,
// to the original file: both must give the intended content.
func checkReplay(t *testing.T, styleName, rel, old, want, diff string) {
	t.Helper()
	dir := t.TempDir()
	writeTestFile(t, dir, rel, old)
	res, err := Apply(dir, diff, Policy{}, Options{})
	if err != nil || !res.Applied {
		t.Errorf("%s %s: the normalised diff does not re-apply: %v %v\n%s", styleName, rel, err, res.Errors, diff)
		return
	}
	if got := readTestFile(t, dir, rel); got != want {
		t.Errorf("%s %s: the normalised diff re-applies to different content\n%s", styleName, rel, diff)
	}
	if res.Diff != diff {
		t.Errorf("%s %s: normalising the normalised diff changed it\nfirst:\n%s\nsecond:\n%s", styleName, rel, diff, res.Diff)
	}
	if *corpusReport {
		if got := gitApply(t, rel, old, diff); got != want {
			t.Errorf("%s %s: git apply does not accept the normalised diff\n%s", styleName, rel, diff)
		}
	}
}

// gitApply runs git apply --recount on reply in a fresh directory holding
// rel and returns rel's content afterwards ("" if git refused).
func gitApply(t *testing.T, rel, old, reply string) string {
	t.Helper()
	dir := t.TempDir()
	writeTestFile(t, dir, rel, old)
	cmd := exec.Command("git", "apply", "--recount", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(reply)
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	if err := cmd.Run(); err != nil {
		return ""
	}
	return readTestFile(t, dir, rel)
}

// fenceBodies is what a caller that strips markdown would hand git: the
// inside of every fenced block, or the whole reply if it has none.
func fenceBodies(reply string) string {
	var b strings.Builder
	for _, bl := range splitBlocks(reply) {
		if bl.fenced {
			b.WriteString(strings.Join(bl.lines, "\n") + "\n")
		}
	}
	if b.Len() == 0 {
		return reply
	}
	return b.String()
}

func writeTestFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return ""
	}
	return string(b)
}

func toCRLF(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// gitDiff is git's own diff of the edit, with a/ and b/ prefixes.
func gitDiff(t *testing.T, rel, old, new string) string {
	t.Helper()
	dir := t.TempDir()
	writeTestFile(t, dir, "o/"+rel, old)
	writeTestFile(t, dir, "n/"+rel, new)
	cmd := exec.Command("git", "diff", "--no-index", "--no-color", "-U3", "o/"+rel, "n/"+rel)
	cmd.Dir = dir
	out, _ := cmd.Output() // exit 1 means "differs"
	s := string(out)
	s = strings.ReplaceAll(s, "a/o/"+rel, "a/"+rel)
	s = strings.ReplaceAll(s, "b/n/"+rel, "b/"+rel)
	if s == "" {
		t.Fatalf("git diff of %s is empty", rel)
	}
	return s
}
