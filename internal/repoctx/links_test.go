package repoctx

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestParseQueryReadsLinks: a link to a file's line on GitHub is that
// path and line, a pkg.go.dev link names its symbol, a playground link
// and an attachment go, and any other link stays as written.
func TestParseQueryReadsLinks(t *testing.T) {
	report := "Get says a missing key is there.\n"
	sameQuery(t, parseQuery("Reproducer: https://go.dev/play/p/Xk3TqZ9aBcD\n\n"+report), parseQuery("Reproducer: \n\n"+report))
	sameQuery(t, parseQuery("Also on https://play.golang.org/p/Q_2-abc.go?v=goprev.\n"+report), parseQuery("Also on .\n"+report))
	sameQuery(t, parseQuery("![screenshot](https://github.com/user-attachments/assets/0f3c1a9e-2b7d-4c5a-8e9f-0a1b2c3d4e5f)\n"+report), parseQuery("\n"+report))

	for link, want := range map[string]pathHint{
		"https://github.com/goccy/go-json/blob/v0.9.10/internal/decoder/string.go#L173-L180": {"internal/decoder/string.go", 173},
		"https://github.com/goccy/go-json/blob/4b6f0c1d/internal/decoder/string.go#L173C9":   {"internal/decoder/string.go", 173},
		"https://github.com/goccy/go-json/blob/master/internal/decoder/string.go?plain=1":    {"internal/decoder/string.go", 0},
	} {
		q := parseQuery("The bug is here: " + link + " I think.\n")
		if !slices.Equal(q.paths, []pathHint{want}) {
			t.Errorf("%s: paths %v, want %v", link, q.paths, []pathHint{want})
		}
	}

	q := parseQuery("Fixed by #123? See https://pkg.go.dev/github.com/acme/kv#Store.Get, and (https://pkg.go.dev/github.com/acme/kv@v1.2.0).\n")
	if q.symbols["Store"] != medium || q.symbols["Get"] != medium || len(q.paths) != 0 {
		t.Errorf("symbols %v, paths %v; want Store and Get of medium strength, no file (pkg.go)", q.symbols, q.paths)
	}

	for _, text := range []string{
		"isURL(\"http://#invalid\") is true",
		"`https://portal.azure.com#@930d042f-8145-fragment` fails to parse",
		"See https://github.com/acme/kv/issues/12 and https://go.dev/doc/go1.22.",
	} {
		if got, linked := readLinks(text); got != text || linked != nil {
			t.Errorf("readLinks(%q) = %q, %v; want it unchanged", text, got, linked)
		}
	}
}

// TestBuildShowsTheLineALinkPointsAt: a report that links the line it
// suspects gets that line's function packed, not the file's head.
func TestBuildShowsTheLineALinkPointsAt(t *testing.T) {
	files := fixtureFiles()
	repo := newRepo(t, files)
	lines := strings.Split(files["big/big.go"], "\n")
	decl := slices.Index(lines, "func Step33(x int) int {") + 1
	link := "https://github.com/acme/cal/blob/4b6f0c1d/big/big.go#L" + strconv.Itoa(decl+2)
	p := build(t, repo, "The pipeline's result is off by a step. I think it is this line: "+link+"\n", 700)
	f := fileOf(p, "big/big.go")
	if f == nil || !covers(f, decl, decl+4) {
		t.Fatalf("Step33 (lines %d-%d) is not packed: %+v", decl, decl+4, p.Files)
	}
	if !reflect.DeepEqual(parseQuery(link).paths, []pathHint{{"big/big.go", decl + 2}}) {
		t.Errorf("paths %v", parseQuery(link).paths)
	}
}
