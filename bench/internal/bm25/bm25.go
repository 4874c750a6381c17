// Package bm25 is the benchmarks' baseline retriever.
package bm25

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/agentfix/agentfix/internal/tokens"
)

// Index is the baseline: plain BM25 over whole files (lower-cased
// alphanumeric words, no sub-word splitting, no signals), as in the
// SWE-bench paper's retrieval, packing whole files in rank order.
type Index struct {
	root   string
	files  []string
	length []int
	tokens []int // tokens.Estimate of each file
	tf     []map[string]int
	df     map[string]int
	avg    float64
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	})
}

// New counts, in every file (paths relative to root), the words of the
// given queries only: the scores are the same as with a full index, for
// much less memory.
func New(root string, files []string, queries []string) *Index {
	vocab := map[string]bool{}
	for _, q := range queries {
		for _, w := range words(q) {
			vocab[w] = true
		}
	}
	b := &Index{root: root, files: files, length: make([]int, len(files)), tokens: make([]int, len(files)),
		tf: make([]map[string]int, len(files)), df: map[string]int{}}
	var wg sync.WaitGroup
	var next int
	var mu sync.Mutex
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(files) {
					return
				}
				src, err := os.ReadFile(filepath.Join(root, files[i]))
				if err != nil {
					continue
				}
				tf := map[string]int{}
				ws := words(string(src))
				for _, w := range ws {
					if vocab[w] {
						tf[w]++
					}
				}
				b.length[i], b.tf[i], b.tokens[i] = len(ws), tf, tokens.Estimate(string(src))
			}
		}()
	}
	wg.Wait()
	total := 0
	for i := range files {
		total += b.length[i]
		for w := range b.tf[i] {
			b.df[w]++
		}
	}
	b.avg = float64(total) / float64(max(1, len(files)))
	return b
}

// Rank returns file indexes by BM25 score, best first.
func (b *Index) Rank(query string) []int {
	qtf := map[string]int{}
	for _, w := range words(query) {
		qtf[w]++
	}
	n := float64(len(b.files))
	score := make([]float64, len(b.files))
	for w := range qtf {
		idf := math.Log(1 + (n-float64(b.df[w])+0.5)/(float64(b.df[w])+0.5))
		for i := range b.files {
			tf := float64(b.tf[i][w])
			if tf == 0 {
				continue
			}
			score[i] += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*float64(b.length[i])/b.avg))
		}
	}
	var order []int
	for i, s := range score {
		if s > 0 {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(x, y int) bool {
		if score[order[x]] != score[order[y]] {
			return score[order[x]] > score[order[y]]
		}
		return order[x] < order[y]
	})
	return order
}

// Packed returns the files whole-file packing puts into budget tokens:
// files in rank order, each whole, skipping any that does not fit.
func (b *Index) Packed(order []int, budget int) map[string]bool {
	out := map[string]bool{}
	left := budget
	for _, i := range order {
		if b.tokens[i] <= left {
			out[b.files[i]] = true
			left -= b.tokens[i]
		}
		if left < 50 {
			break
		}
	}
	return out
}
