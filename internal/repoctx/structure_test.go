package repoctx

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goSources are the texts the equivalence tests read: the cases given,
// then every Go file of this module.
func goSources(t *testing.T, cases ...string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, c := range cases {
		out = append(out, []byte(c))
	}
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		src, err := os.ReadFile(p)
		out = append(out, src)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < len(cases)+100 {
		t.Fatalf("only %d texts to compare", len(out))
	}
	return out
}

// TestCallsIsContains: callsName, from the index of the names before a "(",
// says what searching the text for name + "(" says.
func TestCallsIsContains(t *testing.T) {
	srcs := goSources(t,
		"x := doGet(1)\ny := Get (2)\nz := pkg.Get(3)\n",
		"init()\n(a)(b)\n_x(\nπ(\néGet(\n",
	)
	reIdent := regexp.MustCompile(`[\pL_][\pL\pN_]*`)
	r := &Ranking{called: map[int][]string{}}
	compared, found := 0, 0
	for k, src := range srcs {
		f := dirFile{i: k, src: src}
		names := map[string]bool{"Get": true, "et": true, "x": true, "init": true}
		for _, n := range reIdent.FindAll(src, 200) {
			names[string(n)] = true
		}
		for name := range names {
			want := bytes.Contains(src, []byte(name+"("))
			if got := r.callsName(f, name); got != want {
				t.Fatalf("text %d: callsName(%q) = %v, bytes.Contains = %v", k, name, got, want)
			}
			compared++
			if want {
				found++
			}
		}
	}
	if found == 0 || found == compared {
		t.Fatalf("%d of %d names called: nothing compared", found, compared)
	}
}

// TestDirDefsListsEachFileOnce: a file defining twenty methods of one
// name is one file to read for it, not twenty (follow reads all of a
// file's definitions of the name at once).
func TestDirDefsListsEachFileOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("package ast\n\n")
	for k := range 20 {
		fmt.Fprintf(&b, "func (n *Node%d) format() string { return \"%d\" }\n\n", k, k)
	}
	defs := dirDefs([]dirFile{{0, "ast/nodes.go", []byte(b.String())}, {1, "ast/module.go", []byte("package ast\n\nfunc (m *Module) format() string { return \"\" }\n")}})
	if got := defs["format"]; !slices.Equal(got, []int{0, 1}) {
		t.Errorf("format is defined in files %v, want [0 1]", got)
	}
}
