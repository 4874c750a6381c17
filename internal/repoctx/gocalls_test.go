package repoctx

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"testing"
)

// TestAssumedName: the package name an import path suggests.
func TestAssumedName(t *testing.T) {
	for path, want := range map[string]string{
		"strings":                         "strings",
		"example.com/calc/internal/round": "round",
		"github.com/go-chi/chi/v5":        "chi",
		"github.com/pelletier/go-toml/v2": "toml",
		"gopkg.in/yaml.v3":                "yaml",
		"github.com/mattn/go-runewidth":   "runewidth",
		"example.com/v2":                  "example",
		"v2":                              "v2",
		"example.com/version":             "version",
	} {
		if got := assumedName(path); got != want {
			t.Errorf("assumedName(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestDryCalls: the calls handed none of the function's inputs, directly
// or through a variable assigned from them.
func TestDryCalls(t *testing.T) {
	src := `package p

func (r *R) F(a string, b []int) {
	setup()
	x := strings.TrimSpace(a)
	use(x)
	for _, v := range b {
		each(v)
	}
	r.own()
	log(42)
	n := count()
	report(n)
	mixed(1)
	mixed(a)
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(dryCalls(f.Decls[0].(*ast.FuncDecl))))
	want := []string{"count", "log", "report", "setup"}
	if !slices.Equal(got, want) {
		t.Errorf("dryCalls = %v, want %v", got, want)
	}
}
