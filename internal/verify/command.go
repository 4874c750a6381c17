package verify

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// BuiltinAllow is the default allowlist: a command may run only if its argv
// starts with one of these token sequences (or one from verify.allow).
var BuiltinAllow = []string{
	"go test", "go vet", "go build",
	"npm test", "npm run test", "pnpm test", "yarn test", "npx vitest run", "npx jest",
	"pytest", "python -m pytest", "python3 -m pytest",
	"cargo test", "cargo check", "cargo clippy",
	"make test", "make check",
	"mvn test", "gradle test", "./gradlew test",
	"dotnet test", "bundle exec rspec", "mix test",
}

// RefusedError says why a command may not run. It is a configuration or
// usage problem, never a test failure.
type RefusedError struct {
	Command string
	Reason  string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("command %q refused: %s", e.Command, e.Reason)
}

// ParseCommand splits cmd into argv with shell-style quoting and checks it
// against the built-in allowlist plus extraAllow. It never runs anything;
// the argv it returns is run directly, without a shell.
func ParseCommand(cmd string, extraAllow []string) ([]string, error) {
	argv, err := Split(cmd)
	if err != nil {
		return nil, err
	}
	if err := Allowed(argv, extraAllow); err != nil {
		return nil, err
	}
	return argv, nil
}

// Split turns a command line into argv the way a POSIX shell would quote
// it, but refuses everything that would make a shell do more than quote:
// operators, redirections, newlines, command substitution anywhere, and
// variable expansion outside single quotes.
func Split(cmd string) ([]string, error) {
	refuse := func(reason string) ([]string, error) {
		return nil, &RefusedError{Command: cmd, Reason: reason}
	}
	if strings.TrimSpace(cmd) == "" {
		return refuse("the command is empty")
	}
	if strings.Contains(cmd, "$(") {
		return refuse("command substitution $( ) is not allowed")
	}
	if strings.Contains(cmd, "`") {
		return refuse("command substitution with backticks is not allowed")
	}
	if strings.ContainsAny(cmd, "\n\r") {
		return refuse("a newline would start a second command")
	}
	if !utf8.ValidString(cmd) {
		return refuse("the command is not valid UTF-8")
	}
	for _, r := range cmd {
		if (r < 0x20 && r != '\t') || r == 0x7f {
			return refuse(fmt.Sprintf("control character %U is not allowed", r))
		}
	}
	var (
		argv   []string
		cur    strings.Builder
		inWord bool
		rs     = []rune(cmd)
		isName = func(r rune) bool {
			return r == '_' || r == '{' || r == '?' || r == '@' || r == '*' || r == '#' || r == '!' || r == '$' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		}
		dollarX = func(i int) bool { return rs[i] == '$' && i+1 < len(rs) && isName(rs[i+1]) }
	)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t':
			if inWord {
				argv = append(argv, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '\'':
			inWord = true
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j == len(rs) {
				return refuse("unterminated single quote")
			}
			cur.WriteString(string(rs[i+1 : j]))
			i = j
		case r == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[j+1]) {
					j++
					cur.WriteRune(rs[j])
					continue
				}
				if dollarX(j) {
					return refuse("variable expansion is not allowed (quote it in single quotes)")
				}
				cur.WriteRune(rs[j])
			}
			if j == len(rs) {
				return refuse("unterminated double quote")
			}
			i = j
		case r == '\\':
			if i+1 == len(rs) {
				return refuse("trailing backslash")
			}
			inWord = true
			i++
			cur.WriteRune(rs[i])
		case strings.ContainsRune(";&|<>()", r):
			return refuse(fmt.Sprintf("shell operator %q is not allowed (commands run without a shell)", string(r)))
		case r == '#' && !inWord:
			return refuse("shell comments are not allowed")
		case dollarX(i):
			return refuse("variable expansion is not allowed (quote it in single quotes)")
		default:
			inWord = true
			cur.WriteRune(r)
		}
	}
	if inWord {
		argv = append(argv, cur.String())
	}
	if len(argv) == 0 {
		return refuse("the command is empty")
	}
	// An escaped or quoted "$(" or backtick ($\(, "\`") is no substitution
	// here, but the command could not be written back (Join) without one.
	for _, a := range argv {
		if strings.Contains(a, "$(") || strings.Contains(a, "`") {
			return refuse(fmt.Sprintf("%q would be command substitution when the command is written back; it is not allowed even escaped or quoted", a))
		}
	}
	return argv, nil
}

