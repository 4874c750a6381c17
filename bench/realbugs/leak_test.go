package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A bug report that names the helper the fix changed, or the file it is
// in, leaks the fix; naming the API the user called, what the test change
// shows, a local variable or what a snippet's comment prints does not.
func TestLeaks(t *testing.T) {
	fix := `	if len(path) == 0 || splitKey(path) {
		return "", errEmptyPath
	}
parseObjectPath
Get
	s = escape(trimDecimal(s))
`
	own := map[string]bool{"Get": true, "Parse": true, "splitKey": true, "errEmptyPath": true, "parseObjectPath": true, "Result": true, "trimDecimal": true, "escape": true}
	api := map[string]bool{"Get": true, "Parse": true, "Result": true}
	seen := "+func TestIssue77(t *testing.T) {\n+\tParse(`{}`)\n+\tc.Assert(trimDecimal(\"10.0\"), qt.Equals, \"10\")\n"
	files := []string{"gjson.go", "sub/util.go"}

	tests := []struct {
		name  string
		issue string
		want  []string
	}{
		{"the API called", "`gjson.Get(json, \"a.b\")` returns nothing; same with Parse.", nil},
		{"a helper in backquotes", "Probably `splitKey` is wrong.", []string{"splitKey"}},
		{"a helper in prose", "I think parseObjectPath drops the flag.", []string{"parseObjectPath"}},
		{"a helper in a snippet", "```go\nerr := errEmptyPath\n```", []string{"errEmptyPath"}},
		{"a snippet's comment and string are output", "```go\nv := gjson.Get(j, \"errEmptyPath\") // splitKey\n```", nil},
		{"indented snippet", "    x := splitKey(p)", []string{"splitKey"}},
		{"plain words of prose", "we escape the path, then it is empty", nil},
		{"the changed file", "see util.go line 30", []string{"util.go"}},
		{"a name the test change shows", "TestIssue77 fails: `trimDecimal(\".5\")` gives \"\"", nil},
		{"a local variable in a snippet", "```go\npath := \"\"\ns := gjson.Get(j, path)\n```", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := leaks(tt.issue, fix, seen, own, api, files)
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("leaks(%q) = %v, want %v", tt.issue, got, tt.want)
			}
		})
	}
}

func TestDeclared(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib.go", `package lib

type Options struct {
	Strict bool
	depth  int
}

func (o *Options) Apply() { local := 1; _ = local }
func helper() {}

const Version = "1"
var cache = map[string]int{}
`)
	write("internal/deep/deep.go", "package deep\n\nfunc Exported() {}\n")
	write("lib_test.go", "package lib\n\nfunc TestOnly() {}\n")

	api, err := declared(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	own, err := declared(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"lib", "Options", "Strict", "Apply", "Version"} {
		if !api[n] {
			t.Errorf("api lacks %s", n)
		}
	}
	for _, n := range []string{"depth", "helper", "cache", "Exported", "deep", "TestOnly", "local"} {
		if api[n] {
			t.Errorf("api has %s", n)
		}
	}
	for _, n := range []string{"depth", "helper", "cache", "Exported", "Options"} {
		if !own[n] {
			t.Errorf("own lacks %s", n)
		}
	}
	for _, n := range []string{"local", "TestOnly"} {
		if own[n] {
			t.Errorf("own has %s: a local variable or a test's name locates no fix", n)
		}
	}
}

func TestEnclosingDecls(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.go")
	src := "package x\n\nfunc a() {\n\t_ = 1\n}\n\nfunc b() {\n\t_ = 2\n}\n\nvar table = []int{\n\t1,\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := enclosingDecls(p, []Site{{File: "x.go", Start: 8, End: 8}, {File: "x.go", Start: 12, End: 12}, {File: "y.go", Start: 4, End: 4}}, "x.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b", "table"}; !reflect.DeepEqual(got, want) {
		t.Errorf("enclosingDecls = %v, want %v", got, want)
	}
}
