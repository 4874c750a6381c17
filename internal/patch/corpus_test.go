package patch

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// The corpus takes real files from GOROOT/src, makes random edits, renders
// each edit in every sloppy style a model writes, and checks that Apply
// produces exactly the intended file or refuses. With -corpus.report it
// also runs every reply through git apply --recount and prints a table:
//
//	go test ./internal/patch -run TestCorpus -corpus.files=120 -corpus.report -v
var (
	corpusFiles  = flag.Int("corpus.files", 12, "number of GOROOT files in the patch corpus")
	corpusOther  = flag.Int("corpus.other", 12, "number of non-Go files from the module cache in the patch corpus")
	corpusReport = flag.Bool("corpus.report", false, "print per-style figures and compare with git apply --recount")
)

// corpusCase is one intended edit of one real file.
type corpusCase struct {
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
	cases := buildCorpus(t, *corpusFiles, *corpusOther)
	type tally struct{ n, exact, refused, wrong, gitExact, gitWrong, bodyExact, bodyWrong int }
	results := map[string]*tally{}
	var names []string
	for _, st := range corpusStyles() {
		names = append(names, st.name)
		tl := &tally{}
		results[st.name] = tl
		for i, c := range cases {
			c.rng = rand.New(rand.NewSource(int64(i)*7919 + int64(len(st.name))))
			reply, crlf := st.render(c)
			if reply == "" {
				continue // style not applicable (whole-file blocks for long files)
			}
			if crlf && strings.Contains(c.old, "\r") {
				continue // already CRLF
			}
			tl.n++
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
				if got != oldContent {
					t.Errorf("%s %s: refused but the file changed", st.name, c.rel)
				}
				if testing.Verbose() && !*corpusReport {
					t.Logf("%s %s refused: %v", st.name, c.rel, res.Errors)
				}
			case got == want:
				tl.exact++
				checkReplay(t, st.name, c.rel, oldContent, want, res.Diff)
			default:
				tl.wrong++
				t.Errorf("%s %s: WRONG application\nreply:\n%s\ndiff:\n%s", st.name, c.rel, reply, res.Diff)
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
	fmt.Fprintf(&b, "%-18s %6s %8s %8s %6s | %8s %6s | %8s %6s\n", "", "", "Apply", "", "", "git apply --recount", "", "  on fence bodies", "")
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
	if *corpusReport {
		t.Logf("patch corpus, %d GOROOT files (%s):\n%s", len(cases), runtime.Version(), b.String())
	}
	// The goal holds over a corpus large enough to mean something; a
	// handful of files with duplicated code would swing a small one.
	if p := pct(total.exact, total.n); *corpusFiles >= 50 && p < 97 {
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

// buildCorpus picks n Go files of 60 to 1500 lines from GOROOT/src and
// other files (Python, JavaScript, TypeScript, C, C++, Java, Rust, shell,
// Markdown, YAML) from the module cache, spread over the trees, and makes
// one random edit of one to three places in each. Files keep their own
// line endings and final-newline state.
func buildCorpus(t *testing.T, n, other int) []*corpusCase {
	t.Helper()
	goFiles := sourceFiles(filepath.Join(runtime.GOROOT(), "src"), []string{".go"})
	if len(goFiles) == 0 {
		t.Skip("no GOROOT sources")
	}
	cases := pickCases(t, goFiles, n, 1)
	if other > 0 {
		if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
			exts := []string{".py", ".js", ".ts", ".c", ".h", ".cpp", ".cc", ".java", ".rs", ".sh", ".md", ".yml", ".yaml"}
			cases = append(cases, pickCases(t, sourceFiles(strings.TrimSpace(string(out)), exts), other, 2)...)
		}
	}
	return cases
}

// sourceFiles lists the files under root with one of exts, sorted.
func sourceFiles(root string, exts []string) []string {
	var all []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor" || d.Name() == "cache") {
			return filepath.SkipDir
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) && !strings.HasSuffix(p, "_test.go") && d.Type().IsRegular() {
				all = append(all, p)
			}
		}
		return nil
	})
	sort.Strings(all)
	return all
}

// pickCases takes n files of 60 to 1500 text lines from all, in an order
// shuffled by seed, and edits each.
func pickCases(t *testing.T, all []string, n int, seed int64) []*corpusCase {
	rng := rand.New(rand.NewSource(seed))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	var cases []*corpusCase
	for _, p := range all {
		if len(cases) == n {
			break
		}
		b, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
			continue
		}
		old := string(b)
		lines := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
		if len(lines) < 60 || len(lines) > 1500 {
			continue
		}
		c := &corpusCase{rel: corpusPath(p), old: old}
		c.new = editLines(lines, strings.HasSuffix(old, "\n"), rng)
		c.diff = gitDiff(t, c.rel, c.old, c.new)
		cases = append(cases, c)
	}
	return cases
}

// corpusPath is where a picked file lives in the test repository: its last
// three path elements, which keeps real directory structure.
func corpusPath(p string) string {
	parts := strings.Split(filepath.ToSlash(p), "/")
	if len(parts) > 3 {
		parts = parts[len(parts)-3:]
	}
	return strings.ReplaceAll(strings.Join(parts, "/"), "@", "_")
}

// editLines changes one to three places of lines: replaces, inserts or
// deletes one to three lines at each.
func editLines(lines []string, finalNL bool, rng *rand.Rand) string {
	sites := 1 + rng.Intn(3)
	var at []int
	for len(at) < sites {
		p := rng.Intn(len(lines) - 4)
		ok := true
		for _, q := range at {
			if p > q-12 && p < q+12 {
				ok = false
			}
		}
		if ok {
			at = append(at, p)
		}
	}
	sort.Ints(at)
	eol := ""
	if (text{lines: lines}).crlf() {
		eol = "\r"
	}
	var out []string
	cur := 0
	for k, p := range at {
		out = append(out, lines[cur:p]...)
		n := 1 + rng.Intn(3)
		switch rng.Intn(3) {
		case 0: // replace
			for i := 0; i < n; i++ {
				out = append(out, changedLine(lines[p+i], k, i))
			}
			cur = p + n
		case 1: // insert
			for i := 0; i < n; i++ {
				out = append(out, fmt.Sprintf("\t// agentfix: inserted line %d.%d", k, i)+eol)
			}
			cur = p
		case 2: // delete
			cur = p + n
		}
	}
	out = append(out, lines[cur:]...)
	if !finalNL {
		return strings.Join(out, "\n")
	}
	return strings.Join(out, "\n") + "\n"
}

func changedLine(l string, k, i int) string {
	body, cr := strings.CutSuffix(l, "\r")
	if strings.TrimSpace(body) == "" {
		body = fmt.Sprintf("// agentfix: was blank %d.%d", k, i)
	} else {
		body += fmt.Sprintf(" // agentfix: changed %d.%d", k, i)
	}
	if cr {
		body += "\r"
	}
	return body
}

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