// Allowed reports whether argv may run: it must start with the tokens of an
// allowlist entry, must not start a shell or interpreter with inline code,
// and must not pass a flag that makes the tool run another program.
func Allowed(argv []string, extraAllow []string) error {
	cmd := Join(argv)
	refuse := func(reason string) error { return &RefusedError{Command: cmd, Reason: reason} }
	if len(argv) == 0 {
		return refuse("the command is empty")
	}
	if reason := runsAnotherProgram(argv); reason != "" {
		return refuse(reason)
	}
	for _, entry := range append(append([]string(nil), BuiltinAllow...), extraAllow...) {
		prefix, err := Split(entry)
		if err != nil || len(prefix) > len(argv) {
			continue
		}
		match := true
		for i, tok := range prefix {
			if argv[i] != tok {
				match = false
				break
			}
		}
		if match {
			return nil
		}
	}
	return refuse("not on the allowlist; add its prefix to verify.allow in .github/agent-fix.yml if it is safe to run")
}

// shells run their arguments as code; they are refused whatever the
// allowlist says.
var shells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "fish": true, "csh": true, "tcsh": true,
	"env": true, "xargs": true, "eval": true, "exec": true, "sudo": true, "su": true, "doas": true,
	"nohup": true, "nice": true, "time": true, "timeout": true, "busybox": true, "watch": true, "script": true,
}

// inlineCode are interpreters with the flags that take code on the command line.
var inlineCode = map[string][]string{
	"python": {"c"}, "python3": {"c"}, "node": {"e", "eval", "p", "print"},
	"perl": {"e", "E"}, "ruby": {"e"}, "php": {"r"},
}

// execFlags are flags that make an allowlisted tool run a program of the
// caller's choosing.
var execFlags = map[string][]string{
	// -ldflags is checked for -extld separately; gccgo takes -wrapper.
	"go": {"exec", "toolexec", "vettool", "compiler", "gccgoflags"},
	// npm reads any config as --key=value; these name programs or config
	// files (which could name programs) or move the project elsewhere.
	"npm":  {"script-shell", "shell", "node-options", "userconfig", "globalconfig", "prefix", "C", "onload-script", "git", "editor", "browser", "viewer"},
	"pnpm": {"script-shell", "shell", "node-options", "userconfig", "globalconfig", "prefix", "C", "dir", "git", "editor"},
	"yarn": {"script-shell", "shell", "node-options", "userconfig", "globalconfig", "prefix", "cwd", "git", "editor", "use-yarnrc", "rc-filename"},
	"npx":  {"c", "call", "shell", "script-shell", "node-options", "userconfig", "globalconfig", "prefix", "p", "package"},
	// --manifest-path points at another crate, whose build.rs runs.
	"cargo": {"config", "Z", "manifest-path"},
	// -C runs another directory's Makefile.
	"make": {"f", "file", "makefile", "eval", "E", "C", "directory", "I", "include-dir"},
	// init scripts, settings files and a user home with init.d all run code.
	"gradle":  {"init-script", "I", "settings-file", "c", "build-file", "b", "gradle-user-home", "g", "project-dir", "p", "include-build"},
	"gradlew": {"init-script", "I", "settings-file", "c", "build-file", "b", "gradle-user-home", "g", "project-dir", "p", "include-build"},
	// settings and toolchains files can name other JDKs and repositories.
	"mvn":    {"s", "settings", "gs", "global-settings", "t", "toolchains", "gt", "global-toolchains", "f", "file"},
	"dotnet": {"logger-path", "test-adapter-path", "a"},
	"bundle": {"gemfile"},
	"mix":    {"eval"},
	"pytest": {"pdbcls", "basetemp"},
}

// jvmProperties are -D/-P system properties that choose another JVM or
// add agents and extensions.
var jvmProperties = []string{"jvm", "argLine", "maven.ext.class.path", "exec.executable", "org.gradle.java.home", "org.gradle.jvmargs", "java.home", "org.gradle.java.installations.paths", "javaagent"}

