package patch

import (
	"bytes"
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
