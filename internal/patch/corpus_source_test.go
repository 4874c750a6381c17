package patch

import (
	"bytes"
	"crypto/sha256"
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

// committedDir holds the corpus every run of the suite uses: files written
// for it in several languages, so that every machine runs the same cases.
// Files under its crlf/ directory are given CRLF line endings.
const committedDir = "testdata/corpus"

// committedEdits is how many seeded edits each committed file gets.
const committedEdits = 8

// buildCorpus returns the cases of the committed corpus, or, when
// -corpus.files or -corpus.other asks for it, of a sample of the machine's
// own files (see sampleCorpus).
func buildCorpus(t *testing.T) []*corpusCase {
	t.Helper()
	if *corpusFiles > 0 || *corpusOther > 0 {
		return sampleCorpus(t, *corpusFiles, *corpusOther, *corpusSeed)
	}
	return committedCorpus(t, *corpusSeed)
}

// committedCorpus makes committedEdits random edits of every file under
// committedDir, seeded by seed. Cases go round by round over the files, so
// that neighbouring cases are different files.
func committedCorpus(t *testing.T, seed int64) []*corpusCase {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(committedDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil || len(paths) < 4 {
		t.Fatalf("committed corpus %s: %d files, %v", committedDir, len(paths), err)
	}
	sort.Strings(paths)
	var cases []*corpusCase
	for k := 0; k < committedEdits; k++ {
		for i, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel := filepath.ToSlash(strings.TrimPrefix(p, committedDir+string(filepath.Separator)))
			old := string(b)
			if strings.HasPrefix(rel, "crlf/") {
				old = toCRLF(old)
			}
			rng := rand.New(rand.NewSource(seed*7907 + int64(k*len(paths)+i)))
			cases = append(cases, newCase(t, p, rel, old, rng))
		}
	}
	return cases
}

// sampleCorpus picks n Go files of 60 to 1500 lines from GOROOT/src and
// other files (Python, JavaScript, TypeScript, C, C++, Java, Rust, shell,
// Markdown, YAML) from the module cache, spread over the trees by seed,
// and makes one random edit of one to three places in each. What it finds
// depends on the machine, so it is opt-in, and it logs the seed and a
// digest of the files picked (and with -corpus.list writes their paths)
// so that a run can be replayed.
func sampleCorpus(t *testing.T, n, other int, seed int64) []*corpusCase {
	t.Helper()
	goRoot := filepath.Join(goEnv(t, "GOROOT"), "src")
	cases := pickCases(t, sourceFiles(goRoot, []string{".go"}), n, seed)
	modCache := ""
	if other > 0 {
		modCache = goEnv(t, "GOMODCACHE")
		exts := []string{".py", ".js", ".ts", ".c", ".h", ".cpp", ".cc", ".java", ".rs", ".sh", ".md", ".yml", ".yaml"}
		cases = append(cases, pickCases(t, sourceFiles(modCache, exts), other, seed+1)...)
	}
	if len(cases) == 0 {
		t.Fatalf("no files to sample in %s or %q", goRoot, modCache)
	}
	sum := sha256.New()
	var list strings.Builder
	for _, c := range cases {
		fmt.Fprintf(sum, "%s\x00%x\n", c.src, sha256.Sum256([]byte(c.old)))
		list.WriteString(c.src + "\n")
	}
	t.Logf("sampled corpus: seed %d, %d files from %s (%s) and the module cache %s, digest %x\nreplay: go test ./internal/patch -run '^%s$' -corpus.files=%d -corpus.other=%d -corpus.seed=%d",
		seed, len(cases), goRoot, runtime.Version(), modCache, sum.Sum(nil)[:8], t.Name(), n, other, seed)
	if *corpusList != "" {
		if err := os.WriteFile(*corpusList, []byte(list.String()), 0o644); err != nil {
			t.Fatal(err)
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
	t.Helper()
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
		if l := strings.Count(strings.TrimSuffix(string(b), "\n"), "\n") + 1; l < 60 || l > 1500 {
			continue
		}
		cases = append(cases, newCase(t, p, corpusPath(p), string(b), rng))
	}
	return cases
}

// newCase makes one random edit of old, the content of src, which the
// case's repository holds at rel.
func newCase(t *testing.T, src, rel, old string, rng *rand.Rand) *corpusCase {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	c := &corpusCase{src: src, rel: rel, old: old}
	c.new = editLines(lines, strings.HasSuffix(old, "\n"), rng)
	c.diff = gitDiff(t, c.rel, c.old, c.new)
	return c
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

// goEnv is one variable of `go env`: the go on PATH, whose tree and cache
// the sample is taken from.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}
