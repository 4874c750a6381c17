package verify

import (
	"fmt"
	"path"
	"strings"
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
	return argv, nil
}

// Allowed reports whether argv may run: it must start with the tokens of an
// allowlist entry, must not start a shell or interpreter with inline code,
// and must not pass a flag that makes the tool run another program.
func Allowed(argv []string, extraAllow []string) error {
	cmd := strings.Join(argv, " ")
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
	"go":      {"exec", "toolexec", "vettool"},
	"npm":     {"script-shell", "shell", "node-options"},
	"pnpm":    {"script-shell", "shell", "node-options"},
	"yarn":    {"script-shell", "shell", "node-options"},
	"npx":     {"c", "call", "shell", "script-shell", "node-options"},
	"cargo":   {"config", "Z"},
	"make":    {"f", "file", "makefile", "eval", "E"},
	"gradle":  {"init-script", "I"},
	"gradlew": {"init-script", "I"},
	"mvn":     {"s", "settings", "gs", "global-settings"},
	"dotnet":  {"logger-path"},
	"bundle":  {"gemfile"},
	"mix":     {"eval"},
	"pytest":  {"pdbcls"},
}

func runsAnotherProgram(argv []string) string {
	tool := path.Base(argv[0])
	if shells[tool] {
		return fmt.Sprintf("%s runs other commands; name the test command itself", tool)
	}
	// Interpreter options end at the first non-flag or -m: what follows
	// belongs to the script or module (pytest's own -c is a config file).
	for _, arg := range argv[1:] {
		if arg == "-m" || !strings.HasPrefix(arg, "-") {
			break
		}
		if hasFlag(arg, inlineCode[tool]) {
			return fmt.Sprintf("%s %s runs code given on the command line", tool, arg)
		}
	}
	for _, arg := range argv[1:] {
		if tool == "make" && !strings.HasPrefix(arg, "-") {
			for _, v := range []string{"SHELL=", ".SHELLFLAGS=", "MAKESHELL="} {
				if strings.HasPrefix(arg, v) {
					return fmt.Sprintf("make variable %s would replace the shell make runs recipes with", strings.TrimSuffix(v, "="))
				}
			}
		}
		if hasFlag(arg, execFlags[tool]) {
			return fmt.Sprintf("flag %s makes %s run another program", arg, tool)
		}
	}
	return ""
}

// hasFlag reports whether arg is one of flags, given as -name, --name or
// -name=value; a one-letter flag also matches with its value attached
// (-fMakefile).
func hasFlag(arg string, flags []string) bool {
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return false
	}
	single := !strings.HasPrefix(arg, "--")
	name := strings.TrimLeft(arg, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	for _, f := range flags {
		if name == f || (single && len(f) == 1 && strings.HasPrefix(name, f)) {
			return true
		}
	}
	return false
}
