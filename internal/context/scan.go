package context

import (
	stdcontext "context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// blockLines is the size of the line windows BM25 scores. Windows of a
// fixed size cost nothing to find; functions are found later, by the
// outline, only for the files worth packing.
const blockLines = 30

// maxTerms bounds the query terms counted, so a term index fits a byte.
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
	words  int32 // sub-words in the file, the BM25 length of the whole file
	blocks []blockHit
	defs   []def
}

// blockHit is a window of blockLines lines with at least one query term.
type blockHit struct {
	block  int32 // 0-based: lines block*blockLines+1 ...
	length int32 // sub-words in the window
	tf     []termCount
}

type termCount struct {
	term uint8
	n    uint16
}

// def is a name defined at the start of a line (func, type, def, class, fn,
// ...), hashed as written.
type def struct {
	hash uint64
	line int32
}

// scanStats are the corpus-wide numbers BM25 needs.
type scanStats struct {
	blocks int64 // windows in all indexed files
	words  int64 // sub-words in all indexed files
}

// scanAll reads every listed file once, in parallel, counting the query's
// terms per window and recording definitions.
func (ix *Index) scanAll(ctx stdcontext.Context, terms []uint64) ([]fileScan, scanStats, error) {
	res := make([]fileScan, len(ix.paths))
	table := newTermTable(terms)
	var next atomic.Int64
	var mu sync.Mutex
	var total scanStats
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &scanner{terms: table, counts: make([]uint16, len(terms))}
			var local scanStats
			for {
				i := int(next.Add(1) - 1)
				if i >= len(ix.paths) || ctx.Err() != nil {
					break
				}
				s.file(filepath.Join(ix.root, ix.paths[i]), &res[i])
				if res[i].skip == indexed {
					local.blocks += int64(res[i].lines+blockLines-1) / blockLines
					local.words += int64(res[i].words)
				}
			}
			mu.Lock()
			total.blocks += local.blocks
			total.words += local.words
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
	terms   *termTable
	buf     []byte
	counts  []uint16
	touched []uint8
	fs      *fileScan
	words   int32 // sub-words in the current window
}

func (s *scanner) file(name string, fs *fileScan) {
	f, err := os.Open(name)
	if err != nil {
		fs.skip = skipUnreadable
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		fs.skip = skipUnreadable
		return
	}
	if st.Size() > maxFileBytes {
		fs.skip = skipHuge
		return
	}
	n := int(st.Size())
	if cap(s.buf) < n+1 {
		s.buf = make([]byte, n+1, n+n/2+1)
	}
	buf := s.buf[:n+1]
	m, err := io.ReadFull(f, buf)
	if err != io.ErrUnexpectedEOF && err != nil && err != io.EOF {
		fs.skip = skipUnreadable
		return
	}
	data := buf[:m]
	if m > n { // grew since Stat: stay within the limit
		fs.skip = skipHuge
		return
	}
	head := data
	if len(head) > 8000 {
		head = head[:8000]
	}
	if indexByte(head, 0) >= 0 {
		fs.skip = skipBinary
		return
	}
	if isGenerated(data) {
		fs.skip = skipGenerated
		return
	}
	s.fs = fs
	s.scan(data)
	s.fs = nil
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// identByte is isIdentByte as a table, for the hot loop.
var identByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isIdentByte(byte(c))
	}
	return t
}()

// scan counts terms per window and finds definitions in data.
func (s *scanner) scan(data []byte) {
	line := int32(1)
	lineStart := true
	s.words = 0
	n := len(data)
	for i := 0; i < n; {
		c := data[i]
		if c == '\n' {
			if line%blockLines == 0 {
				s.flush(line/blockLines - 1)
			}
			line++
			lineStart = true
			i++
			continue
		}
		if lineStart {
			if c == ' ' || c == '\t' || c == '\r' {
				i++
				continue
			}
			lineStart = false
			if defStart[c] {
				if name := defName(data[i:]); name != nil {
					s.fs.defs = append(s.fs.defs, def{hash: exactHash(name), line: line})
				}
			}
		}
		if !identByte[c] {
			i++
			continue
		}
		j := i + 1
		for j < n && identByte[data[j]] {
			j++
		}
		if !isDigit(c) {
			s.ident(data[i:j])
		}
		i = j
	}
	if n > 0 && data[n-1] == '\n' {
		line--
	}
	s.flush((line - 1) / blockLines)
	s.fs.lines = line
}

// ident counts the sub-words of one identifier, and the whole identifier
// when it has more than one.
func (s *scanner) ident(id []byte) {
	h := uint64(fnvOffset)
	full := uint64(fnvOffset)
	sub := 0
	nsub := 0
	for k := 0; k < len(id); k++ {
		c := id[k]
		if c == '_' {
			if sub > 0 {
				nsub += s.word(h, sub)
				h, sub = fnvOffset, 0
			}
			full = (full ^ uint64(c)) * fnvPrime
			continue
		}
		if isUpper(c) {
			if sub > 0 {
				p := id[k-1]
				if isLower(p) || isDigit(p) || (isUpper(p) && k+1 < len(id) && isLower(id[k+1])) {
					nsub += s.word(h, sub)
					h, sub = fnvOffset, 0
				}
			}
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * fnvPrime
		full = (full ^ uint64(c)) * fnvPrime
		sub++
	}
	if sub > 0 {
		nsub += s.word(h, sub)
	}
	if nsub > 1 {
		s.count(full)
	}
}

// word counts one sub-word of n bytes and reports whether it was long
// enough to be a word.
func (s *scanner) word(h uint64, n int) int {
	if n < 2 {
		return 0
	}
	s.words++
	s.count(h)
	return 1
}

func (s *scanner) count(h uint64) {
	t := s.terms.get(h)
	if t < 0 {
		return
	}
	if s.counts[t] == 0 {
		s.touched = append(s.touched, uint8(t))
	}
	if s.counts[t] < 0xffff {
		s.counts[t]++
	}
}

// flush ends window b.
func (s *scanner) flush(b int32) {
	s.fs.words += s.words
	if len(s.touched) > 0 {
		tf := make([]termCount, len(s.touched))
		for k, t := range s.touched {
			tf[k] = termCount{term: t, n: s.counts[t]}
			s.counts[t] = 0
		}
		s.fs.blocks = append(s.fs.blocks, blockHit{block: b, length: s.words, tf: tf})
		s.touched = s.touched[:0]
	}
	s.words = 0
}
