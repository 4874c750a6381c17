package ollamatest

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"text/template"

	"github.com/ollama/ollama/fs/ggml"
)

// A script used by several tests: a JSON plan, a diff with repeated lines,
// and non-ASCII text.
var testModel = Model{
	ContextLength: 16384,
	Replies: []Reply{
		{When: SystemHasPrefix("You plan"), Text: `{"files":["calc/calc.go"],"steps":["fix Add"]}`},
		{When: And(LastHasPrefix("Write the diff"), Messages(2)), Text: "--- a/calc/calc.go\n+++ b/calc/calc.go\n@@ -1,5 +1,5 @@\n package calc\n \n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n }\n"},
		{When: LastHasPrefix("¿"), Text: "héllo — wörld ✓"},
	},
}

// TestGGUFDecodes reads the generated file back with Ollama's own GGUF
// decoder: a second opinion on the writer.
func TestGGUFDecodes(t *testing.T) {
	data, err := testModel.GGUF()
	if err != nil {
		t.Fatal(err)
	}
	f, err := ggml.Decode(bytes.NewReader(data), -1)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	kv := f.KV()
	if got := kv.Architecture(); got != "llama" {
		t.Errorf("architecture = %q", got)
	}
	if got := kv.ContextLength(); got != 16384 {
		t.Errorf("context length = %d, want 16384", got)
	}
	if got := kv.EmbeddingLength(); got != embd {
		t.Errorf("embedding length = %d", got)
	}
	if got := kv.String("tokenizer.ggml.model"); got != "gpt2" {
		t.Errorf("tokenizer = %q", got)
	}
	tokens := kv.Strings("tokenizer.ggml.tokens")
	if n := len(f.Tensors().Items()); n != 12 {
		t.Errorf("%d tensors, want 12", n)
	}
	for _, tt := range f.Tensors().Items() {
		if tt.Name == "token_embd.weight" && (tt.Shape[0] != embd || tt.Shape[1] != uint64(len(tokens))) {
			t.Errorf("token_embd shape %v, want [%d %d]", tt.Shape, embd, len(tokens))
		}
	}
	if len(kv.Strings("tokenizer.ggml.merges")) == 0 {
		t.Error("no merges: llama.cpp refuses a gpt2 tokenizer without them")
	}
}

// TestScriptWalksChains runs the model's arithmetic in Go: starting from
// each trigger, following the largest logit must spell the reply and stop.
func TestScriptWalksChains(t *testing.T) {
	v := newVocab()
	eos, _ := v.add(eosText, tokenControl)
	trig, _ := v.add(triggerText(0), tokenControl)
	if _, err := v.addBytes(); err != nil {
		t.Fatal(err)
	}
	next := map[int32]int32{}
	starts := map[int32]string{}
	for i, r := range testModel.Replies {
		start, _ := v.add(triggerText(i+1), tokenControl)
		starts[start] = r.Text
		chain, err := v.phrases(r.Text)
		if err != nil {
			t.Fatal(err)
		}
		prev := start
		for _, id := range chain {
			next[prev] = id
			prev = id
		}
	}
	w, err := scriptWeights(len(v.texts), eos, next)
	if err != nil {
		t.Fatal(err)
	}
	step := func(tok int32) int32 {
		row := w.embed[int(tok)*embd : int(tok+1)*embd]
		var code uint64
		for i, x := range row {
			if x > 0 {
				code |= 1 << i
			}
		}
		return argmax(w.output, code)
	}
	for start, want := range starts {
		var got strings.Builder
		tok := start
		for n := 0; ; n++ {
			tok = step(tok)
			if tok == eos {
				break
			}
			if n > 1000 {
				t.Fatalf("reply %q does not end", want)
			}
			got.WriteString(decodeBytes(t, v.texts[tok]))
		}
		if got.String() != want {
			t.Errorf("walked %q, want %q", got.String(), want)
		}
	}
	if step(trig) != eos {
		t.Error("an unscripted token does not end the reply")
	}
}

