package verify

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strings"
)

// goEvent is one line of `go test -json` (cmd/test2json), including the
// build-output and build-fail actions go 1.24 added, as encoding/json
// decodes it when decodeEvent cannot.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string
	FailedBuild string
}

// goTestState is what the stream said about one test.
type goTestState struct {
	pkg, name string
	action    string     // run, pass, fail, skip
	out       *capBuffer // nil until it prints, and again once it passes
}

// goJSON consumes a `go test -json` stream. It writes the plain text of the
// stream (what go test would have printed without -json) to out and keeps,
// per test and per package, enough output to explain a failure.
type goJSON struct {
	out     io.Writer
	partial []byte

	tests     map[testKey]*goTestState
	testOrder []testKey
	strs      map[string]string
	pkgOut    map[string]*capBuffer
	pkgOrder  []string
	pkgFail   map[string]string // package -> FailedBuild ("" for a test failure)
	build     map[string]*capBuffer
	other     *capBuffer // lines that were not events: go command errors
}

// perFailureCap bounds the output kept for one test or package.
const perFailureCap = 16 << 10

// maxPartialLine is how long an unterminated line may grow before it is
// passed on as text.
const maxPartialLine = 1 << 20

func newGoJSON(out io.Writer) *goJSON {
	return &goJSON{
		out:     out,
		tests:   map[testKey]*goTestState{},
		strs:    map[string]string{},
		pkgOut:  map[string]*capBuffer{},
		pkgFail: map[string]string{},
		build:   map[string]*capBuffer{},
		other:   newCapBuffer(perFailureCap),
	}
}

// Write takes any chunk of the stream; events are handled line by line.
func (g *goJSON) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			g.partial = append(g.partial, p...)
			if len(g.partial) > maxPartialLine {
				g.text(g.partial)
				g.partial = g.partial[:0]
			}
			break
		}
		line := p[:i+1]
		if len(g.partial) > 0 {
			line = append(g.partial, line...)
			g.partial = g.partial[:0]
		}
		g.line(line)
		p = p[i+1:]
	}
	return n, nil
}

// Flush handles a last line without a newline.
func (g *goJSON) Flush() {
	if len(g.partial) > 0 {
		g.line(g.partial)
		g.partial = nil
	}
}

func (g *goJSON) line(line []byte) {
	var e rawEvent
	if len(line) == 0 || line[0] != '{' {
		g.text(line)
		return
	}
	if !decodeEvent(line, &e) {
		var slow goEvent
		if json.Unmarshal(line, &slow) != nil {
			g.text(line)
			return
		}
		e = rawEvent{[]byte(slow.Action), []byte(slow.Package), []byte(slow.Test), []byte(slow.Output), []byte(slow.ImportPath), []byte(slow.FailedBuild)}
	}
	switch string(e.Action) {
	case "":
		g.text(line)
	case "build-output":
		g.buf(g.build, g.intern(e.ImportPath)).Write(e.Output)
		g.out.Write(e.Output)
	case "run":
		g.test(e.Package, e.Test).action = "run"
	case "output":
		if len(e.Test) > 0 {
			// "=== RUN" and friends say nothing a failure needs.
			if !bytes.HasPrefix(e.Output, []byte("=== ")) {
				t := g.test(e.Package, e.Test)
				if t.out == nil {
					t.out = newCapBuffer(perFailureCap)
				}
				t.out.Write(e.Output)
			}
		} else {
			g.pkg(g.intern(e.Package)).Write(e.Output)
		}
		g.out.Write(e.Output)
	case "pass", "skip", "fail":
		action := string(e.Action)
		if len(e.Test) > 0 {
			t := g.test(e.Package, e.Test)
			t.action = action
			if action != "fail" {
				t.out = nil // a passing test's output is never shown: free it
			}
		} else if action == "fail" {
			pkg := g.intern(e.Package)
			g.pkg(pkg)
			g.pkgFail[pkg] = string(e.FailedBuild)
		}
	}
}

// intern returns b as a string, allocating once per distinct value:
// package and test names repeat on every event.
func (g *goJSON) intern(b []byte) string {
	if s, ok := g.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	g.strs[s] = s
	return s
}

// text is a line that is not an event: passed through and kept.
func (g *goJSON) text(line []byte) {
	g.out.Write(line)
	g.other.Write(line)
}

