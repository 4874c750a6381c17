package verify

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	// surefireNew: "[ERROR] com.example.AppTest.testFoo -- Time elapsed: 0.01 s <<< FAILURE!"
	surefireNew = regexp.MustCompile(`^(?:\[ERROR\] )?([\w.$]+)\.([\w$]+)(?:\(\))? +-- +Time elapsed.*<<< (?:FAILURE|ERROR)!`)
	// surefireOld: "testFoo(com.example.AppTest)  Time elapsed: 0.01 sec  <<< FAILURE!"
	surefireOld = regexp.MustCompile(`^(?:\[ERROR\] )?([\w$]+)\(([\w.$]+)\) +Time elapsed.*<<< (?:FAILURE|ERROR)!`)
	// gradleFailed: "AppTest > testFoo() FAILED" (class may be qualified).
	gradleFailed = regexp.MustCompile(`^([\w.$]+) > (.+?) FAILED$`)
	// jvmFrame: "at com.example.AppTest.testFoo(AppTest.java:12)".
	jvmShortFrame = regexp.MustCompile(`(?m) at ([\w$]+\.(?:java|kt|scala|groovy)):(\d+)$`)
	jvmFrame      = regexp.MustCompile(`at (?:[\w.]+//)?([\w.$]+)\.[\w$<>]+\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)`)
)

// jvmFailures parses Maven surefire's per-test "<<< FAILURE!" blocks and
// Gradle's "Class > test FAILED" blocks.
func jvmFailures(out, root string) []Failure {
	var fs []Failure
	var cur *Failure
	var body strings.Builder
	indented := false // gradle blocks are the indented lines that follow
	flush := func() {
		if cur != nil {
			cur.Output = body.String()
			for _, m := range jvmFrame.FindAllStringSubmatch(cur.Output, -1) {
				if !sameClass(m[1], cur.Package) {
					continue
				}
				if file := findJVMSource(root, m[1], m[2]); file != "" {
					cur.File, cur.Line = file, atoi(m[3])
					break
				}
			}
			// Gradle's short form: "java.lang.ArithmeticException at CalcTest.java:19".
			if m := jvmShortFrame.FindStringSubmatch(cur.Output); cur.File == "" && m != nil {
				if file := findJVMSource(root, cur.Package, m[1]); file != "" {
					cur.File, cur.Line = file, atoi(m[2])
				}
			}
			fs = append(fs, *cur)
		}
		cur, body = nil, strings.Builder{}
	}
	seen := map[string]bool{}
	for _, line := range strings.SplitAfter(out, "\n") {
		trim := strings.TrimRight(line, "\r\n")
		var class, test string
		if m := surefireNew.FindStringSubmatch(trim); m != nil {
			class, test = m[1], m[2]
		} else if m := surefireOld.FindStringSubmatch(trim); m != nil {
			class, test = m[2], m[1]
		} else if m := gradleFailed.FindStringSubmatch(trim); m != nil {
			class, test = m[1], strings.TrimSuffix(m[2], "()")
			flush()
			cur = &Failure{Test: test, Package: class}
			indented = true
			body.WriteString(line)
			continue
		}
		if class != "" {
			flush()
			if seen[class+"."+test] {
				continue
			}
			seen[class+"."+test] = true
			cur = &Failure{Test: test, Package: class}
			indented = false
			body.WriteString(line)
			continue
		}
		if cur == nil {
			continue
		}
		end := trim == "" || strings.HasPrefix(trim, "[INFO]") || strings.HasPrefix(trim, "[ERROR]") || strings.HasPrefix(trim, "[WARNING]")
		if indented {
			end = trim != "" && !strings.HasPrefix(trim, " ") && !strings.HasPrefix(trim, "\t")
		}
		if end {
			flush()
			continue
		}
		body.WriteString(line)
	}
	flush()
	return fs
}

// findJVMSource finds the source file of class (a.b.C$Inner) named file in
// the repository, preferring the conventional source roots.
func findJVMSource(root, class, file string) string {
	pkg := class
	if i := strings.LastIndexByte(pkg, '.'); i >= 0 {
		pkg = pkg[:i]
	} else {
		pkg = ""
	}
	suffix := filepath.Join(filepath.FromSlash(strings.ReplaceAll(pkg, ".", "/")), file)
	for _, dir := range []string{"src/test/java", "src/main/java", "src/test/kotlin", "src/main/kotlin", "app/src/test/java", "."} {
		if fileExists(root, filepath.Join(dir, suffix)) {
			return filepath.ToSlash(filepath.Clean(filepath.Join(dir, suffix)))
		}
	}
	found := ""
	visited := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		visited++
		if err != nil || found != "" || visited > 20000 {
			return filepath.SkipAll
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "target" || d.Name() == "build") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, string(filepath.Separator)+suffix) {
			found, _ = filepath.Rel(root, path)
			return filepath.SkipAll
		}
		return nil
	})
	return filepath.ToSlash(found)
}

// sameClass reports whether the class of a stack frame (possibly an inner
// class, a$b) is the test class, which Gradle may print unqualified.
func sameClass(frame, test string) bool {
	frame, _, _ = strings.Cut(frame, "$")
	return frame == test || strings.HasSuffix(frame, "."+test)
}
