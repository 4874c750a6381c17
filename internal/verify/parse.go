package verify

import (
	"path"
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
	if len(argv) > 1 {
		sub = argv[1]
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
	return []textParser{goTextFailures, pytestFailures, tapFailures, jestFailures, vitestFailures, cargoFailures, jvmFailures, goCompileFailures}
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
