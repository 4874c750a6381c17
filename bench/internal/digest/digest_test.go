package digest

import (
	"testing"

	"github.com/agentfix/agentfix/internal/repoctx"
)

func TestPackSeesEveryPart(t *testing.T) {
	base := func() *repoctx.Pack {
		return &repoctx.Pack{Map: "m\n", Code: "c\n", TokensUsed: 4, RepoFiles: 2, TookMS: 5,
			Files: []repoctx.File{{Path: "a.go", Score: 1, Tokens: 2, Chunks: []repoctx.Chunk{{StartLine: 1, EndLine: 3}}}}}
	}
	want := Pack(base())
	slower := base()
	slower.TookMS = 900
	if Pack(slower) != want {
		t.Error("the time a pack took changed its digest")
	}
	for name, change := range map[string]func(p *repoctx.Pack){
		"code":   func(p *repoctx.Pack) { p.Code = "d\n" },
		"map":    func(p *repoctx.Pack) { p.Map = "n\n" },
		"chunk":  func(p *repoctx.Pack) { p.Files[0].Chunks[0].EndLine = 4 },
		"score":  func(p *repoctx.Pack) { p.Files[0].Score = 0.9 },
		"tokens": func(p *repoctx.Pack) { p.TokensUsed = 5 },
		"files":  func(p *repoctx.Pack) { p.RepoFiles = 3 },
	} {
		p := base()
		change(p)
		if Pack(p) == want {
			t.Errorf("a different %s gave the same digest", name)
		}
	}
}
