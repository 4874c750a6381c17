package verify

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Targeted builds the narrowest command that re-runs only failures, from
// the command that found them: for go test the failing packages' dirs and
// -run '^(TestA|TestB)$', for pytest the failing node ids, for cargo test
// the exact test names, for jest and vitest the files and -t. The flags of
// cmd are kept. It returns false when it cannot narrow cmd (another tool,
// a failure that names no test, a command it cannot split). The result
// must still pass ParseCommand; Run checks it again before running it.
func Targeted(cmd string, failures []Failure) (string, bool) {
	argv, err := Split(cmd)
	if err != nil || len(failures) == 0 {
		return "", false
	}
	var out []string
	var ok bool
	switch toolFor(argv) {
	case toolGoTest:
		out, ok = targetGo(argv, failures)
	case toolPytest:
		out, ok = targetPytest(argv, failures)
	case toolCargo:
		out, ok = targetCargo(argv, failures)
	case toolJS:
		out, ok = targetJS(argv, failures)
	}
	if !ok {
		return "", false
	}
	return Join(out), true
}

// goValueFlags are the go test and build flags that take a separate value.
var goValueFlags = flagSet("run", "skip", "bench", "benchtime", "count", "cpu", "parallel", "timeout",
	"coverprofile", "covermode", "coverpkg", "cpuprofile", "memprofile", "memprofilerate", "blockprofile",
	"blockprofilerate", "mutexprofile", "mutexprofilefraction", "trace", "outputdir", "o", "p", "tags",
	"ldflags", "gcflags", "asmflags", "gccgoflags", "mod", "modfile", "overlay", "pgo", "vet", "shuffle",
	"list", "fuzz", "fuzztime", "fuzzminimizetime", "installsuffix", "compiler", "buildmode", "exec",
	"toolexec", "C", "fuzzcachedir", "testlogfile", "vettool", "pkgdir")

func targetGo(argv []string, failures []Failure) ([]string, bool) {
	_, goDir := goSub(argv)
	var names, dirs []string
	seen := map[string]bool{}
	for _, f := range failures {
		if f.Test == "" || f.File == "" || strings.HasPrefix(f.File, "/") {
			return nil, false
		}
		top := strings.SplitN(f.Test, "/", 2)[0]
		if !seen["t"+top] {
			seen["t"+top] = true
			names = append(names, regexp.QuoteMeta(top))
		}
		// A panic is located where it happened, which may be another
		// package: the file's directory must be the test's package.
		file, ok := inGoDir(goDir, f.File)
		if !ok {
			return nil, false
		}
		d := path.Dir(file)
		if d != "." && f.Package != "" && !strings.HasSuffix(f.Package, "/"+d) {
			return nil, false
		}
		dir := "./" + d
		if d == "." {
			dir = "."
		}
		if !seen["d"+dir] {
			seen["d"+dir] = true
			dirs = append(dirs, dir)
		}
	}
	out, tail := goFlags(argv)
	out = append(out, dirs...)
	out = append(out, "-run", "^("+strings.Join(names, "|")+")$")
	return append(out, tail...), true
}

