package repoctx

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

const (
	// maxMessageLines bounds the lines whose messages the query quotes
	// that become foci.
	maxMessageLines = 4
	// maxMessageSites is how many lines may hold the same message for it
	// to point anywhere: one written in ten places points at none.
	maxMessageSites = 3
	// messageBonus raises a file holding a message the query quotes.
	messageBonus = 1.0
	// minMessageLetters and minMessagePart make a literal a message:
	// enough prose that finding it in the query is no accident.
	minMessageLetters = 10
	minMessagePart    = 8
)

// messages finds where the messages the query quotes are written: a
// string literal of the best candidate code files (a format string's
// verbs and placeholders match anything) whose text the query holds, as
// `could not find alias %q` holds `could not find alias "base_url"`. The
// line that writes the message is where the failure was noticed, often
// where the fix goes: it becomes a focus of its file, and raises it.
// Messages written in many places, and those of test helpers (assertion
// messages), point nowhere.
func (r *Ranking) messages(ctx context.Context) {
	var files []int
	for rank, i := range r.order {
		if rank == maxTried {
			break
		}
		if p := r.ix.paths[i]; !isTestFile(p) && messageLangs[strings.ToLower(path.Ext(p))] {
			files = append(files, i)
		}
	}
	// Each file's on its own, in parallel (reading them is most of the
	// time), then in rank order.
	each := make([][]message, len(files))
	inParallel(ctx, len(files), func(k int) { each[k] = r.fileMessages(files[k]) })
	var all []message
	sites := map[string]int{}
	for _, ms := range each {
		for _, m := range ms {
			all = append(all, m)
			sites[m.text]++
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].fixed > all[b].fixed })
	kept := 0
	for _, f := range all {
		if kept == maxMessageLines {
			break
		}
		if sites[f.text] > maxMessageSites || r.inTestHelper(f.i, f.line) {
			continue
		}
		r.focus[f.i] = append(r.focus[f.i], f.line)
		r.score[f.i] += messageBonus
		// From a report (no failing test, whose edges reach the
		// message's callers on their own paths), the one caller of
		// the function that writes the message: what it hands that
		// function decides what the message says.
		if len(r.q.tests) == 0 {
			r.messageCaller(f.i, f.line)
		}
		kept++
	}
}

// message is a literal of file i, at line, whose text the query quotes.
type message struct {
	i, line int
	text    string
	fixed   int // the length of its text without placeholders
}

// fileMessages are the literals of file i whose text the query quotes.
func (r *Ranking) fileMessages(i int) []message {
	p := r.ix.paths[i]
	src, err := os.ReadFile(filepath.Join(r.ix.root, p))
	if err != nil {
		return nil
	}
	goFile := path.Ext(p) == ".go"
	var raw []bool
	if goFile && bytes.IndexByte(src, '`') >= 0 {
		raw = rawLines(src)
	}
	var out []message
	for n, line := range strings.Split(string(src), "\n") {
		var lits []string
		switch {
		case n < len(raw) && raw[n]:
			// A line of a raw string that spans lines (a help
			// text, a template) is a message: on its first line
			// what follows the backquote, on its last what
			// precedes it.
			before, after, open := strings.Cut(line, "`")
			switch {
			case !open:
				lits = []string{line}
			case n > 0 && raw[n-1]:
				lits = []string{before}
			default:
				lits = []string{after}
			}
		case strings.ContainsAny(line, "\"`'"):
			lits = literals(line, goFile)
		}
		for _, lit := range lits { // most lines: none
			if fixed, ok := r.quotes(lit, goFile); ok {
				out = append(out, message{i, n + 1, lit, fixed})
			}
		}
	}
	return out
}

// messageLangs are the extensions of the source files messages are
// looked for in.
var messageLangs = map[string]bool{
	".go": true, ".py": true, ".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".rs": true,
	".java": true, ".kt": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true,
	".rb": true, ".php": true, ".cs": true, ".swift": true, ".scala": true,
}

