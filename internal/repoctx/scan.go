package repoctx

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// blockLines is the size of the line windows BM25 scores. Windows of a
// fixed size cost nothing to find; functions are found later, by the
// outline, only for the files worth packing.
const blockLines = 30

// maxTerms bounds the weighted query terms (see also maxMatcherTerms).
const maxTerms = 64

// skipReason says why a listed file was not indexed.
type skipReason uint8

const (
	indexed skipReason = iota
	skipUnreadable
	skipHuge
	skipBinary
	skipGenerated
)

// fileScan is what the lexical pass learned about one file.
type fileScan struct {
	skip   skipReason
	lines  int32
	size   int32 // bytes
	blocks []blockHit
	defs   []def
}

// blockHit is a window of blockLines lines with at least one query term.
type blockHit struct {
	block  int32 // 0-based: lines block*blockLines+1 ...
	length int32 // the window's length in bytes (the file's mean window)
	tf     []termCount
}

type termCount struct {
	term uint8
	n    uint16
}

// def is where a symbol the query names is defined (a func, type, def,
// class, fn ... line), hashed as written.
type def struct {
	hash uint64
	line int32
}

// scanStats are the corpus-wide numbers BM25 needs.
type scanStats struct {
	blocks int64 // windows in all indexed files
	bytes  int64 // bytes in all indexed files
}

// scanAll reads every listed file once, in parallel, counting the query's
// terms per window and recording where the query's symbols are defined.
func (ix *Index) scanAll(ctx context.Context, m *matcher) ([]fileScan, scanStats, error) {
	res := make([]fileScan, len(ix.paths))
	var next atomic.Int64
	var mu sync.Mutex
	var total scanStats
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &scanner{m: m, counts: make([]uint16, len(m.terms))}
			var local scanStats
			for {
				i := int(next.Add(1) - 1)
				if i >= len(ix.paths) || ctx.Err() != nil {
					break
				}
				s.file(filepath.Join(ix.root, ix.paths[i]), &res[i])
				if res[i].skip == indexed {
					local.blocks += int64(res[i].lines+blockLines-1) / blockLines
					local.bytes += int64(res[i].size)
				}
			}
			mu.Lock()
			total.blocks += local.blocks
			total.bytes += local.bytes
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, total, err
	}
	return res, total, nil
}

// scanner is one worker's reusable state.
type scanner struct {
	m       *matcher
	buf     []byte
	counts  []uint16
	touched []uint8
	blocks  []blockHit // the current file's windows, copied out at its end
	// tfs and hits are slabs the windows' counts and each file's windows
	// are cut from: a few allocations per worker instead of one per window
	// and file, which leaves the collector little to do.
	tfs  []termCount
	hits []blockHit
}

// slabSize bounds the length of a new slab: each is twice the last, from
// 64, so a small repository does not pay for a big one's slabs.
const slabSize = 4096

// cut returns a slice of n elements cut from *slab, which is refilled (a
// new array; the old one stays with the slices cut from it) when short.
func cut[T any](slab *[]T, n int) []T {
	if cap(*slab)-len(*slab) < n {
		*slab = make([]T, 0, max(n, min(slabSize, 2*cap(*slab)), 64))
	}
	k := len(*slab)
	*slab = (*slab)[:k+n]
	return (*slab)[k : k+n : k+n]
}

func (s *scanner) file(name string, fs *fileScan) {
	var k int
	s.buf, k, fs.skip = readFile(name, s.buf)
	if fs.skip != indexed {
		return
	}
	data := s.buf[:k]
	head := data[:min(len(data), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		fs.skip = skipBinary
		return
	}
	if isGenerated(data) {
		fs.skip = skipGenerated
		return
	}
	s.scan(data, fs)
}

// scan counts the query's terms per window of data, and records the lines
// that define a symbol the query names. Lines are counted lazily, between
// matches, with bytes.Count.
func (s *scanner) scan(data []byte, fs *fileScan) {
	lines := bytes.Count(data, []byte{'\n'})
	if len(data) == 0 || data[len(data)-1] != '\n' {
		lines++
	}
	fs.lines, fs.size = int32(lines), int32(len(data))
	nblocks := (lines + blockLines - 1) / blockLines
	meanBlock := int32(len(data) / max(1, nblocks))
	line, counted := 1, 0 // line is the line number of data[counted]
	block := -1
	lastDef := -1
	s.m.each(data, func(pos, t int) {
		line += bytes.Count(data[counted:pos], []byte{'\n'})
		counted = pos
		if b := (line - 1) / blockLines; b != block {
			s.flush(block, meanBlock)
			block = b
		}
		if s.counts[t] == 0 {
			s.touched = append(s.touched, uint8(t))
		}
		if s.counts[t] < 0xffff {
			s.counts[t]++
		}
		if s.m.terms[t].sym && line != lastDef {
			lastDef = line
			start := bytes.LastIndexByte(data[:pos], '\n') + 1
			if name := defName(skipBlanks(data[start:])); name != nil {
				if h := exactHash(name); s.m.symbols[h] {
					fs.defs = append(fs.defs, def{hash: h, line: int32(line)})
				}
			}
		}
	})
	s.flush(block, meanBlock)
	if len(s.blocks) > 0 {
		fs.blocks = cut(&s.hits, len(s.blocks))
		copy(fs.blocks, s.blocks)
		s.blocks = s.blocks[:0]
	}
}

// flush records window b's counts, if any.
func (s *scanner) flush(b int, length int32) {
	if len(s.touched) == 0 {
		return
	}
	tf := cut(&s.tfs, len(s.touched))
	for k, t := range s.touched {
		tf[k] = termCount{term: t, n: s.counts[t]}
		s.counts[t] = 0
	}
	s.blocks = append(s.blocks, blockHit{block: int32(b), length: length, tf: tf})
	s.touched = s.touched[:0]
}
