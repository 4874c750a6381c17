package repoctx

// stopwords are English function words, words every test output or bug
// report has, and keywords of common languages: they say nothing about
// where the bug is.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		// English
		"a", "an", "the", "and", "or", "but", "if", "then", "else", "when", "while", "of", "to", "in", "on", "at",
		"by", "for", "with", "from", "into", "as", "is", "are", "was", "were", "be", "been", "being", "it", "its",
		"this", "that", "these", "those", "there", "here", "i", "we", "you", "he", "she", "they", "me", "my", "our",
		"your", "their", "not", "no", "yes", "do", "does", "did", "done", "have", "has", "had", "can", "could",
		"should", "would", "will", "shall", "may", "might", "must", "so", "than", "too", "very", "also", "just",
		"only", "some", "any", "all", "each", "every", "more", "most", "other", "such", "what", "which", "who",
		"whom", "how", "why", "where", "after", "before", "about", "above", "below", "up", "down", "out", "over",
		"under", "again", "once", "same", "like", "get", "gets", "got", "see", "seems", "seem", "think", "use",
		"using", "used", "instead", "because", "now", "still", "even", "way", "thing", "things", "one", "two",
		"s", "t", "e", "g", "eg", "ie", "etc", "please", "thanks", "hi", "hello", "issue", "bug", "problem",
		"happens", "happen", "expected", "expect", "actual", "actually", "result", "results", "returns",
		"return", "returned", "wrong", "correct", "incorrect", "works", "work", "working", "fails", "fail",
		"failed", "failing", "failure", "broken", "reproduce", "steps", "version", "go", "run", "running",
		// test output
		"ok", "want", "wanted", "test", "tests", "panic", "panics", "goroutine", "exit", "status", "error",
		"err", "errors", "pass", "passed", "recovered", "signal", "sigsegv", "code", "addr", "pc", "created",
		"cached", "build", "line", "file", "nil", "null", "none", "true", "false", "value", "values",
		// keywords
		"func", "var", "const", "type", "struct", "interface", "package", "import", "range", "defer", "chan",
		"map", "string", "int", "bool", "byte", "def", "class", "self", "function", "let", "new", "void",
		"public", "private", "static", "fn", "pub", "mut", "impl", "use", "mod", "case", "switch", "break",
		"continue", "default", "try", "catch", "throw", "raise", "except", "lambda", "async", "await",
	} {
		m[w] = true
	}
	return m
}()

func stopword(w string) bool { return stopwords[w] }