var (
	// reGoLiteral and reLiteral are a line's string literals: Go's
	// interpreted and raw ones; elsewhere double- and single-quoted.
	reGoLiteral = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`")
	reLiteral   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)
	// reVerb is a printf verb; rePlaceholder is also {}, {0}, {name},
	// {:?}, ${expr}: what a format string fills in (in Go, braces are
	// text).
	reVerb        = regexp.MustCompile(`%[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[vTtbcdoOqxXUeEfFgGsp]`)
	rePlaceholder = regexp.MustCompile(reVerb.String() + `|\$?\{[^{}]*\}`)
	// reGoPlaceholder is a printf verb or a text/template action.
	reGoPlaceholder = regexp.MustCompile(reVerb.String() + `|\{\{.*?\}\}`)
	// unescape undoes the common escapes of a literal that is not Go's.
	unescape = strings.NewReplacer(`\"`, `"`, `\'`, `'`, `\\`, `\`, `\n`, "\n", `\t`, "\t")
)

// literals are the texts of line's string literals, unquoted.
func literals(line string, goFile bool) []string {
	re := reLiteral
	if goFile {
		re = reGoLiteral
	}
	var out []string
	for _, q := range re.FindAllString(line, -1) {
		if goFile {
			if s, err := strconv.Unquote(q); err == nil {
				out = append(out, s)
			}
			continue
		}
		out = append(out, unescape.Replace(q[1:len(q)-1]))
	}
	return out
}

// rawLines marks the lines of Go source src that are inside a raw string
// literal spanning lines, its first and last line included (a line
// holding a whole raw string is not marked: literals finds it). Comments
// and interpreted strings are skipped; their backquotes open nothing.
func rawLines(src []byte) []bool {
	out := make([]bool, 0, 64)
	line, start := 0, -1 // start: the line the open raw string began on
	mark := func(from, to int) {
		for len(out) <= to {
			out = append(out, false)
		}
		for l := from; l <= to; l++ {
			out[l] = true
		}
	}
	for k := 0; k < len(src); k++ {
		c := src[k]
		switch {
		case c == '\n':
			line++
		case start >= 0:
			if c == '`' {
				if line > start {
					mark(start, line)
				}
				start = -1
			}
		case c == '`':
			start = line
		case c == '/' && k+1 < len(src) && src[k+1] == '/':
			for k+1 < len(src) && src[k+1] != '\n' {
				k++
			}
		case c == '/' && k+1 < len(src) && src[k+1] == '*':
			for k += 2; k+1 < len(src) && !(src[k] == '*' && src[k+1] == '/'); k++ {
				if src[k] == '\n' {
					line++
				}
			}
			k++
		case c == '"' || c == '\'':
			for k++; k < len(src) && src[k] != c && src[k] != '\n'; k++ {
				if src[k] == '\\' {
					k++
				}
			}
			if k < len(src) && src[k] == '\n' {
				line++
			}
		}
	}
	return out
}

// quotes reports whether the query holds the message lit, its
// placeholders matching anything on one line, and how long lit's text is
// without them. A literal with little prose is no message.
func (r *Ranking) quotes(lit string, goFile bool) (int, bool) {
	if len(lit) < minMessagePart || !strings.Contains(lit, " ") {
		return 0, false
	}
	re := rePlaceholder
	if goFile {
		re = reGoPlaceholder
	}
	// %% is printed as %, and is no verb: kept out of the split.
	parts := re.Split(strings.ReplaceAll(lit, "%%", "\x00"), -1)
	for k, p := range parts {
		parts[k] = strings.ReplaceAll(p, "\x00", "%")
	}
	letters, longest := 0, ""
	for _, p := range parts {
		for _, c := range p {
			if 'a' <= c|0x20 && c|0x20 <= 'z' {
				letters++
			}
		}
		if len(p) > len(longest) {
			longest = p
		}
	}
	if letters < minMessageLetters || len(longest) < minMessagePart || !strings.Contains(longest, " ") || !strings.Contains(r.q.text, longest) {
		return 0, false
	}
	if goFile && strings.Contains(lit, "{{") {
		// A template's actions may print nothing or anything (an {{if}}
		// drops text): its longest text alone must be quoted, and be
		// long enough to be no accident.
		return len(longest), len(longest) >= 2*minMessagePart
	}
	pat := make([]string, len(parts))
	fixed := 0
	for k, p := range parts {
		pat[k] = regexp.QuoteMeta(p)
		fixed += len(p)
	}
	re, err := regexp.Compile(strings.Join(pat, `.{0,200}?`))
	if err != nil || !re.MatchString(r.q.text) {
		return 0, false
	}
	return fixed, true
}

// inTestHelper reports whether line of file i is inside a Go function
// that takes a *testing.T (or TB, B, F): an assertion package's message.
func (r *Ranking) inTestHelper(i, line int) bool {
	o := r.outlineOf(i)
	if o == nil {
		return false
	}
	for _, s := range o.syms {
		if line >= s.start && line <= s.end && reTestingParam.MatchString(s.sig) {
			return true
		}
	}
	return false
}

// reTestingParam finds a parameter of a testing type in a signature.
var reTestingParam = regexp.MustCompile(`\*?testing\.(?:T|TB|B|F)\b`)

// messageCaller reaches the one caller, in its package, of the Go
// function holding line of file i (a message it writes), at the least
// weight that makes it a focus: kong's "duplicate flag %s" is written by
// buildField, and the fix is in buildNode, which hands it the flags seen
// so far. A function called from several places says nothing of which.
func (r *Ranking) messageCaller(i, line int) {
	if !r.goCode(i) {
		return
	}
	o := r.factsOf(i)
	if o == nil {
		return
	}
	var fn symbol
	for _, s := range o.syms {
		if strings.HasPrefix(s.sig, "func ") && s.start <= line && line <= s.end {
			fn = s
		}
	}
	if fn.name == "" {
		return
	}
	var callers [][2]int
	for _, df := range r.dirFiles(path.Dir(r.ix.paths[i])) {
		if !r.goCode(df.i) || !r.callsName(df, fn.name) {
			continue
		}
		of := r.factsOf(df.i)
		if of == nil {
			continue
		}
		for _, s := range of.syms {
			if slices.Contains(s.callees, fn.name) && (df.i != i || s.decl != fn.decl) {
				callers = append(callers, [2]int{df.i, s.decl})
			}
		}
	}
	if len(callers) == 1 {
		r.reached.at(callers[0][0], callers[0][1], minFocusReach)
	}
}
