package repoctx

import (
	"bytes"
	"regexp"
	"strings"
)

// lightOutline finds definition lines (see defName, and methodName for
// the languages of ext whose methods have no keyword); a definition ends
// before the next one indented no deeper, or, in those languages and
// Rust, when its body opens a brace, at the line that closes it at its
// indent.
func lightOutline(o *outline, ext string) {
	type open struct {
		indent int
		sym    int
	}
	ext = strings.ToLower(ext)
	methods := methodPatterns[ext]
	cLike := langFamilies[ext] == ".c"
	var stack []open
	for n, l := range o.lines {
		body := skipBlanks([]byte(l))
		if len(body) == 0 {
			continue
		}
		var name []byte
		if defStart[body[0]] {
			name = defName(body)
			// In C, struct T names a type wherever it is used: only
			// struct T { defines it.
			if cLike && name != nil && bytes.ContainsAny(body, "(=;*") {
				name = nil
			}
		}
		start := n
		if name == nil && methods != nil {
			line := string(body)
			if opensParams(body) {
				line = joinParams(o.lines, n)
			}
			name = methodName(methods, line)
			// C's return type on a line of its own, the name at the
			// start of the next (static int / sum(int a)).
			if name == nil && cLike && len(body) == len(l) && n > 0 && reCReturnType.MatchString(o.lines[n-1]) {
				if m := reCFuncName.FindStringSubmatch(line); m != nil && !notNames[m[1]] {
					name, start = []byte(m[1]), n-1
				}
			}
		}
		if name == nil {
			continue
		}
		indent := len(l) - len(body)
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			o.syms[stack[len(stack)-1].sym].end = start
			stack = stack[:len(stack)-1]
		}
		sym := symbol{name: string(name), sig: strings.TrimSpace(l), start: start + 1, decl: n + 1, end: len(o.lines)}
		if cLike {
			// A C++ method defined outside its class: Cart::total.
			if before, _, ok := strings.Cut(string(body), "::"+sym.name); ok {
				sym.recv = string(reTrailingIdent.Find([]byte(before)))
			}
		}
		o.syms = append(o.syms, sym)
		stack = append(stack, open{indent, len(o.syms) - 1})
	}
	// In a braced language, a definition ends where its brace closes, at
	// its indent: the last method of a class no longer runs to the next
	// definition.
	for k := range o.syms {
		s := &o.syms[k]
		if methods == nil && ext != ".rs" {
			break
		}
		at := bodyOpens(o.lines, s.decl-1)
		if at < 0 {
			continue
		}
		head := o.lines[s.start-1]
		indent := len(head) - len(skipBlanks([]byte(head)))
		for n := at + 1; n < s.end; n++ {
			l := o.lines[n]
			if body := skipBlanks([]byte(l)); len(body) > 0 && body[0] == '}' && len(l)-len(body) == indent {
				s.end = n + 1
				break
			}
		}
	}
	// Trim trailing blank lines off each definition.
	for k := range o.syms {
		s := &o.syms[k]
		for s.end > s.decl && strings.TrimSpace(o.lines[s.end-1]) == "" {
			s.end--
		}
		if len(s.sig) > 120 {
			s.sig = s.sig[:117] + "..."
		}
	}
}

var (
	// reCReturnType is a C function's return type on a line of its own.
	reCReturnType = regexp.MustCompile(`^[A-Za-z_][\w\s]*[\w*]\s*$`)
	// reCFuncName is a C function's name and parameters at the start of
	// a line.
	reCFuncName = regexp.MustCompile(`^([A-Za-z_]\w*)\s*\(([^;"']*)\)\s*\{?\s*$`)
	// reTrailingIdent is the identifier a text ends with.
	reTrailingIdent = regexp.MustCompile(`[A-Za-z_]\w*$`)
)

// maxParamLines bounds the lines a definition's parameters may span.
const maxParamLines = 24

// opensParams reports whether a line leaves a parenthesis open, as a
// definition whose parameters go on below does (total(, int sum(int a,).
func opensParams(line []byte) bool {
	return bytes.Count(line, []byte("(")) > bytes.Count(line, []byte(")")) && !bytes.HasSuffix(bytes.TrimSpace(line), []byte(";"))
}

// paramsEnd is the line, from line n on, that closes the parentheses line
// n opens (n itself when it closes them or opens none); -1 when none does
// within maxParamLines.
func paramsEnd(lines []string, n int) int {
	depth := 0
	for k := n; k < len(lines) && k < n+maxParamLines; k++ {
		depth += strings.Count(lines[k], "(") - strings.Count(lines[k], ")")
		if depth <= 0 {
			return k
		}
	}
	return -1
}

// bodyOpens is the line whose brace opens the body of the definition
// declared at line n: the one that closes its parameters when it ends in
// {, or a { alone on the line after it (C#, C); -1 when neither does.
func bodyOpens(lines []string, n int) int {
	if k := paramsEnd(lines, n); k >= 0 {
		return braceAt(lines, k)
	}
	return -1
}