// goFlags is argv without its package patterns and -run, and what follows
// -args: the command a narrowed go test builds on.
func goFlags(argv []string) (out, tail []string) {
	k, _ := goSub(argv)
	out = slices.Clone(argv[:k+1])
	for i := k + 1; i < len(argv); i++ {
		a := argv[i]
		if a == "-args" || a == "--args" {
			tail = argv[i:]
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue // a package pattern: replaced by the failing dirs
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		separate := !hasValue && goValueFlags[name]
		if name == "run" || name == "json" {
			if separate {
				i++
			}
			continue
		}
		out = append(out, a)
		if separate && i+1 < len(argv) {
			i++
			out = append(out, argv[i])
		}
	}
	return out, tail
}

// pytestValueFlags take a separate value.
var pytestValueFlags = flagSet("k", "m", "c", "p", "o", "W", "r", "tb", "rootdir", "confcutdir", "basetemp",
	"maxfail", "deselect", "ignore", "ignore-glob", "junitxml", "junit-xml", "cov", "cov-report", "log-level",
	"durations", "n", "dist", "import-mode", "override-ini", "config-file", "color", "capture", "log-cli-level",
	"show-capture", "pyargs", "timeout")

func targetPytest(argv []string, failures []Failure) ([]string, bool) {
	out := pytestFlags(argv)
	seen := map[string]bool{}
	for _, f := range failures {
		if !strings.Contains(f.Test, "::") {
			return nil, false
		}
		if !seen[f.Test] {
			seen[f.Test] = true
			out = append(out, f.Test)
		}
	}
	return out, true
}

// pytestFlags is argv without its test selection (paths, -k, -m,
// --deselect): the command a narrowed pytest builds on.
func pytestFlags(argv []string) []string {
	start := 1
	if argv[0] != "pytest" && argv[0] != "py.test" {
		start = 3 // python -m pytest
	}
	out := append([]string(nil), argv[:start]...)
	for i := start; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		separate := !hasValue && pytestValueFlags[name]
		if name == "k" || name == "m" || name == "deselect" {
			if separate {
				i++
			}
			continue
		}
		out = append(out, a)
		if separate && i+1 < len(argv) {
			i++
			out = append(out, argv[i])
		}
	}
	return out
}

func targetCargo(argv []string, failures []Failure) ([]string, bool) {
	if len(argv) < 2 || argv[1] != "test" {
		return nil, false
	}
	cargoValue := flagSet("p", "package", "features", "F", "target", "j", "jobs", "manifest-path", "test",
		"bench", "bin", "example", "profile", "target-dir", "color", "message-format", "exclude")
	out := []string{argv[0], argv[1]}
	var after []string
	for i := 2; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			for _, b := range argv[i+1:] {
				if strings.HasPrefix(b, "-") && b != "--exact" {
					after = append(after, b)
				}
			}
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue // TESTNAME filter
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		out = append(out, a)
		if !hasValue && cargoValue[name] && i+1 < len(argv) {
			i++
			out = append(out, argv[i])
		}
	}
	out = append(out, "--")
	out = append(out, after...)
	out = append(out, "--exact")
	seen := map[string]bool{}
	for _, f := range failures {
		if f.Test == "" {
			return nil, false
		}
		if !seen[f.Test] {
			seen[f.Test] = true
			out = append(out, f.Test)
		}
	}
	return out, true
}

// targetJS narrows npx jest and npx vitest run; npm scripts hide what they
// run, so they are not narrowed.
func targetJS(argv []string, failures []Failure) ([]string, bool) {
	out, ok := jsFlags(argv)
	if !ok {
		return nil, false
	}
	var names, files []string
	seen := map[string]bool{}
	for _, f := range failures {
		if f.Test == "" || f.Package == "" {
			return nil, false
		}
		name := strings.NewReplacer(" › ", " ", " > ", " ").Replace(f.Test)
		if !seen["t"+name] {
			seen["t"+name] = true
			names = append(names, regexp.QuoteMeta(name))
		}
		if !seen["f"+f.Package] {
			seen["f"+f.Package] = true
			files = append(files, f.Package)
		}
	}
	out = append(out, files...)
	return append(out, "-t", "^(?:"+strings.Join(names, "|")+")$"), true
}

func flagSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// jsFlags is npx jest or npx vitest run without its test selection (files,
// -t): the command a narrowed run builds on. It returns false for every
// other JS command.
func jsFlags(argv []string) ([]string, bool) {
	var n int
	switch {
	case len(argv) >= 2 && argv[0] == "npx" && argv[1] == "jest":
		n = 2
	case len(argv) >= 3 && argv[0] == "npx" && argv[1] == "vitest" && argv[2] == "run":
		n = 3
	default:
		return nil, false
	}
	out := append([]string(nil), argv[:n]...)
	for i := n; i < len(argv); i++ {
		a := argv[i]
		if a == "-t" || a == "--testNamePattern" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--testNamePattern=") {
			out = append(out, a)
		}
	}
	return out, true
}