func (g *goJSON) test(pkg, name []byte) *goTestState {
	k := testKey{g.intern(pkg), g.intern(name)}
	t := g.tests[k]
	if t == nil {
		t = &goTestState{pkg: k.pkg, name: k.name}
		g.tests[k] = t
		g.testOrder = append(g.testOrder, k)
	}
	return t
}

// testKey names a test in the stream.
type testKey struct{ pkg, name string }

func (g *goJSON) pkg(pkg string) *capBuffer {
	if _, ok := g.pkgOut[pkg]; !ok {
		g.pkgOrder = append(g.pkgOrder, pkg)
	}
	return g.buf(g.pkgOut, pkg)
}

func (g *goJSON) buf(m map[string]*capBuffer, k string) *capBuffer {
	b := m[k]
	if b == nil {
		b = newCapBuffer(perFailureCap)
		m[k] = b
	}
	return b
}

// failures are the failing leaf tests, the tests still running when the
// binary died or was killed, the packages that failed outside any test,
// and the builds that failed, in stream order.
func (g *goJSON) failures(loc *goLocator, killed bool) []Failure {
	g.Flush()
	var fs []Failure
	hasChild := func(t *goTestState, action string) bool {
		for _, k := range g.testOrder {
			c := g.tests[k]
			if c.pkg == t.pkg && c.action == action && strings.HasPrefix(c.name, t.name+"/") {
				return true
			}
		}
		return false
	}
	failedTests := map[string]bool{}
	for _, k := range g.testOrder {
		t := g.tests[k]
		switch {
		case t.action == "fail" && !hasChild(t, "fail"):
		case t.action == "run" && (killed || g.pkgFailed(t.pkg)) && !hasChild(t, "run"):
			if t.out == nil {
				t.out = newCapBuffer(perFailureCap)
			}
			t.out.Write([]byte("(agentfix: this test was still running when its test binary ended or was killed)\n"))
		default:
			continue
		}
		out := ""
		if t.out != nil {
			out = t.out.String()
		}
		f := Failure{Test: t.name, Package: t.pkg, Output: loc.trimTrace(out)}
		f.File, f.Line = loc.testLocation(t.pkg, out)
		fs = append(fs, f)
		failedTests[t.pkg] = true
	}
	seenBuild := map[string]bool{}
	for _, pkg := range g.pkgOrder {
		fb, failed := g.pkgFail[pkg]
		if !failed {
			continue
		}
		if fb != "" {
			if seenBuild[fb] {
				continue
			}
			seenBuild[fb] = true
			out := ""
			if b := g.build[fb]; b != nil {
				out = b.String()
			}
			f := Failure{Package: importPathOnly(fb), Output: out}
			if cf := goCompileFailures(out, loc.root); len(cf) > 0 {
				f.File, f.Line = cf[0].File, cf[0].Line
			}
			fs = append(fs, f)
			continue
		}
		if failedTests[pkg] {
			continue
		}
		out := g.pkgOut[pkg].String()
		f := Failure{Package: pkg, Output: loc.trimTrace(out)}
		f.File, f.Line = loc.testLocation(pkg, out)
		fs = append(fs, f)
	}
	// Builds that failed without a package event naming them (go vet of a
	// dependency, for instance).
	var rest []string
	for ip := range g.build {
		if !seenBuild[ip] && strings.Contains(g.build[ip].String(), ".go:") {
			rest = append(rest, ip)
		}
	}
	sort.Strings(rest)
	for _, ip := range rest {
		out := g.build[ip].String()
		f := Failure{Package: importPathOnly(ip), Output: out}
		if cf := goCompileFailures(out, loc.root); len(cf) > 0 {
			f.File, f.Line = cf[0].File, cf[0].Line
		}
		fs = append(fs, f)
	}
	if len(fs) == 0 && g.other.String() != "" {
		fs = append(fs, Failure{Output: g.other.String()})
	}
	return fs
}

func (g *goJSON) pkgFailed(pkg string) bool {
	_, ok := g.pkgFail[pkg]
	return ok
}

// importPathOnly drops the " [pkg.test]" variant suffix go adds.
func importPathOnly(ip string) string {
	if i := strings.IndexByte(ip, ' '); i >= 0 {
		return ip[:i]
	}
	return ip
}

// passing returns the IDs of the tests that passed.
func (g *goJSON) passing() map[string]bool {
	ids := map[string]bool{}
	for _, k := range g.testOrder {
		if t := g.tests[k]; t.action == "pass" {
			ids[Failure{Test: t.name, Package: t.pkg}.ID()] = true
		}
	}
	return ids
}
