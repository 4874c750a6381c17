package repoctx

import (
	"path"
	"regexp"
	"strings"
)

// The import statements at the head of a file of a language the Go parser
// does not read, for the look step (see importsRequest): a patch that adds
// an import edits those lines too.

// maxImportHead bounds the lines lightImports reads at the head of a file.
const maxImportHead = 400

// reImport matches the line that starts an import statement, by the
// language family of the file (see langFamilies).
var reImport = map[string]*regexp.Regexp{
	".py":   regexp.MustCompile(`^(?:import\s+\w|from\s+[\w.]+\s+import\b)`),
	".js":   regexp.MustCompile(`^(?:import\b\s*[\w{*'"(]|(?:const|let|var)\s+[\w{}\s,:]+=\s*require\s*\()`),
	".rs":   regexp.MustCompile(`^(?:pub(?:\([\w:\s]+\))?\s+)?(?:use\s+[\w:{*]|extern\s+crate\s+\w)`),
	".java": regexp.MustCompile(`^import\s+(?:static\s+)?[\w.*]+`),
	".c":    regexp.MustCompile(`^#\s*include\b`),
}

// reHeadSkip matches a line the head of a file may hold before and among
// its imports, by language family: a Python comment, a package clause, a
// shebang, a preprocessor guard, a directive string, an attribute.
var reHeadSkip = map[string]*regexp.Regexp{
	".py":   regexp.MustCompile(`^#`),
	".js":   regexp.MustCompile(`^(?:#!|['"]use (?:strict|client|server)['"];?$)`),
	".rs":   regexp.MustCompile(`^#!?\[`),
	".java": regexp.MustCompile(`^(?:package\s|@file:)`),
	".c":    regexp.MustCompile(`^#\s*(?:pragma|ifndef|define|if|endif)\b`),
}

// lightImports are the first and last lines (1-based) of the import
// statements at the head of file p, of lines, in a language of reImport;
// 0, 0 when it has none. The head is what comes before the first line
// that is neither an import (with the lines it continues on: an open
// bracket, a trailing backslash), nor blank, nor a comment, nor what
// reHeadSkip allows, nor a module's docstring.
func lightImports(p string, lines []string) (from, to int) {
	lang := strings.ToLower(path.Ext(p))
	if f, ok := langFamilies[lang]; ok {
		lang = f
	}
	starts, skip := reImport[lang], reHeadSkip[lang]
	if starts == nil {
		return 0, 0
	}
	inBlock := ""           // the closing mark of a block comment or docstring
	depth, more := 0, false // an import's open brackets; a continued line
head:
	for n := 0; n < len(lines) && n < maxImportHead; n++ {
		l := strings.TrimSpace(lines[n])
		switch {
		case depth > 0 || more:
			depth += brackets(l)
			more = strings.HasSuffix(l, "\\")
			to = n + 1
			continue
		case inBlock != "":
			if strings.Contains(l, inBlock) {
				inBlock = ""
			}
			continue
		case l == "" || strings.HasPrefix(l, "//"):
			continue
		case strings.HasPrefix(l, "/*") && lang != ".py":
			if !strings.Contains(l[2:], "*/") {
				inBlock = "*/"
			}
			continue
		case lang == ".py" && to == 0 && (strings.HasPrefix(l, `"""`) || strings.HasPrefix(l, "'''")):
			if mark := l[:3]; !strings.Contains(l[3:], mark) {
				inBlock = mark
			}
			continue
		case starts.MatchString(l):
			if from == 0 {
				from = n + 1
			}
			to = n + 1
			depth, more = brackets(l), strings.HasSuffix(l, "\\")
			continue
		case skip.MatchString(l):
			continue
		}
		break head
	}
	return from, to
}

// brackets is how many more brackets l opens than it closes.
func brackets(l string) int {
	return strings.Count(l, "(") + strings.Count(l, "{") + strings.Count(l, "[") -
		strings.Count(l, ")") - strings.Count(l, "}") - strings.Count(l, "]")
}
