// Package repoctx is agentfix's context engine: it lists a repository's
// files, understands a query (an issue or failing test output), ranks the
// files and their chunks against it, and packs a repo map plus the most
// relevant code into a token budget for the model.
//
// The work is lazy: one parallel lexical pass over the files counts only the
// query's terms and records definitions; only the best candidates are parsed
// (go/parser for Go, a line outline for other languages) and read again for
// packing.
package repoctx

import (
	"context"
	"strings"
	"time"
)

// DefaultBudget is the budget Build uses when Options.Budget is not positive.
const DefaultBudget = 4096

// Options tunes Build.
type Options struct {
	// Budget is the number of tokens (as counted by tokens.Estimate) for the
	// whole pack, map and code. Zero or less means DefaultBudget.
	Budget int
}

// Chunk is a range of lines (1-based, inclusive) of a file that was packed.
type Chunk struct {
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	// Symbols are the top-level definitions the chunk shows part of, in
	// source order: functions, methods (Type.Method), types, variables;
	// empty when none is known (a file outside any definition).
	Symbols []string `json:"symbols,omitempty"`
}

// File is one packed file, with the chunks of it that were packed.
type File struct {
	Path   string  `json:"path"`
	Score  float64 `json:"score"`
	Tokens int     `json:"tokens"`
	Chunks []Chunk `json:"chunks"`
}

// Pack is what the model is shown: the map, then the code.
type Pack struct {
	// Map is the repo-map excerpt. It depends only on the repository and the
	// query, so it is the same in every round of a job and leads the prompt,
	// which lets the model server reuse its cache for that prefix.
	Map string `json:"-"`
	// Code is the ranked files and chunks, with line numbers.
	Code string `json:"-"`
	// Files are the packed files, in rank order.
	Files []File `json:"files"`
	// TokensUsed is tokens.Estimate(Map) + tokens.Estimate(Code); it is never
	// above the budget and never below tokens.Estimate(Text()).
	TokensUsed int `json:"tokens_used"`
	// RepoFiles is how many files were indexed (listed and not skipped).
	RepoFiles int `json:"repo_files"`
	// TookMS is how long Build took, in milliseconds.
	TookMS int64 `json:"took_ms"`
}

// Text is the packed context as sent to the model: Map, then Code.
func (p *Pack) Text() string {
	var b strings.Builder
	b.Grow(len(p.Map) + len(p.Code))
	b.WriteString(p.Map)
	b.WriteString(p.Code)
	return b.String()
}

// Build indexes the git repository at repo (its root or any directory inside
// it), ranks its files against query and packs the best into opts.Budget.
// Same repository and query give the same pack.
func Build(ctx context.Context, repo, query string, opts Options) (*Pack, error) {
	start := time.Now()
	ix, err := Open(ctx, repo)
	if err != nil {
		return nil, err
	}
	r, err := ix.Rank(ctx, query)
	if err != nil {
		return nil, err
	}
	p, err := r.Pack(ctx, opts)
	if err != nil {
		return nil, err
	}
	p.TookMS = time.Since(start).Milliseconds()
	return p, nil
}
