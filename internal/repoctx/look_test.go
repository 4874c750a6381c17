package repoctx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLook(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	// On disk but not tracked: never shown.
	if err := os.WriteFile(filepath.Join(repo, "secret.env"), []byte("TOKEN=abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string][]Chunk{"dates/month.go": {span(1, 3)}}
	l := ix.Look([]string{
		"dates/parse.go:ParseDate",
		"./dates/parse.go:12-14",
		"parse.go",
		"dates/parse.go:Parse",
		"dates/parse.go:40-50",
		"dates/parse.go:9-3",
		"../outside.go",
		".git/config",
		"secret.env",
		"dates/month.go:1-2",
	}, shown, 4000)
	want := []struct {
		path, err string
		chunk     Chunk
		seen      bool
	}{
		{path: "dates/parse.go", chunk: span(12, 27)},
		{path: "dates/parse.go", chunk: span(12, 14), seen: true},
		{err: "did you mean dates/parse.go?"},
		{path: "dates/parse.go", err: `defines no function, method or type named "Parse"; it defines: Date, ErrSyntax, ParseDate`},
		{path: "dates/parse.go", err: "the file has 35 lines; line 40 does not exist"},
		{path: "dates/parse.go", err: `"9-3" is not a line range`},
		{err: "not a path inside the repository"},
		{err: "no such file in the repository"},
		{err: "no such file in the repository"},
		{path: "dates/month.go", chunk: span(1, 2), seen: true},
	}
	if len(l.Items) != len(want) {
		t.Fatalf("%d items, want %d: %+v", len(l.Items), len(want), l.Items)
	}
	for k, w := range want {
		it := l.Items[k]
		switch {
		case it.Path != w.path:
			t.Errorf("%s: path %q, want %q", it.Request, it.Path, w.path)
		case w.err != "" && !strings.Contains(it.Error, w.err):
			t.Errorf("%s: error %q, want %q", it.Request, it.Error, w.err)
		case w.err == "" && (it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != w.chunk.StartLine || it.Chunks[0].EndLine != w.chunk.EndLine || it.Seen != w.seen):
			t.Errorf("%s: %+v, want chunk %d-%d seen=%v", it.Request, it, w.chunk.StartLine, w.chunk.EndLine, w.seen)
		}
	}
	if !strings.Contains(l.Text, "13\tfunc ParseDate(s string) (Date, error) {") {
		t.Errorf("ParseDate not shown with line numbers:\n%s", l.Text)
	}
	if strings.Contains(l.Text, "TOKEN") {
		t.Errorf("an untracked file was shown:\n%s", l.Text)
	}
	if l.Tokens != EstimateTokens(l.Text) && l.Tokens < EstimateTokens(l.Text) {
		t.Errorf("Tokens %d below the text's %d", l.Tokens, EstimateTokens(l.Text))
	}
}

func TestLookBudget(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	// big/big.go does not fit 600 tokens: its outline is shown instead;
	// then the budget is used up.
	l := ix.Look([]string{"big/big.go", "big/big.go:Normalize", "big/big.go:1-120"}, map[string][]Chunk{}, 600)
	if it := l.Items[0]; !it.Outline || !strings.Contains(l.Text, "3-8: func Step0(x int) int") || !strings.Contains(l.Text, " more)") {
		t.Errorf("big file: %+v, want its outline, cut to fit\n%s", it, l.Text)
	}
	if it := l.Items[1]; it.Error != "" || !strings.Contains(l.Text, "151\tfunc Normalize(key string) string {") {
		t.Errorf("Normalize: %+v\n%s", it, l.Text)
	}
	if l.Tokens > 600 || EstimateTokens(l.Text) > 600 {
		t.Errorf("look took %d tokens (text %d), over its budget of 600", l.Tokens, EstimateTokens(l.Text))
	}
	last := l.Items[len(l.Items)-1]
	if !strings.Contains(last.Error, "look budget (600 tokens) is used up") {
		t.Errorf("last item %+v, want the budget refusal", last)
	}
}
