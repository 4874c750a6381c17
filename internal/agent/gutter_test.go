package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// TestAnEditCopiedWithTheGutterIsApplied: a small model often copies the
// code it was shown as it was shown, with the gutter (a line's number on
// some lines, a tab on all). Its edit must still be found in the file and
// applied with the file's indentation: the prompt's gutter and the patch's
// reading of it must agree.
func TestAnEditCopiedWithTheGutterIsApplied(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	h.srv.Script(testModel, ollamafake.Text(`{"files": ["price/price.go"], "steps": ["In Discount, divide by 100 instead of 10."]}`))
	const bug = "return cents - cents*percent/10"
	h.srv.Respond(testModel, func(r ollamafake.Request) ollamafake.Reply {
		// The three lines around the bug, exactly as the prompt shows them.
		var copied []string
		for _, m := range r.Messages {
			lines := strings.Split(m.Content, "\n")
			for i := 1; i+1 < len(lines) && copied == nil; i++ {
				if lines[i] == "\t\t"+bug { // the gutter's tab, then the file's
					copied = lines[i-1 : i+2]
				}
			}
		}
		search := strings.Join(copied, "\n")
		if copied == nil || copied[2] != "10\t}" {
			t.Errorf("the prompt does not show Discount's lines with the gutter: %q", copied)
		}
		return ollamafake.Text("price/price.go\n<<<<<<< SEARCH\n" + search + "\n=======\n" +
			strings.Replace(search, "/10", "/100", 1) + "\n>>>>>>> REPLACE\n")
	})
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed {
		t.Fatalf("result %s (%s)\n%s", res.Result, res.StopDetail, h.log.String())
	}
	b, err := os.ReadFile(filepath.Join(h.repo, "price", "price.go"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "func Discount(cents, percent int) int {\n\treturn cents - cents*percent/100\n}\n"; !strings.Contains(string(b), want) {
		t.Errorf("price/price.go after the edit:\n%s\nwant it to hold:\n%s", b, want)
	}
}
