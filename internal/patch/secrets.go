package patch

import (
	"math"
	"regexp"
	"strings"
)

// secretRule is one kind of credential an added line may not contain.
type secretRule struct {
	what string
	re   *regexp.Regexp
	// random, when set, must also hold for the first submatch, so that
	// placeholders ("changeme", "${TOKEN}") are not refused.
	random bool
}

var secretRules = []secretRule{
	{"an AWS access key id", regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b`), false},
	{"an AWS secret access key", regexp.MustCompile(`(?i)aws.{0,20}secret.{0,20}[=:]\s*["']?([A-Za-z0-9/+=]{40})\b`), true},
	{"a GitHub token", regexp.MustCompile(`\b(?:ghp|ghs|gho|ghu|ghr)_[A-Za-z0-9]{30,}`), false},
	{"a GitHub token", regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,}`), false},
	{"a Slack token", regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}`), false},
	{"a private key", regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`), false},
	{"a hard-coded credential", regexp.MustCompile(`(?i)(?:password|passwd|pwd|secret|token|api_?key|apikey|access_?key|auth)[\w.-]*["']?\s*(?::=|[:=]|=>)\s*[a-z]*["'\x60]([^"'\x60\s]{12,})["'\x60]`), true},
}

// findSecret returns what kind of secret s seems to contain, or "".
func findSecret(s string) string {
	for _, r := range secretRules {
		m := r.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		if r.random && !looksRandom(m[1]) {
			continue
		}
		return r.what
	}
	return ""
}

// looksRandom reports whether v reads like generated key material rather
// than a word, a placeholder or a reference to somewhere else.
func looksRandom(v string) bool {
	if strings.ContainsAny(v, "${}<>()[]") || strings.Contains(strings.ToLower(v), "example") {
		return false
	}
	var lower, upper, digit bool
	for _, c := range v {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	classes := 0
	for _, b := range []bool{lower, upper, digit} {
		if b {
			classes++
		}
	}
	return classes >= 2 && digit && entropy(v) >= 3.0
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, c := range s {
		counts[c]++
		n++
	}
	h := 0.0
	for _, k := range counts {
		p := float64(k) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}