func runsAnotherProgram(argv []string) string {
	if strings.Contains(argv[0], "=") {
		return fmt.Sprintf("%s sets a variable for the command; commands run with the configured environment only", argv[0])
	}
	tool := path.Base(argv[0])
	if shells[tool] {
		return fmt.Sprintf("%s runs other commands; name the test command itself", tool)
	}
	// Interpreter options end at the first non-flag or -m: what follows
	// belongs to the script or module (pytest's own -c is a config file).
	// Short options cluster (python -Bc, perl -ne), so every letter counts.
	for i := 1; i < len(argv); i++ {
		arg := argv[i]
		if arg == "-m" || !strings.HasPrefix(arg, "-") || arg == "--" {
			break
		}
		if hasFlag(arg, inlineCode[tool], true) || clusterHas(arg, inlineCode[tool], interpValueFlags[tool]) {
			return fmt.Sprintf("%s %s runs code given on the command line", tool, arg)
		}
		if strings.ContainsAny(strings.TrimLeft(arg, "-"), interpValueFlags[tool]) && !strings.Contains(arg, "=") && len(arg) == 2 {
			i++ // -W ignore: skip the value
		}
	}
	// pytest is reached as "python -m pytest" too.
	if (tool == "python" || tool == "python3") && len(argv) > 2 && argv[1] == "-m" {
		tool = argv[2]
	}
	for i, arg := range argv[1:] {
		if tool == "go" && (arg == "-args" || arg == "--args") {
			break // the rest goes to the test binary, which is the repo's code
		}
		if tool == "cargo" && arg == "--" {
			break // the rest goes to libtest
		}
		if tool == "make" && !strings.HasPrefix(arg, "-") && strings.Contains(arg, "=") {
			return fmt.Sprintf("make variable override %s could replace the programs recipes run", arg)
		}
		if hasFlag(arg, execFlags[tool], attachedValues[tool]) {
			return fmt.Sprintf("flag %s makes %s run another program", arg, tool)
		}
		if tool == "go" && strings.Contains(strings.TrimLeft(arg, "-"), "ldflags") {
			if v := flagValue(argv[1:], i); strings.Contains(v, "extld") {
				return fmt.Sprintf("flag %s %s makes the linker run another program", arg, v)
			}
		}
		if (tool == "mvn" || tool == "gradle" || tool == "gradlew") && (strings.HasPrefix(arg, "-D") || strings.HasPrefix(arg, "-P")) {
			name, _, _ := strings.Cut(arg[2:], "=")
			for _, p := range jvmProperties {
				if strings.EqualFold(name, p) {
					return fmt.Sprintf("property %s could make %s run another JVM or agent", arg, tool)
				}
			}
		}
		if tool == "npx" && (strings.HasPrefix(arg, "--config={") || (arg == "--config" || arg == "-c") && strings.HasPrefix(flagValue(argv[1:], i), "{")) {
			return "an inline configuration may name programs to load; use a configuration file in the repository"
		}
		if p := outsidePath(arg); p != "" {
			return fmt.Sprintf("argument %s names a path outside the repository (%s); commands may only use paths inside it", arg, p)
		}
	}
	return ""
}

// flagValue is the value of the flag at argv[i]: after "=", or the next
// argument.
func flagValue(argv []string, i int) string {
	if _, v, ok := strings.Cut(argv[i], "="); ok {
		return v
	}
	if i+1 < len(argv) {
		return argv[i+1]
	}
	return ""
}

// outsidePath returns the path in arg (the argument itself, or a flag's
// value after "=") when it is absolute or climbs out with "..": a test
// command has no business with files outside the repository. /dev/null is
// fine.
func outsidePath(arg string) string {
	p := arg
	if strings.HasPrefix(arg, "-") {
		_, v, ok := strings.Cut(arg, "=")
		if !ok {
			return ""
		}
		p = v
	}
	if p == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || (len(p) > 2 && p[1] == ':' && (p[2] == '/' || p[2] == '\\')) {
		return p
	}
	for _, el := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if el == ".." {
			return p
		}
	}
	return ""
}

// attachedValues are the tools whose one-letter flags take their value
// attached (-fMakefile, -Zflag, -Iinit.gradle); for the others (mvn -fae)
// a one-letter flag matches only on its own.
var attachedValues = map[string]bool{"make": true, "cargo": true, "gradle": true, "gradlew": true, "python": true, "python3": true}

// interpValueFlags are the interpreter options that take a value, which
// ends a cluster of short options.
var interpValueFlags = map[string]string{"python": "WXQm", "python3": "WXQm", "perl": "IlMmxCd", "ruby": "IrCxF", "node": "r"}

// clusterHas reports whether a cluster of short options (-Bc) holds one of
// the one-letter flags before an option that takes a value.
func clusterHas(arg string, flags []string, valueFlags string) bool {
	if strings.HasPrefix(arg, "--") || len(arg) < 2 {
		return false
	}
	for _, r := range arg[1:] {
		for _, f := range flags {
			if len(f) == 1 && rune(f[0]) == r {
				return true
			}
		}
		if strings.ContainsRune(valueFlags, r) {
			return false
		}
	}
	return false
}

// hasFlag reports whether arg is one of flags, given as -name, --name or
// -name=value; with attached, a one-letter flag also matches with its value
// attached (-fMakefile).
func hasFlag(arg string, flags []string, attached bool) bool {
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return false
	}
	single := !strings.HasPrefix(arg, "--")
	name := strings.TrimLeft(arg, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	for _, f := range flags {
		if name == f || (attached && single && len(f) == 1 && strings.HasPrefix(name, f)) {
			return true
		}
	}
	return false
}

// Join quotes argv back into one command line that Split turns into the
// same argv: words made only of safe characters stay as they are, others
// are single-quoted.
func Join(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = quote(a)
	}
	return strings.Join(parts, " ")
}

func quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-+=.,/:@%^", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
