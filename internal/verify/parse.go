package verify

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// tool is the family of test runner a command belongs to, which decides
// how its output is parsed.
type tool int

const (
	toolOther tool = iota
	toolGoTest
	toolGoBuild // go build, go vet
	toolPytest
	toolJS
	toolCargo
	toolJVM
)

// toolFor recognises argv by its allowlisted prefix.
func toolFor(argv []string) tool {
	if len(argv) == 0 {
		return toolOther
	}
	sub := ""
	if k, _ := goSub(argv); k < len(argv) {
		sub = argv[k]
	}
	switch base := path.Base(argv[0]); base {
	case "go":
		if sub == "test" {
			return toolGoTest
		}
		if sub == "build" || sub == "vet" {
			return toolGoBuild
		}
	case "pytest", "py.test":
		return toolPytest
	case "python", "python3":
		if sub == "-m" && len(argv) > 2 && argv[2] == "pytest" {
			return toolPytest
		}
	case "npm", "npx", "pnpm", "yarn", "node", "bun", "deno":
		return toolJS
	case "cargo":
		return toolCargo
	case "mvn", "mvnw", "gradle", "gradlew":
		return toolJVM
	}
	return toolOther
}

type textParser func(out, root string) []Failure

// parsersFor lists the parsers to try for t, most likely first. A command
// that is not a known runner (make test, dotnet test, ...) may run any of
// them underneath, so it gets them all.
func parsersFor(t tool) []textParser {
	switch t {
	case toolGoBuild:
		return []textParser{goCompileFailures}
	case toolGoTest:
		return []textParser{goTextFailures, goCompileFailures}
	case toolPytest:
		return []textParser{pytestFailures}
	case toolJS:
		return []textParser{tapFailures, jestFailures, vitestFailures}
	case toolCargo:
		return []textParser{cargoFailures}
	case toolJVM:
		return []textParser{jvmFailures}
	}
	return []textParser{gotestsumFailures, goTextFailures, pytestFailures, tapFailures, jestFailures, vitestFailures, cargoFailures, jvmFailures, goCompileFailures}
}

// ansiEscape matches terminal colour and cursor sequences, which runners
// print even into pipes when they detect CI.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)`)

// stripANSI removes terminal escape sequences.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansiEscape.ReplaceAllString(s, "")
}

// ParseOutput is what verify makes of the text output of a failed
// command cmd run in root: its failures, parsed by the runner's text
// parser (for go test, of its output without -json, as make test or a CI
// log prints it), else the tail of the output.
func ParseOutput(cmd, out, root string) []Failure {
	argv, _ := Split(cmd)
	return textFailures(toolFor(argv), out, root)
}

// textFailures parses the output of a failed command: the first parser
// that finds failures wins, and the generic tail is the fallback.
func textFailures(t tool, out, root string) []Failure {
	out = stripANSI(out)
	for _, p := range parsersFor(t) {
		if fs := p(out, root); len(fs) > 0 {
			return fs
		}
	}
	return genericFailures(out, root)
}

// goSub is where a go command's subcommand is in argv (1, or 3 after
// "-C DIR", 2 after "-C=DIR": the go command takes -C first only), and
// the directory -C names, "" when none. For any other command it is 1.
func goSub(argv []string) (int, string) {
	if len(argv) < 2 || path.Base(argv[0]) != "go" {
		return 1, ""
	}
	switch a := argv[1]; {
	case a == "-C" || a == "--C":
		if len(argv) > 2 {
			return 3, argv[2]
		}
	case strings.HasPrefix(a, "-C=") || strings.HasPrefix(a, "--C="):
		_, dir, _ := strings.Cut(a, "=")
		return 2, dir
	}
	return 1, ""
}

// inGoDir is the repository path rel as the go command run with -C dir
// names it ("go/calc" in dir "go" is "calc"), and false when it lies
// outside dir. Without -C (dir "") it is rel.
func inGoDir(dir, rel string) (string, bool) {
	dir = path.Clean(strings.TrimPrefix(filepath.ToSlash(dir), "./"))
	if dir == "" || dir == "." {
		return rel, true
	}
	if rel == dir {
		return ".", true
	}
	r, ok := strings.CutPrefix(rel, dir+"/")
	return r, ok
}
