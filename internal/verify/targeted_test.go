package verify

import "testing"

func TestTargeted(t *testing.T) {
	t.Parallel()
	goFails := []Failure{
		{Test: "TestA", Package: "example.com/m/pkg", File: "pkg/a_test.go", Line: 3},
		{Test: "TestB/sub case", Package: "example.com/m/pkg", File: "pkg/b_test.go", Line: 9},
		{Test: "TestC", Package: "example.com/m", File: "c_test.go", Line: 1},
		{Test: "TestA", Package: "example.com/m/pkg", File: "pkg/a_test.go", Line: 5},
	}
	for _, tc := range []struct {
		name, cmd string
		fails     []Failure
		want      string // "" when it cannot narrow
	}{
		{"go", "go test ./...", goFails, "go test ./pkg . -run '^(TestA|TestB|TestC)$'"},
		{"go keeps flags", "go test -race -count=1 -tags 'a b' -run Old -json ./... -args -update", goFails[:1],
			"go test -race -count=1 -tags 'a b' ./pkg -run '^(TestA)$' -args -update"},
		{"go quotes regexp characters", "go test ./...", []Failure{{Test: "Test_x.y", File: "x_test.go"}}, "go test . -run '^(Test_x\\.y)$'"},
		{"go panic in another package", "go test ./...", []Failure{{Test: "TestB", Package: "example.com/m/b", File: "a/a.go", Line: 3}}, ""},
		{"go build failure", "go test ./...", []Failure{{Package: "example.com/m", File: "a.go", Line: 2}}, ""},
		{"go without file", "go test ./...", []Failure{{Test: "TestA", Package: "example.com/m"}}, ""},
		{"go vet", "go vet ./...", goFails, ""},
		{"go -C DIR", "go -C go test -count=1 ./...", []Failure{{Test: "TestSum", Package: "example.com/calc/calc", File: "go/calc/sum_test.go", Line: 7}},
			"go -C go test -count=1 ./calc -run '^(TestSum)$'"},
		{"go -C DIR, a file outside DIR", "go -C go test ./...", []Failure{{Test: "TestSum", Package: "example.com/calc/calc", File: "calc/sum_test.go"}}, ""},
		{"pytest", "pytest -x -k slow --tb short tests", []Failure{{Test: "tests/test_a.py::test_b[1-2]"}, {Test: "tests/test_a.py::TestC::test_d"}},
			"pytest -x --tb short 'tests/test_a.py::test_b[1-2]' tests/test_a.py::TestC::test_d"},
		{"python -m pytest", "python3 -m pytest", []Failure{{Test: "t.py::test_x"}}, "python3 -m pytest t.py::test_x"},
		{"pytest collection error", "pytest", []Failure{{Package: "t.py", File: "t.py"}}, ""},
		{"cargo", "cargo test --features x smoke -- --nocapture", []Failure{{Test: "tests::a"}, {Test: "b"}},
			"cargo test --features x -- --nocapture --exact tests::a b"},
		{"jest", "npx jest --ci -t old src", []Failure{{Test: "sum › adds (1)", Package: "src/sum.test.js"}},
			`npx jest --ci src/sum.test.js -t '^(?:sum adds \(1\))$'`},
		{"vitest", "npx vitest run", []Failure{{Test: "sum > adds", Package: "vt/a.test.ts"}}, "npx vitest run vt/a.test.ts -t '^(?:sum adds)$'"},
		{"npm hides its command", "npm test", []Failure{{Test: "sub", Package: "test/a.js"}}, ""},
		{"no failures", "go test ./...", nil, ""},
		{"not a command", "go test ;", goFails, ""},
	} {
		got, ok := Targeted(tc.cmd, tc.fails)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("%s: Targeted(%q) = %q, %v; want %q", tc.name, tc.cmd, got, ok, tc.want)
			continue
		}
		if ok {
			if _, err := ParseCommand(got, []string{"go -C go test"}); err != nil {
				t.Errorf("%s: the targeted command is refused: %v", tc.name, err)
			}
		}
	}
}
