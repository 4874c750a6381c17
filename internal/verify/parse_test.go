package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree creates files (empty unless given) under a new directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "output", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestTextParsers runs each runner's recorded output through the parsers
// agentfix would pick for the command, and checks what each failure says.
func TestTextParsers(t *testing.T) {
	t.Parallel()
	java := map[string]string{"src/test/java/com/example/CalcTest.java": "", "src/main/java/com/example/Calc.java": ""}
	type want struct {
		test, pkg, file string
		line            int
		output          string // a part of the output
	}
	sumFiles := map[string]string{"go.mod": "module example.com/sumfail\n", "root_test.go": "", "calc/calc_test.go": "", "store/store.go": "", "store/store_test.go": "", "broken/broken.go": ""}
	sumWant := []want{
		{"TestRoot", "example.com/sumfail", "root_test.go", 5, "the root package fails too"},
		{"", "example.com/sumfail/broken", "broken/broken.go", 4, "broken/broken.go:4:36: undefined: factor"},
		{"TestSub", "example.com/sumfail/calc", "calc/calc_test.go", 8, "calc_test.go:6: checking Sub\n    calc_test.go:8: Sub(3, 1) = 4, want 2"},
		{"TestTable/one", "example.com/sumfail/calc", "calc/calc_test.go", 15, "Sub(2, 1) = 3, want 1"},
		{"TestAdd", "example.com/sumfail/store", "store/store.go", 7, "assignment to entry in nil map"},
	}
	for _, tc := range []struct {
		fixture string
		argv    string
		files   map[string]string
		want    []want
	}{
		{"cargo.txt", "cargo test", nil, []want{
			{"tests::panics", "calc", "src/lib.rs", 22, "index out of bounds"},
			{"tests::sub_works", "calc", "src/lib.rs", 11, "left: 4"},
		}},
		{"cargo-build.txt", "cargo test", nil, []want{
			{"", "", "src/lib.rs", 2, "cannot find value `c` in this scope"},
		}},
		{"jest.txt", "npx jest", map[string]string{"src/sum.test.js": ""}, []want{
			{"sum › adds 1 + 2 to equal 3", "src/sum.test.js", "src/sum.test.js", 5, "Received: -1"},
			{"top level fails", "src/sum.test.js", "src/sum.test.js", 13, "Expected: 4"},
		}},
		{"vitest.txt", "npx vitest run", nil, []want{
			{"sum > adds 1 + 2 to equal 3", "vt/sum.test.mjs", "vt/sum.test.mjs", 7, "expected -1 to be 3"},
			{"top level fails", "vt/sum.test.mjs", "vt/sum.test.mjs", 15, "expected +0 to be 4"},
		}},
		{"maven.txt", "mvn test", java, []want{
			{"subtracts", "com.example.CalcTest", "src/test/java/com/example/CalcTest.java", 14, "expected: <2> but was: <4>"},
			{"divides", "com.example.CalcTest", "src/test/java/com/example/CalcTest.java", 19, "/ by zero"},
		}},
		{"maven-old.txt", "mvn test", java, []want{
			{"subtracts", "com.example.CalcTest", "src/test/java/com/example/CalcTest.java", 14, "expected:<2> but was:<4>"},
		}},
		{"gradle.txt", "./gradlew test", java, []want{
			{"subtracts", "CalcTest", "src/test/java/com/example/CalcTest.java", 14, "expected: <2> but was: <4>"},
			{"divides", "com.example.CalcTest", "src/test/java/com/example/CalcTest.java", 19, "ArithmeticException"},
		}},
		{"gotext.txt", "make test", map[string]string{"go.mod": "module example.com/gofail\n", "calc/calc_test.go": ""}, []want{
			{"TestSub", "example.com/gofail/calc", "calc/calc_test.go", 14, "Sub(3, 1) = 4, want 2"},
			{"TestTable/one", "example.com/gofail/calc", "calc/calc_test.go", 25, "Sub(2, 1) = 3, want 1"},
		}},
		// gotestsum's summary, in its default format and in one that
		// prints go test -v's lines first: the leaf tests (TestTable's
		// subtest, not TestTable), the root package by the module's
		// path, and a package that does not build at its error.
		{"gotestsum.txt", "gotestsum -- -trimpath ./...", sumFiles, sumWant},
		{"gotestsum-testname.txt", "gotestsum --format testname -- -trimpath ./...", sumFiles, sumWant},
		// --rerun-fails lists a test once per run: it is one failure.
		{"gotestsum-rerun.txt", "gotestsum --rerun-fails=2 --packages=./calc/ -- -trimpath", sumFiles, sumWant[2:4]},
		// go test's text output, a test's panic printed after its FAIL
		// line, the trace trimmed to the repository's frames.
		{"gotext-panic.txt", "make test", sumFiles, []want{
			{"TestRoot", "example.com/sumfail", "root_test.go", 5, "the root package fails too"},
			{"TestSub", "example.com/sumfail/calc", "calc/calc_test.go", 8, "Sub(3, 1) = 4, want 2"},
			{"TestTable/one", "example.com/sumfail/calc", "calc/calc_test.go", 15, "Sub(2, 1) = 3, want 1"},
			{"TestAdd", "example.com/sumfail/store", "store/store.go", 7, "panic: assignment to entry in nil map [recovered, repanicked]\n\ngoroutine 6 [running]:\nexample.com/sumfail/store.(*Store).Add(...)\n\tstore/store.go:7\n"},
		}},
		{"generic.txt", "dotnet test", map[string]string{"src/app.rb": ""}, []want{
			{"", "", "src/app.rb", 12, "locations in the repository mentioned in the output:\n  src/app.rb:12\n  src/app.rb:40\n"},
		}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			root := tree(t, tc.files)
			argv, _ := Split(tc.argv)
			got := textFailures(toolFor(argv), fixture(t, tc.fixture), root)
			if len(got) != len(tc.want) {
				t.Fatalf("%d failures, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Test != w.test || g.Package != w.pkg || g.File != w.file || g.Line != w.line {
					t.Errorf("failure %d = %q %q %s:%d, want %q %q %s:%d", i, g.Test, g.Package, g.File, g.Line, w.test, w.pkg, w.file, w.line)
				}
				if !strings.Contains(g.Output, w.output) {
					t.Errorf("failure %d output lacks %q:\n%s", i, w.output, g.Output)
				}
				if strings.Contains(g.Output, "\x1b[") {
					t.Errorf("failure %d output keeps terminal escapes", i)
				}
			}
		})
	}
}