// braceAt is the line whose brace opens a body after parameters that
// close on line k: k itself when it ends in {, or the next line when it
// is a { alone; -1 when neither.
func braceAt(lines []string, k int) int {
	switch {
	case strings.HasSuffix(strings.TrimSpace(lines[k]), "{"):
		return k
	case k+1 < len(lines) && strings.TrimSpace(lines[k+1]) == "{":
		return k + 1
	}
	return -1
}

// joinParams is line n of lines and the ones after it up to the one that
// closes its parentheses, as one line, ending in { when the body opens on
// the line after (C#, C). A call whose arguments span lines ends in ); or
// ).then(..., which no method pattern takes for a definition.
func joinParams(lines []string, n int) string {
	k := paramsEnd(lines, n)
	if k < 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range lines[n : k+1] {
		b.WriteString(strings.TrimSpace(l))
		b.WriteByte(' ')
	}
	if braceAt(lines, k) == k+1 {
		b.WriteByte('{')
	}
	return b.String()
}

// methodPatterns are, per extension, the definition lines of methods and
// functions that no keyword defStart knows starts: a JavaScript or
// TypeScript class's method (total(): number {), a function held by a
// name (const load = async (id) => {), a Java or C# method (public int
// total() {), Kotlin's fun. The name is the pattern's first group; a
// second is a method's parameters, which hold no string, callback or call
// (a call with a callback, describe("x", function () {, is no method).
var methodPatterns = func() map[string][]*regexp.Regexp {
	js := []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set|declare)\s+)*\*?\s*#?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(([^"'\x60]*)\)\s*(?::\s*[^{=;]+)?\{\s*$`),
		regexp.MustCompile(`^(?:export\s+)?(?:(?:public|private|protected|static|readonly)\s+)*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::\s*[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)`),
	}
	java := []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|override|virtual|async|sealed|default|extern|unsafe|partial)\s+)*(?:<[^>]+>\s+)?[\w.?\[\]]+(?:<.*>)?(?:\[\])*\s+([A-Za-z_]\w*)\s*\([^;]*\)\s*(?:throws\s+[\w.,\s]+)?\{?\s*$`),
	}
	// C and C++: a return type, then the name (Cart::total, ~Cart), then
	// parameters holding no string; not a declaration (;). A C++
	// constructor or destructor defined outside its class has no return
	// type (Cart::Cart(int n) : n_(n) {).
	c := []*regexp.Regexp{
		regexp.MustCompile(`^(?:[A-Za-z_]\w*::)+(~?[A-Za-z_]\w*)\s*\(([^;"']*)\)\s*(?::[^;]*)?\{?\s*$`),
		regexp.MustCompile(`^(?:template\s*<[^>]*>\s*)?[A-Za-z_][\w:<>,]*(?:[\s*&]+[A-Za-z_][\w:<>,]*)*[\s*&]+(?:[A-Za-z_]\w*::)*([A-Za-z_~]\w*)\s*\(([^;"']*)\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:->\s*[\w:<>*&\s]+)?\{?\s*$`),
	}
	kotlin := []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:public|private|protected|internal|open|override|abstract|final|suspend|inline|operator|infix|tailrec)\s+)*fun\s+(?:<[^>]+>\s+)?(?:[\w.<>]+\.)?([A-Za-z_]\w*)\s*\(`),
	}
	return map[string][]*regexp.Regexp{
		".js": js, ".jsx": js, ".mjs": js, ".cjs": js, ".ts": js, ".tsx": js,
		".java": java, ".cs": java, ".kt": kotlin,
		".c": c, ".h": c, ".cc": c, ".cpp": c, ".hpp": c,
	}
}()

// notNames are the words a method pattern can take for a name, or a
// Java method's for its type, that are statements or operators: if (x) {,
// else if (x) {, catch (e) {, new T() {.
var notNames = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"else": true, "do": true, "try": true, "with": true, "new": true, "typeof": true, "await": true,
	"yield": true, "function": true, "synchronized": true, "using": true, "lock": true,
	"foreach": true, "sizeof": true, "super": true, "this": true, "throw": true, "case": true,
}

// methodName is the name a line (from its first non-blank byte) defines
// by one of patterns, or nil.
func methodName(patterns []*regexp.Regexp, line string) []byte {
	for _, re := range patterns {
		if m := re.FindStringSubmatch(line); m != nil && !notNames[m[1]] && (len(m) < 3 || !strings.Contains(m[2], "function") && !strings.Contains(m[2], "=>") && !strings.Contains(m[2], ").")) {
			if w, _, _ := strings.Cut(line, " "); notNames[w] { // new T() {, as Java's type and name
				return nil
			}
			return []byte(m[1])
		}
	}
	return nil
}
