// Command tokens measures how far tokens.Estimate, the count every
// context budget is spent in, is from the tokens real tokenizers give the
// same text. count.mjs (see README.md) counts a corpus with eight real
// tokenizers; this program reads those counts, estimates each file, and
// prints per tokenizer the bytes per token and the estimate's ratio to it,
// then the ratio to the highest of them per file (the estimate must be
// above it for a pack that fits the budget to fit every model's window),
// and how often the window the model client asks for (llm.NumCtx from
// llm.WindowTokens) would be too small or larger than needed for each
// file as a prompt.
//
//	ls /tmp/packs/*.txt | node bench/tokens/count.mjs > counts.jsonl
//	go run ./bench/tokens counts.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/tokens"
)

// row is one line of count.mjs.
type row struct {
	Path   string         `json:"path"`
	Bytes  int            `json:"bytes"`
	Counts map[string]int `json:"counts"`
}

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/tokens COUNTS.jsonl... (the output of bench/tokens/count.mjs)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for _, name := range flag.Args() {
		if err := report(name, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "tokens:", err)
			os.Exit(1)
		}
	}
}

// estimator is a rule to compare: the one in use and the one before it.
type estimator struct {
	name string
	fn   func(string) int
}

var estimators = []estimator{
	{"tokens.Estimate", tokens.Estimate},
	{"before (a token per 3 letters)", estimateBefore},
}

func report(name string, out io.Writer) error {
	rows, err := read(name)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("%s: no counts (is it the output of count.mjs?)", name)
	}
	var tokenizers []string
	for t := range rows[0].Counts {
		tokenizers = append(tokenizers, t)
	}
	sort.Strings(tokenizers)
	texts := make([]string, len(rows))
	bytes := 0
	for k, r := range rows {
		if !filepath.IsAbs(r.Path) {
			rows[k].Path = filepath.Join(filepath.Dir(name), r.Path)
		}
		b, err := os.ReadFile(rows[k].Path)
		if err != nil {
			return err
		}
		if len(b) != r.Bytes {
			return fmt.Errorf("%s is %d bytes, counted at %d: count it again", r.Path, len(b), r.Bytes)
		}
		texts[k] = string(b)
		bytes += len(b)
	}
	fmt.Fprintf(out, "%s: %d files, %d bytes\n", name, len(rows), bytes)
	fmt.Fprintf(out, "%-14s %10s %11s", "tokenizer", "tokens", "bytes/token")
	for _, e := range estimators {
		fmt.Fprintf(out, "  %s/real", e.name)
	}
	fmt.Fprintf(out, "  lowest of a file (%s)\n", estimators[0].name)
	est := make([]int, len(estimators))
	for k, e := range estimators {
		for _, t := range texts {
			est[k] += e.fn(t)
		}
	}
	for _, t := range tokenizers {
		n, lowest := 0, math.Inf(1)
		for i, r := range rows {
			n += r.Counts[t]
			if r.Counts[t] > 0 {
				lowest = min(lowest, float64(estimators[0].fn(texts[i]))/float64(r.Counts[t]))
			}
		}
		fmt.Fprintf(out, "%-14s %10d %11.2f", t, n, float64(bytes)/float64(n))
		for k, e := range estimators {
			fmt.Fprintf(out, "  %*.3f", len(e.name)+5, float64(est[k])/float64(n))
		}
		fmt.Fprintf(out, "  %*.3f\n", len(estimators[0].name)+18, lowest)
	}
	for k, e := range estimators {
		type ratio struct {
			r    float64
			path string
		}
		var rs []ratio
		high := 0
		for i, r := range rows {
			m := 0
			for _, n := range r.Counts {
				m = max(m, n)
			}
			high += m
			if m > 0 {
				rs = append(rs, ratio{float64(e.fn(texts[i])) / float64(m), r.Path})
			}
		}
		sort.Slice(rs, func(a, b int) bool { return rs[a].r < rs[b].r })
		at := func(q float64) float64 { return rs[int(q*float64(len(rs)-1))].r }
		under := 0
		for _, r := range rs {
			if r.r < 1 {
				under++
			}
		}
		fmt.Fprintf(out, "%s / the highest tokenizer per file: total %.3f, min %.3f, p1 %.3f, p5 %.3f, median %.3f; below it: %d of %d files (lowest: %s)\n",
			e.name, float64(est[k])/float64(high), rs[0].r, at(0.01), at(0.05), at(0.5), under, len(rs), rs[0].path)
	}
	windows(rows, texts, tokenizers, out)
	return nil
}

// replyTokens is the reply room of a patch request (agent.patchReplyTokens).
const replyTokens = 4096

// pres are the pre-tokenizers (GGUF tokenizer.ggml.pre, which Ollama's
// /api/show reports) of the tokenizers count.mjs counts with; the others'
// models report one the client has no measure of.
var pres = map[string]string{
	"qwen2_5":      "qwen2",
	"qwen3":        "qwen2",
	"llama3":       "llama-bpe",
	"deepseek_v3":  "deepseek-v3",
	"mistral_nemo": "tekken",
}

// windows prints, per tokenizer, in how many files the window the model
// client asks for a model of that tokenizer (llm.NumCtx of
// llm.WindowTokens) is too small for the file as a prompt and a reply of
// replyTokens, and in how many it is larger than the smallest it could ask
// for (a power of two, as NumCtx asks); now and with the client's rule
// before it counted with tokens.Estimate (four bytes a token, an eighth
// more). A window too small makes the server refuse the prompt and the
// client ask again with the model's whole window: a reload, and all of
// that memory; a window too large costs memory for nothing.
func windows(rows []row, texts, tokenizers []string, out io.Writer) {
	fmt.Fprintf(out, "num_ctx for each file as the prompt and a %d-token reply, against the tokenizer's count (files of %d):\n", replyTokens, len(rows))
	fmt.Fprintf(out, "%-14s %10s %10s %16s %16s\n", "tokenizer", "too small", "too large", "before: small", "before: large")
	for _, t := range tokenizers {
		var n [4]int
		for i, r := range rows {
			need := r.Counts[t] + 5 + replyTokens // five tokens of a chat template
			least := llm.NumCtx(need, 0, 0)
			msgs := []llm.Message{{Role: "user", Content: texts[i]}}
			before := (len(texts[i])+3)/4 + 4 + replyTokens // four bytes a token, then an eighth more
			for k, asked := range []int{
				llm.NumCtx(llm.WindowTokens(msgs, pres[t]), replyTokens, 0),
				llm.NumCtx(before+before/8, 0, 0),
			} {
				switch {
				case asked < need:
					n[2*k]++
				case asked > least:
					n[2*k+1]++
				}
			}
		}
		fmt.Fprintf(out, "%-14s %10d %10d %16d %16d\n", t, n[0], n[1], n[2], n[3])
	}
}

func read(name string) ([]row, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// estimateBefore is the rule tokens.Estimate followed before it was
// measured against real tokenizers: a token per 3 letters, and a space
// before a word counted.
func estimateBefore(s string) int {
	n, letters, space := 0, 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z' {
			letters++
			space = false
			continue
		}
		if letters > 0 {
			n += (letters + 2) / 3
			letters = 0
		}
		if c == ' ' || c == '\t' {
			if !space {
				n++
			}
			space = true
			continue
		}
		n++
		space = false
	}
	if letters > 0 {
		n += (letters + 2) / 3
	}
	return n
}
