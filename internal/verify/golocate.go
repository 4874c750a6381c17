package verify

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// goLocator turns the file names go prints into paths relative to the
// directory the command ran in.
type goLocator struct {
	root string  // Options.Dir, absolute
	mods []goMod // the modules go may have tested, the longest path first
	// below: look for the modules below root when no other holds a
	// package (newGoLocator's; a locator of a runner that is not go's
	// has no modules to find).
	below bool
}

// goMod is a module: the directory of its go.mod, and its path.
type goMod struct{ dir, path string }

// SkippedDir reports whether a directory named name holds no project of
// the repository's own: the go command leaves testdata and names starting
// with . or _ out of ./..., and vendor and node_modules hold other
// people's code.
func SkippedDir(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules"
}

// maxModuleDirs bounds the directories looked through for modules below
// root.
const maxModuleDirs = 20000

func newGoLocator(root string) *goLocator {
	l := &goLocator{root: root, below: true}
	// The nearest go.mod at or above root: go test ./... from root.
	for dir := root; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if p := modulePath(data); p != "" {
				l.mods = append(l.mods, goMod{dir, p})
			}
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return l
}

// walk adds the modules below root, where the go command would see them
// (not under a SkippedDir): go -C DIR test ./... tests a module in go/, or one nested in
// server/ whose path is not its directory's.
func (l *goLocator) walk() {
	l.below = false
	seen := 0
	_ = filepath.WalkDir(l.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == l.root {
			return nil
		}
		if seen++; seen > maxModuleDirs {
			return fs.SkipAll
		}
		if SkippedDir(d.Name()) {
			return fs.SkipDir
		}
		if data, err := os.ReadFile(filepath.Join(p, "go.mod")); err == nil {
			if mp := modulePath(data); mp != "" {
				l.mods = append(l.mods, goMod{p, mp})
			}
		}
		return nil
	})
	sort.SliceStable(l.mods, func(a, b int) bool { return len(l.mods[a].path) > len(l.mods[b].path) })
}

// module is the module holding import path pkg (a package's, or a trimmed
// file's "example.com/m/pkg/f.go"), and the rest of pkg past its path.
// The modules below root are looked for when no other holds pkg.
func (l *goLocator) module(pkg string) (goMod, string, bool) {
	for _, m := range l.mods {
		if pkg == m.path {
			return m, "", true
		}
		if rest, ok := strings.CutPrefix(pkg, m.path+"/"); ok {
			return m, rest, true
		}
	}
	if l.below {
		l.walk()
		return l.module(pkg)
	}
	return goMod{}, "", false
}

