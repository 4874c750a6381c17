package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// An issue text must be written from what a user sees: the release's test
// change, the module's exported API, its release notes. checkIssues guards
// it mechanically against leaking the fix: an issue may not name an
// identifier that only the fix's changed code lines show.

// checkIssues checks the issue text of every case (or only the case with
// the given id) and prints the leaks it finds; it fails when there is one.
func checkIssues(cs []Case, only string, out io.Writer) error {
	bad, checked := 0, 0
	for _, c := range cs {
		if (only != "" && c.ID != only) || strings.TrimSpace(c.Issue) == "" {
			continue
		}
		bdir, adir, ch, err := c.trees()
		if err != nil {
			return err
		}
		api, err := declared(bdir, true)
		if err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		own, err := declared(bdir, false)
		if err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		ownAfter, err := declared(adir, false)
		if err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		for n := range ownAfter {
			own[n] = true
		}
		fix, err := fixLines(bdir, adir, ch)
		if err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		checked++
		if l := leaks(c.Issue, fix, testDiff(bdir, adir, ch)+notesDiff(bdir, adir), own, api, ch.codeFiles); len(l) > 0 {
			bad++
			fmt.Fprintf(out, "%-28s names what only the fix shows: %s\n", c.ID, strings.Join(l, ", "))
		}
	}
	fmt.Fprintf(out, "%d issue texts checked, %d name an identifier that only the fix shows\n", checked, bad)
	if bad > 0 {
		return fmt.Errorf("%d issue texts leak the fix: reword them from the test change (go run ./bench/realbugs -show ID)", bad)
	}
	return nil
}

// fixLines is the text of the lines the fix removes or adds in the code
// files it changes, followed by the names of the declarations (functions,
// methods, types, values) of the earlier release that hold its sites: the
// fix names them too, even where its changed lines do not.
func fixLines(before, after string, ch *change) (string, error) {
	var b strings.Builder
	for _, p := range ch.codeFiles {
		out, err := diffFiles(filepath.Join(before, p), filepath.Join(after, p), "-U0")
		if err != nil {
			return "", err
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") {
				continue
			}
			if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
				b.WriteString(l[1:])
				b.WriteByte('\n')
			}
		}
		names, err := enclosingDecls(filepath.Join(before, p), ch.sites, p)
		if err != nil {
			return "", err
		}
		b.WriteString(strings.Join(names, "\n"))
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// enclosingDecls names the top-level declarations of the Go file at path
// (the module file rel) that hold one of the sites.
func enclosingDecls(path string, sites []Site, rel string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range f.Decls {
		from, to := fset.Position(d.Pos()).Line, fset.Position(d.End()).Line
		held := false
		for _, s := range sites {
			if s.File == rel && s.Start <= to && s.End >= from {
				held = true
			}
		}
		if !held {
			continue
		}
		switch d := d.(type) {
		case *ast.FuncDecl:
			out = append(out, d.Name.Name)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					out = append(out, sp.Name.Name)
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						out = append(out, id.Name)
					}
				}
			}
		}
	}
	return out, nil
}

// leaks lists (sorted) what issue names that only the fix shows: the
// identifiers it names as code (issueNames) that fix has as Go
// identifiers, that the module declares (own: names that locate code, not
// local variables or the standard library's) and that neither seen (the
// test change and release notes, any word in them) nor the exported API
// (api) has; and the base names of the changed files (files) it writes
// that seen does not.
func leaks(issue, fix, seen string, own, api map[string]bool, files []string) []string {
	fixIDs := goIdents(fix)
	seenWords := map[string]bool{}
	for _, w := range reWord.FindAllString(seen, -1) {
		seenWords[w] = true
	}
	found := map[string]bool{}
	for _, w := range issueNames(issue) {
		if fixIDs[w] && own[w] && !seenWords[w] && !api[w] && !predeclared[w] {
			found[w] = true
		}
	}
	for _, f := range files {
		if base := f[strings.LastIndexByte(f, '/')+1:]; strings.Contains(issue, base) && !strings.Contains(seen, base) {
			found[base] = true
		}
	}
	out := make([]string, 0, len(found))
	for w := range found {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

var (
	reWord     = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	reCodeSpan = regexp.MustCompile("`[^`\n]*`")
	rePlain    = regexp.MustCompile(`^[a-z]+$`)
)

// issueNames lists the words of an issue text that it names as code: the
// Go identifiers of its snippets (fenced or indented lines; what their
// comments and strings say is output, read as prose), every word in
// backquotes, and the words of its prose that are not plain lower-case
// words.
func issueNames(issue string) []string {
	var out []string
	fenced := false
	for _, l := range strings.Split(issue, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if fenced || strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") {
			for w := range goIdents(l) {
				out = append(out, w)
			}
			continue
		}
		for _, span := range reCodeSpan.FindAllString(l, -1) {
			out = append(out, reWord.FindAllString(span, -1)...)
		}
		for _, w := range reWord.FindAllString(reCodeSpan.ReplaceAllString(l, " "), -1) {
			if !rePlain.MatchString(w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// goIdents is the set of Go identifiers in src, a run of code lines (they
// need not parse): comments and literals are skipped.
func goIdents(src string) map[string]bool {
	fset := token.NewFileSet()
	f := fset.AddFile("fix", -1, len(src))
	var s scanner.Scanner
	s.Init(f, []byte(src), func(token.Position, string) {}, 0)
	out := map[string]bool{}
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT {
			out[lit] = true
		}
	}
}

// predeclared are Go's keywords and predeclared identifiers: naming them
// says nothing about a fix.
var predeclared = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64
		int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr
		true false iota nil append cap clear close complex copy delete imag len make max min new panic print println real recover`) {
		m[w] = true
	}
	for t := token.BREAK; t <= token.VAR; t++ {
		if t.IsKeyword() {
			m[t.String()] = true
		}
	}
	return m
}()

// declared is the set of names the module at dir declares outside
// function bodies: package names, functions, methods, types, fields,
// interface methods, variables and constants, in its non-test Go files
// (outside testdata and vendor directories). With api, only what a user
// can name: exported names, outside internal directories.
func declared(dir string, api bool) (map[string]bool, error) {
	names := map[string]bool{}
	keep := func(id *ast.Ident) {
		if !api || id.IsExported() {
			names[id.Name] = true
		}
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "vendor" || (api && n == "internal") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil // a file that does not parse declares nothing
		}
		names[f.Name.Name] = true
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				keep(fd.Name)
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.TypeSpec:
					keep(n.Name)
				case *ast.ValueSpec:
					for _, id := range n.Names {
						keep(id)
					}
				case *ast.Field:
					for _, id := range n.Names {
						keep(id)
					}
				}
				return true
			})
		}
		return nil
	})
	return names, err
}
