package repoctx

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// TestBuildFollowsCallsIntoTheModulesOtherPackages: the failing test calls
// its package's Total, which calls round.Half of another package of the
// module; the fix is there, in a big file of look-alike functions whose
// names the failure never says. It is packed because a call pkg.F()
// through an import of the module is followed into that package: an
// internal package, and the root of a module whose path ends in a major
// version (example.com/go-round/v2, package round), which the call names
// as goimports assumes it, not by the path's last element.
func TestBuildFollowsCallsIntoTheModulesOtherPackages(t *testing.T) {
	big := lookAlikes("round", "Step", "// Half halves the total.\nfunc Half(total int) int {\n\treturn total/2 - 1 // the bug\n}\n")
	for _, c := range []struct{ module, round, imp string }{
		{"example.com/calc", "internal/round/round.go", "example.com/calc/internal/round"},
		{"example.com/go-round/v2", "round.go", "example.com/go-round/v2"},
	} {
		t.Run(c.imp, func(t *testing.T) {
			repo := newRepo(t, map[string]string{
				"go.mod":            "module " + c.module + "\n",
				c.round:             big,
				"calc/calc.go":      "package calc\n\nimport \"" + c.imp + "\"\n\n// Total sums values and halves the sum.\nfunc Total(values []int) int {\n\tn := 0\n\tfor _, v := range values {\n\t\tn += v\n\t}\n\treturn round.Half(n)\n}\n",
				"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{4, 2}); got != 3 {\n\t\tt.Errorf(\"Total = %d, want 3\", got)\n\t}\n}\n",
			})
			failing := "--- FAIL: TestTotal (0.00s)\n    calc_test.go:7: Total = 2, want 3\nFAIL\nFAIL\t" + c.module + "/calc\t0.002s\n"
			mustPackFunc(t, build(t, repo, failing, 2048), c.round, big, "Half")
		})
	}
}

// TestBuildFollowsCallsIntoAModuleOutsideTheRoot: as
// TestBuildFollowsCallsIntoTheModulesOtherPackages, where the failing
// package's module is not the one at the repository's root: a repository
// whose module lives in a directory (no go.mod at the root), and one with
// a module nested in it whose path is not the root's path and the
// directory (go.etcd.io/etcd/v3 at the root, go.etcd.io/etcd/server/v3 in
// server/). The import resolves to the nested module's directory.
func TestBuildFollowsCallsIntoAModuleOutsideTheRoot(t *testing.T) {
	big := lookAlikes("round", "Step", "// Half halves the total.\nfunc Half(total int) int {\n\treturn total/2 - 1 // the bug\n}\n")
	for _, c := range []struct {
		name string
		mods map[string]string // go.mod files by path
	}{
		{"module in a directory", map[string]string{"server/go.mod": "module example.com/server/v3\n\ngo 1.22\n"}},
		{"nested module", map[string]string{
			"go.mod":        "module example.com/app/v3\n",
			"server/go.mod": "// The server, a module of its own.\nmodule \"example.com/app/server/v3\" // since v3.5\n",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mp := modulePath([]byte(c.mods["server/go.mod"]))
			files := map[string]string{
				"server/internal/round/round.go": big,
				"server/calc/calc.go":            "package calc\n\nimport \"" + mp + "/internal/round\"\n\n// Total sums values and halves the sum.\nfunc Total(values []int) int {\n\tn := 0\n\tfor _, v := range values {\n\t\tn += v\n\t}\n\treturn round.Half(n)\n}\n",
				"server/calc/calc_test.go":       "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{4, 2}); got != 3 {\n\t\tt.Errorf(\"Total = %d, want 3\", got)\n\t}\n}\n",
			}
			maps.Copy(files, c.mods)
			repo := newRepo(t, files)
			failing := "--- FAIL: TestTotal (0.00s)\n    calc_test.go:7: Total = 2, want 3\nFAIL\nFAIL\t" + mp + "/calc\t0.002s\n"
			mustPackFunc(t, build(t, repo, failing, 2048), "server/internal/round/round.go", big, "Half")
		})
	}
}

// TestGoModules: an import path resolves to a directory only inside one
// of the repository's modules, the innermost that holds it, and not by a
// mere shared prefix; go.mod files the go command ignores declare none.
func TestGoModules(t *testing.T) {
	repo := newRepo(t, map[string]string{
		"go.mod":              "module example.com/calc\n",
		"v2/go.mod":           "module example.com/calc/v2\n",
		"tools/go.mod":        "module \"example.com/calctools\"\n",
		"lib/go.mod":          "module example.com/calc/library // in lib/\n",
		"testdata/mod/go.mod": "module example.com/fixture\n",
		"_old/go.mod":         "module example.com/old\n",
		"lib/internal/x/x.go": "package x\n",
		"tools/gen/gen.go":    "package main\n",
		"internal/round/r.go": "package round\n",
	})
	r := rank(t, repo, "TestX")
	for _, c := range []struct {
		path, dir string
		ok        bool
	}{
		{"example.com/calc", ".", true},
		{"example.com/calc/internal/round", "internal/round", true},
		{"example.com/calc/v2", "v2", true},
		{"example.com/calc/v2/internal/round", "v2/internal/round", true},
		{"example.com/calc/library/internal/x", "lib/internal/x", true},
		{"example.com/calctools/gen", "tools/gen", true},
		{"example.com/calculus/x", "", false},
		{"example.com/fixture", "", false},
		{"example.com/old/x", "", false},
		{"strings", "", false},
	} {
		if dir, ok := r.goModules().dir(c.path); dir != c.dir || ok != c.ok {
			t.Errorf("goModules().dir(%q) = %q, %v; want %q, %v", c.path, dir, ok, c.dir, c.ok)
		}
	}
	if got, want := r.goModules().roots(), []string{".", "lib", "tools", "v2"}; !slices.Equal(got, want) {
		t.Errorf("roots = %q, want %q", got, want)
	}
	for dir, want := range map[string]string{"lib/internal/x": "lib", "lib": "lib", "library/x": ".", "tools/gen": "tools", "internal/round": ".", ".": "."} {
		if got := r.goModules().holding(dir); got != want {
			t.Errorf("holding(%q) = %q, want %q", dir, got, want)
		}
	}
	var many goModules // a monorepo's: too many root packages to look in
	for k := range maxRootRegistries + 1 {
		many = append(many, goModule{path: fmt.Sprintf("example.com/m%d", k), dir: fmt.Sprintf("m%d", k)})
	}
	if got := many.roots(); !slices.Equal(got, []string{"."}) {
		t.Errorf("roots of %d modules = %q, want only the repository's root", len(many), got)
	}
	if dir, ok := (goModules{}).dir("example.com/calc"); ok {
		t.Errorf("no modules: dir = %q, true", dir)
	}
}
