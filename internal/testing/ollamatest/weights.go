package ollamatest

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// weights are the two matrices that carry a scripted model's behaviour, row
// per token, embd columns.
type weights struct {
	embed  []float32
	output []float32
}

// minDistance is the least Hamming distance between two codes: their cosine
// is then at most (embd-2*minDistance)/embd = 0.4375, well below 1.
const minDistance = 18

// outputScale makes the right token's logit 8*outputScale (RMS norm scales a
// unit vector of embd entries by sqrt(embd) = 8) and any other at most 0.44
// of it: 16 against 7.
const outputScale = 2

// scriptWeights chooses embeddings and output rows so that, after token t,
// the largest logit is next[t] (eos where next has no entry).
//
// Every token that is some token's successor gets a code: a vector of
// ±1/8 (unit length) chosen at random, at least minDistance sign flips from
// every other code. A token's embedding is its successor's code; the output
// row of a successor is its own code times outputScale, every other row is
// zero. The logit of token j after t is then 8*outputScale*cos(code j,
// code next[t]): largest for j = next[t], by minDistance. The codes are
// drawn from a fixed seed, so the same script gives the same file.
func scriptWeights(vocab int, eos int32, next map[int32]int32) (weights, error) {
	succ := func(t int32) int32 {
		if n, ok := next[t]; ok {
			return n
		}
		return eos
	}
	targets := []int32{eos}
	for _, n := range next {
		targets = append(targets, n)
	}
	slices.Sort(targets)
	targets = slices.Compact(targets)

	rng := rand.New(rand.NewPCG(0x61676e74, 0x66697821))
	codes := map[int32]uint64{}
	var taken []uint64
	for _, t := range targets {
		c, err := farCode(rng, taken)
		if err != nil {
			return weights{}, fmt.Errorf("script of %d phrase tokens: %w", len(targets), err)
		}
		codes[t] = c
		taken = append(taken, c)
	}

	w := weights{embed: make([]float32, vocab*embd), output: make([]float32, vocab*embd)}
	for t := range int32(vocab) {
		putCode(w.embed[int(t)*embd:], codes[succ(t)], 1)
	}
	for t, c := range codes {
		putCode(w.output[int(t)*embd:], c, outputScale)
	}
	return w, nil
}

// farCode draws a 64-bit sign pattern at least minDistance flips from all
// of taken.
func farCode(rng *rand.Rand, taken []uint64) (uint64, error) {
	for range 10000 {
		c := rng.Uint64()
		if !slices.ContainsFunc(taken, func(o uint64) bool { return bits.OnesCount64(c^o) < minDistance }) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("no code %d flips away from %d others", minDistance, len(taken))
}

// putCode writes code c as ±scale/8 into row.
func putCode(row []float32, c uint64, scale float32) {
	unit := scale / float32(math.Sqrt(embd))
	for i := range embd {
		if c&(1<<i) != 0 {
			row[i] = unit
		} else {
			row[i] = -unit
		}
	}
}