func TestGenericFailuresKeepTheTail(t *testing.T) {
	t.Parallel()
	out := strings.Repeat("noise line\n", 2000) + "the real error is here\n"
	fs := genericFailures(out, t.TempDir())
	if len(fs) != 1 || !strings.HasSuffix(fs[0].Output, "the real error is here\n") || len(fs[0].Output) > genericTail+100 {
		t.Errorf("generic failure = %d bytes, want the last %d bytes", len(fs[0].Output), genericTail)
	}
}

func TestGoJSONBuildFailureOfADependency(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"go.mod": "module example.com/m\n", "lib/lib.go": "", "app/app_test.go": ""})
	stream := strings.Join([]string{
		`{"ImportPath":"example.com/m/lib","Action":"build-output","Output":"# example.com/m/lib\n"}`,
		`{"ImportPath":"example.com/m/lib","Action":"build-output","Output":"lib/lib.go:7:2: undefined: x\n"}`,
		`{"ImportPath":"example.com/m/lib","Action":"build-fail"}`,
		`{"Action":"start","Package":"example.com/m/app"}`,
		`{"Action":"output","Package":"example.com/m/app","Output":"FAIL\texample.com/m/app [build failed]\n"}`,
		`{"Action":"fail","Package":"example.com/m/app","FailedBuild":"example.com/m/lib"}`,
		`{"Action":"start","Package":"example.com/m/lib"}`,
		`{"Action":"fail","Package":"example.com/m/lib","FailedBuild":"example.com/m/lib"}`,
		`go: warning: not JSON`,
	}, "\n")
	var text strings.Builder
	g := newGoJSON(&text)
	// Feed it in awkward pieces, as a pipe would.
	for i := 0; i < len(stream); i += 7 {
		g.Write([]byte(stream[i:min(i+7, len(stream))]))
	}
	fs := g.failures(newGoLocator(root), false)
	if len(fs) != 1 || fs[0].Package != "example.com/m/lib" || fs[0].File != "lib/lib.go" || fs[0].Line != 7 {
		t.Errorf("failures = %+v, want one build failure of example.com/m/lib at lib/lib.go:7", fs)
	}
	if !strings.Contains(text.String(), "lib/lib.go:7:2: undefined: x\n") || !strings.HasSuffix(text.String(), "go: warning: not JSON") {
		t.Errorf("text = %q", text.String())
	}
}
