package ollamatest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Token types of tokenizer.ggml.token_type (llama.cpp's llama_token_type).
const (
	tokenNormal  int32 = 1
	tokenControl int32 = 3
)

// maxPhrase is the longest phrase token, in bytes. Longer lines are split.
const maxPhrase = 64

// vocab is a gpt2 (byte-level BPE) vocabulary under construction: control
// tokens, the 256 byte tokens, one merge, and whole-phrase tokens. Token
// texts must be unique: llama.cpp asserts it when it loads the vocabulary.
type vocab struct {
	texts []string // as stored: byte-level encoded, except control tokens
	types []int32
	ids   map[string]int32
}

func newVocab() *vocab {
	return &vocab{ids: map[string]int32{}}
}

// add appends a token and returns its id; text is stored as given.
func (v *vocab) add(text string, typ int32) (int32, error) {
	if _, ok := v.ids[text]; ok {
		return 0, fmt.Errorf("token %q defined twice", text)
	}
	id := int32(len(v.texts))
	v.texts = append(v.texts, text)
	v.types = append(v.types, typ)
	v.ids[text] = id
	return id, nil
}

// addBytes adds the 256 byte tokens and the merge "Ġ Ġ" (two spaces), which
// is the least llama.cpp accepts for a gpt2 tokenizer. It returns the merges.
func (v *vocab) addBytes() ([]string, error) {
	for b := range 256 {
		if _, err := v.add(byteRunes[b], tokenNormal); err != nil {
			return nil, err
		}
	}
	sp := byteRunes[' ']
	if _, err := v.add(sp+sp, tokenNormal); err != nil {
		return nil, err
	}
	return []string{sp + " " + sp}, nil
}

// phrases splits text into phrase tokens, adds them, and returns their ids
// in order. Every phrase token needs a text of its own (it has exactly one
// successor), at least two bytes long (one byte is a byte token). Pieces are
// whole lines where possible, at most maxPhrase bytes, cut at rune
// boundaries; where a line is already taken, a longer or shorter piece is
// tried, backtracking when the end of the text cannot be covered.
func (v *vocab) phrases(text string) ([]int32, error) {
	taken := func(s string) bool { _, ok := v.ids[encodeBytes(s)]; return ok }
	budget := 100000
	pieces, ok := split(nil, text, taken, map[string]bool{}, &budget)
	if !ok {
		return nil, fmt.Errorf("cannot script %q as phrase tokens of their own: script a different text", text)
	}
	ids := make([]int32, len(pieces))
	for i, p := range pieces {
		id, err := v.add(encodeBytes(p), tokenNormal)
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	return ids, nil
}

// split appends to pieces a split of rest into pieces that are neither
// taken nor used, and reports whether there is one.
func split(pieces []string, rest string, taken func(string) bool, used map[string]bool, budget *int) ([]string, bool) {
	if rest == "" {
		return pieces, true
	}
	want := len(rest)
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		want = i + 1
	}
	want = min(want, maxPhrase)
	cut := min(len(rest), 2*maxPhrase)
	for cut < len(rest) && !utf8.RuneStart(rest[cut]) {
		cut--
	}
	ends := runeEnds(rest[:cut])
	var order []int
	for _, e := range ends {
		if e >= want {
			order = append(order, e)
		}
	}
	for i := len(ends) - 1; i >= 0; i-- {
		if ends[i] < want {
			order = append(order, ends[i])
		}
	}
	for _, end := range order {
		piece := rest[:end]
		if *budget--; *budget < 0 {
			return nil, false
		}
		if end < 2 || used[piece] || taken(piece) {
			continue
		}
		used[piece] = true
		if all, ok := split(append(pieces, piece), rest[end:], taken, used, budget); ok {
			return all, true
		}
		delete(used, piece)
	}
	return nil, false
}

// runeEnds lists the byte offsets in s at which a rune ends.
func runeEnds(s string) []int {
	var ends []int
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		ends = append(ends, i)
	}
	return ends
}

// byteRunes maps each byte to the printable rune GPT-2's byte-level BPE
// stores it as (bytes_to_unicode in openai/gpt-2 encoder.py): printable
// Latin-1 bytes stand for themselves, the others are shifted to U+0100 on.
var byteRunes = func() [256]string {
	var m [256]string
	next := rune(256)
	for b := range 256 {
		switch {
		case b >= '!' && b <= '~', b >= 0xA1 && b <= 0xAC, b >= 0xAE && b <= 0xFF:
			m[b] = string(rune(b))
		default:
			m[b] = string(next)
			next++
		}
	}
	return m
}()

// encodeBytes returns s as a byte-level BPE token text.
func encodeBytes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(byteRunes[s[i]])
	}
	return b.String()
}