func decodeBytes(t *testing.T, s string) string {
	t.Helper()
	inv := map[rune]byte{}
	for b, r := range byteRunes {
		inv[[]rune(r)[0]] = byte(b)
	}
	var out []byte
	for _, r := range s {
		b, ok := inv[r]
		if !ok {
			t.Fatalf("token %q holds %q, not a byte rune", s, r)
		}
		out = append(out, b)
	}
	return string(out)
}

func TestPhrasesAreUniqueAndSpellText(t *testing.T) {
	texts := []string{
		"}\n}\n}\n}\n",
		"a\na\na\n",
		"x",
		"{}",
		strings.Repeat("0123456789", 30),
	}
	for _, text := range texts {
		v := newVocab()
		if _, err := v.addBytes(); err != nil {
			t.Fatal(err)
		}
		ids, err := v.phrases(text)
		if text == "x" {
			if err == nil {
				t.Errorf("%q: a one-byte reply cannot have a token of its own, want an error", text)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		var got strings.Builder
		for _, id := range ids {
			got.WriteString(decodeBytes(t, v.texts[id]))
		}
		if got.String() != text {
			t.Errorf("phrases spell %q, want %q", got.String(), text)
		}
	}
}

// TestTemplateChoosesReply renders the template the way the server does
// (Go text/template over the request's messages, consecutive messages of
// one role merged) and checks which trigger ends the prompt.
func TestTemplateChoosesReply(t *testing.T) {
	m := Model{Replies: []Reply{
		{When: SystemHasPrefix("You plan")},
		{When: And(LastHasPrefix("Write the diff"), Messages(2))},
		{When: LastHasPrefix("¿")},
		{When: And(LastContains("plan the fix"), Not(SystemContains("review")))},
		{When: LastHasSuffix("the end.")},
	}}
	tmpl := template.Must(template.New("").Parse(m.Template()))
	type msg struct{ Role, Content string }
	cases := []struct {
		name string
		msgs []msg
		want string
	}{
		{"system prefix", []msg{{"system", "You plan fixes."}, {"user", "Issue: Add subtracts"}}, triggerText(0)},
		{"last prefix and count", []msg{{"system", "You write diffs."}, {"user", "Write the diff for calc.go"}}, triggerText(1)},
		{"count differs", []msg{{"user", "Write the diff for calc.go"}}, noReplyText},
		{"unicode", []msg{{"user", "¿qué?"}}, triggerText(2)},
		{"contains, in merged user messages", []msg{{"system", "sys"}, {"user", "context"}, {"user", "Now plan the fix.\nReply"}}, triggerText(3)},
		{"contains but not", []msg{{"system", "You review"}, {"user", "plan the fix"}}, noReplyText},
		{"suffix", []msg{{"user", "this is the end."}}, triggerText(4)},
		{"suffix only at the end", []msg{{"user", "the end. Or not"}}, noReplyText},
		{"message shorter than the prefix", []msg{{"user", "W"}}, noReplyText},
		{"none", nil, noReplyText},
	}
	for _, c := range cases {
		// The server's collate: system prompts joined, consecutive
		// messages of one role merged.
		var system []string
		var merged []msg
		for _, m := range c.msgs {
			if m.Role == "system" {
				system = append(system, m.Content)
			}
			if n := len(merged); n > 0 && merged[n-1].Role == m.Role {
				merged[n-1].Content += "\n\n" + m.Content
				continue
			}
			merged = append(merged, m)
		}
		var b strings.Builder
		err := tmpl.Execute(&b, map[string]any{"System": strings.Join(system, "\n\n"), "Messages": merged})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.HasSuffix(b.String(), c.want) {
			t.Errorf("%s: prompt %q does not end with %s", c.name, b.String(), c.want)
		}
	}
}

// argmax returns the token whose output row has the largest dot product
// with code c: what the model emits when c is the hidden state. Tests use it to
// walk a script the way the model will.
func argmax(output []float32, c uint64) int32 {
	h := make([]float32, embd)
	putCode(h, c, 1)
	best, bestLogit := int32(-1), float32(math.Inf(-1))
	for t := 0; t*embd < len(output); t++ {
		var logit float32
		for i, x := range output[t*embd : (t+1)*embd] {
			logit += x * h[i]
		}
		if logit > bestLogit {
			best, bestLogit = int32(t), logit
		}
	}
	return best
}
