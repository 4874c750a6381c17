package repoctx

// EstimateTokens counts the tokens s will take in a model's context, on
// purpose on the high side so that a pack that fits by this count also fits
// the model's window. The rule, for byte-level BPE tokenizers of code models
// (Qwen, Llama, DeepSeek):
//
//   - every run of ASCII letters and underscores counts one token per 3
//     bytes, rounded up (real vocabularies hold most 4-8 letter pieces);
//   - every digit counts one token (Qwen splits numbers into digits);
//   - every run of spaces and tabs counts one token, and so does every
//     newline;
//   - every other byte (punctuation, each byte of a non-ASCII rune) counts
//     one token.
//
// Real tokenizers merge punctuation and whole words, so they report fewer.
// The count is subadditive: EstimateTokens(a+b) <= EstimateTokens(a) +
// EstimateTokens(b), so budgets can be summed piece by piece.
func EstimateTokens(s string) int {
	n := 0
	letters := 0
	space := false
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
		switch {
		case c == ' ' || c == '\t':
			if !space {
				n++
			}
			space = true
			continue
		default:
			n++
		}
		space = false
	}
	if letters > 0 {
		n += (letters + 2) / 3
	}
	return n
}