// modulePath reads the module directive of a go.mod.
func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(strings.NewReader(string(gomod)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

var (
	// goTestLine is the location testing prints before t.Error output.
	goTestLine = regexp.MustCompile(`(?m)^\s+([\w.\-]+\.go):(\d+): `)
	// goFrame is a file line of a goroutine stack trace.
	goFrame = regexp.MustCompile(`(?m)^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
	// goCompileLine is a compiler or vet diagnostic.
	goCompileLine = regexp.MustCompile(`(?m)^(?:vet: )?(\S+\.go):(\d+)(?::\d+)?: (.*)$`)
)

// testLocation finds where a test failed: the first stack frame inside the
// repository for a panic, else the last file:line testing printed.
func (l *goLocator) testLocation(pkg, out string) (string, int) {
	if strings.Contains(out, "panic: ") || strings.Contains(out, "fatal error: ") {
		for _, m := range goFrame.FindAllStringSubmatch(out, -1) {
			if rel, ok := l.frameFile(m[1]); ok {
				line, _ := strconv.Atoi(m[2])
				return rel, line
			}
		}
	}
	// The last location testing printed: t.Log lines come before the
	// error, and t.Fatal ends the test.
	if ms := goTestLine.FindAllStringSubmatch(out, -1); ms != nil {
		m := ms[len(ms)-1]
		line, _ := strconv.Atoi(m[2])
		return l.pkgFile(pkg, m[1]), line
	}
	return "", 0
}

// pkgFile resolves a base name testing printed to a path relative to root,
// through the package's directory in the module.
func (l *goLocator) pkgFile(pkg, name string) string {
	m, rest, ok := l.module(pkg)
	if !ok {
		return name
	}
	dir := filepath.Join(m.dir, filepath.FromSlash(rest))
	abs := filepath.Join(dir, name)
	if _, err := os.Stat(abs); err != nil {
		return name
	}
	if rel, ok := l.inside(abs); ok {
		return rel
	}
	return name
}

// frameFile is the path relative to root of a stack frame's file, when it
// lies inside root. go prints an absolute path, or, built with -trimpath
// (GOFLAGS=-trimpath is common in CI), the module path and the file's
// path in the module: "example.com/m/pkg/f.go". A trimmed frame of the
// standard library ("runtime/panic.go") or of another module is outside.
func (l *goLocator) frameFile(path string) (string, bool) {
	if filepath.IsAbs(path) {
		return l.inside(path)
	}
	m, rest, ok := l.module(path)
	if !ok || rest == "" {
		return "", false
	}
	return l.inside(filepath.Join(m.dir, filepath.FromSlash(rest)))
}

// inside returns path relative to root (slash-separated) when it lies
// inside root; relative paths are taken relative to root.
func (l *goLocator) inside(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.root, path)
	}
	rel, err := filepath.Rel(l.root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// goCompileFailures parses compiler and vet output (go build, go vet, or
// the build-output of go test): one failure per package header ("# pkg"),
// located at its first diagnostic inside root.
func goCompileFailures(out, root string) []Failure {
	l := &goLocator{root: root}
	var fs []Failure
	var cur *Failure
	var body strings.Builder
	flush := func() {
		if cur != nil {
			cur.Output = body.String()
			fs = append(fs, *cur)
		}
		cur, body = nil, strings.Builder{}
	}
	for _, line := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(line, "# ") {
			pkg := strings.Trim(importPathOnly(strings.TrimSpace(strings.TrimPrefix(line, "# "))), "[]")
			if cur != nil && cur.Package == pkg {
				continue // "# pkg" then "# [pkg]" from vet
			}
			flush()
			cur = &Failure{Package: pkg}
			body.WriteString(line)
			continue
		}
		if cur == nil && goCompileLine.MatchString(line) {
			cur = &Failure{}
		}
		if cur == nil {
			continue
		}
		body.WriteString(line)
		if cur.File == "" {
			if m := goCompileLine.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
				if rel, ok := l.inside(m[1]); ok {
					cur.File = rel
					cur.Line, _ = strconv.Atoi(m[2])
				}
			}
		}
	}
	flush()
	return fs
}

// goStackFrame is one frame of a goroutine trace: the function line and
// the tab-indented file line under it.
var goStackFrame = regexp.MustCompile(`(?m)^(?:created by )?\S.*\n\t(\S+\.go):\d+(?: \+0x[0-9a-f]+)?\n`)

// trimTrace shortens the goroutine traces in out to the frames inside the
// repository, with their paths relative to it: the runtime's and testing's
// frames say nothing about the bug and cost a model tokens.
func (l *goLocator) trimTrace(out string) string {
	if !strings.Contains(out, "goroutine ") {
		return out
	}
	dropped := 0
	out = goStackFrame.ReplaceAllStringFunc(out, func(frame string) string {
		m := goStackFrame.FindStringSubmatch(frame)
		if rel, ok := l.frameFile(m[1]); ok {
			return strings.Replace(frame, "\t"+m[1]+":", "\t"+rel+":", 1)
		}
		dropped++
		return ""
	})
	out = strings.ReplaceAll(out, l.root+string(filepath.Separator), "")
	if dropped > 0 {
		out = strings.TrimRight(out, "\n") + fmt.Sprintf("\n(agentfix: %d stack frames outside the repository left out)\n", dropped)
	}
	return out
}
