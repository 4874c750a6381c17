package repoctx

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// storeCode is a package kv whose Store.Get looks its key up through
// lookupKey, which does not trim it (the fault), after sixty functions
// whose words are those of the spec's failure: no word of it names Get
// or lookupKey.
func storeCode() string {
	var b strings.Builder
	b.WriteString("package kv\n\nimport \"strings\"\n\n")
	for k := range 60 {
		fmt.Fprintf(&b, "// step%d reads what was written to the cache with padding.\nfunc step%d(cache, padding int) int {\n\tif padding < 0 {\n\t\treturn cache\n\t}\n\treturn cache + padding + %d\n}\n\n", k, k, k)
	}
	return b.String() + ("// Store keeps values by key.\ntype Store struct{ m map[string]int }\n\n" +
		"// NewStore is an empty Store.\nfunc NewStore() *Store { return &Store{m: map[string]int{}} }\n\n" +
		"// Put keeps v under k.\nfunc (s *Store) Put(k string, v int) { s.m[strings.TrimSpace(k)] = v }\n\n" +
		"// Get is the value under k.\nfunc (s *Store) Get(k string) (int, bool) {\n\tv, ok := s.m[lookupKey(k)]\n\treturn v, ok\n}\n\n" +
		"func lookupKey(k string) string {\n\treturn k // the fault: not trimmed\n}\n")
}

// storeSpecs is a Ginkgo spec file of package pkg that dot-imports imp:
// a Describe whose BeforeEach makes the Store, many specs that pass, and
// the one that fails last.
func storeSpecs(pkg, imp string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t. \"github.com/onsi/ginkgo/v2\"\n\t. \"github.com/onsi/gomega\"\n\n\t. %q\n)\n\n", pkg, imp)
	b.WriteString("var _ = Describe(\"the cache\", func() {\n\tvar st *Store\n\n\tBeforeEach(func() {\n\t\tst = NewStore()\n\t})\n")
	for k := range 30 {
		fmt.Fprintf(&b, "\n\tIt(\"counts step %d\", func() {\n\t\tExpect(step%d(1, 2)).To(Equal(%d))\n\t})\n", k, k, 3+k)
	}
	b.WriteString("\n\tContext(\"with padding\", func() {\n\t\tIt(\"reads what was written\", func() {\n\t\t\tst.Put(\" key \", 2)\n" +
		"\t\t\tv, ok := st.Get(\" key\")\n\t\t\tExpect(ok).To(BeTrue())\n\t\t\tExpect(v).To(Equal(2))\n\t\t})\n\t})\n})\n")
	return b.String()
}

// ginkgoFailure is what go test prints when the spec whose It is at line
// it of file fails at line at: Ginkgo's report, then the suite's test.
func ginkgoFailure(file string, it, at int, pkg string) string {
	return fmt.Sprintf(`Running Suite: Cache Suite - /src/kv
=====================================
Random Seed: 1732795299

Will run 31 of 31 specs
••••••••••••••••••••••••••••••
------------------------------
• [FAILED] [0.000 seconds]
the cache with padding [It] reads what was written
/src/%[1]s:%[2]d

  [FAILED] Expected
      <bool>: false
  to be true
  In [It] at: /src/%[1]s:%[3]d @ 11/28/26 12:01:39.006
------------------------------

Summarizing 1 Failure:
  [FAIL] the cache with padding [It] reads what was written
  /src/%[1]s:%[3]d

Ran 31 of 31 Specs in 0.001 seconds
FAIL! -- 30 Passed | 1 Failed | 0 Pending | 0 Skipped
--- FAIL: TestStore (0.00s)
FAIL
FAIL	%[4]s	0.006s
FAIL
`, file, it, at, pkg)
}

// TestBuildFollowsTheFailingSpec: a Ginkgo spec fails. Its output names
// no test function of its own, only its lines, in a var _ = Describe(...)
// of the test file; the spec (the It holding them) is followed as a
// failing test is, with the set-up its container runs before it, so
// Store.Get, which the assertion is about, and lookupKey, which it calls,
// are shown. The specs dot-import the package they test, in its own
// directory or in another.
func TestBuildFollowsTheFailingSpec(t *testing.T) {
	code := storeCode()
	suite := "package %s\n\nimport (\n\t\"testing\"\n\n\t. \"github.com/onsi/ginkgo/v2\"\n\t. \"github.com/onsi/gomega\"\n)\n\n" +
		"func TestStore(t *testing.T) {\n\tRegisterFailHandler(Fail)\n\tRunSpecs(t, \"Store Suite\")\n}\n"
	for _, tc := range []struct {
		name, dir, pkg string
		verbose        bool
	}{
		{"own directory", "kv", "kv_test", false},
		{"another directory", "kv/spec", "spec", false},
		{"verbose output", "kv", "kv_test", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			specs := storeSpecs(tc.pkg, "example.com/kv/kv")
			repo := newRepo(t, map[string]string{
				"go.mod":                        "module example.com/kv\n",
				"kv/store.go":                   code,
				tc.dir + "/store_suite_test.go": fmt.Sprintf(suite, tc.pkg),
				tc.dir + "/store_test.go":       specs,
			})
			it := lineOf(specs, "\t\tIt(\"reads what was written\"")
			at := lineOf(specs, "\t\t\tExpect(ok)")
			failing := ginkgoFailure(tc.dir+"/store_test.go", it, at, "example.com/kv/"+tc.dir)
			if tc.verbose {
				// -ginkgo.v reports every spec that passed, with its
				// line, before the failure.
				var passed strings.Builder
				for k := range 30 {
					fmt.Fprintf(&passed, "------------------------------\nthe cache counts step %d\n/src/%s/store_test.go:%d\n• [0.000 seconds]\n", k, tc.dir, lineOf(specs, fmt.Sprintf("\tIt(\"counts step %d\"", k)))
				}
				failing = strings.Replace(failing, "••••••••••••••••••••••••••••••\n", passed.String(), 1)
			}
			p := build(t, repo, failing, 1200)
			mustPackFunc(t, p, "kv/store.go", code, "(s *Store) Get")
			mustPackFunc(t, p, "kv/store.go", code, "lookupKey")
			// The spec and the set-up it runs after, not the Describe's
			// thirty others.
			f := fileOf(p, tc.dir+"/store_test.go")
			if f == nil || !covers(f, it, at) {
				t.Fatalf("the failing spec (lines %d-%d) is not shown: %+v", it, at, f)
			}
			if be := lineOf(specs, "\tBeforeEach("); !covers(f, be, be+2) {
				t.Errorf("the BeforeEach (lines %d-%d) is not shown: %+v", be, be+2, f)
			}
			if other := lineOf(specs, "\tIt(\"counts step 10\""); covers(f, other, other) {
				t.Errorf("another spec (line %d) is shown: %+v", other, f)
			}
		})
	}
}

// TestSpecs: which function literal is the spec for each line the output
// names, and what its body holds.
func TestSpecs(t *testing.T) {
	specs := storeSpecs("kv_test", "example.com/kv/kv")
	loop := "package kv_test\n\nvar _ = Describe(\"loop\", func() {\n\tfor _, n := range []int{1, 2} {\n\t\tIt(fmt.Sprint(n), func() {\n\t\t\tExpect(step1(n, 0)).To(Equal(n))\n\t\t})\n\t}\n\n" +
		"\tIt(\"fails\", func() {\n\t\tExpect(NewStore()).To(BeNil())\n\t})\n})\n"
	repo := newRepo(t, map[string]string{
		"go.mod":           "module example.com/kv\n",
		"kv/store.go":      storeCode(),
		"kv/store_test.go": specs,
		"kv/loop_test.go":  loop,
	})
	it := lineOf(specs, "\t\tIt(\"reads what was written\"")
	at := lineOf(specs, "\t\t\tExpect(ok)")
	describe := lineOf(specs, "var _ = Describe")
	// The Describe's line with the spec's: the spec alone, with both
	// lines; the Describe's line alone: the Describe.
	for _, tc := range []struct {
		lines []int
		start int
		held  []int
	}{
		{[]int{it, at, describe}, it, []int{it, at}},
		{[]int{describe}, describe, []int{describe}},
	} {
		var q strings.Builder
		q.WriteString("--- FAIL: TestStore (0.00s)\n")
		for _, l := range tc.lines {
			fmt.Fprintf(&q, "  /src/kv/store_test.go:%d\n", l)
		}
		r := rank(t, repo, q.String())
		got := r.specs()
		if len(got) != 1 {
			t.Fatalf("lines %v: %d specs, want 1", tc.lines, len(got))
		}
		if got[0].sym.start != tc.start || fmt.Sprint(got[0].lines) != fmt.Sprint(tc.held) {
			t.Errorf("lines %v: spec at %d with lines %v, want %d with %v", tc.lines, got[0].sym.start, got[0].lines, tc.start, tc.held)
		}
	}
	// The spec's body: the BeforeEach's statements and its own, and not
	// the other specs' calls.
	r := rank(t, repo, fmt.Sprintf("  /src/kv/store_test.go:%d\n", at))
	sp := r.specs()
	if len(sp) != 1 {
		t.Fatalf("%d specs, want 1", len(sp))
	}
	callees := strings.Join(sp[0].sym.callees, " ")
	for _, want := range []string{"NewStore", "Put", "Get"} {
		if !strings.Contains(" "+callees+" ", " "+want+" ") {
			t.Errorf("callees %q lack %s", callees, want)
		}
	}
	if strings.Contains(callees, "step") {
		t.Errorf("callees %q hold another spec's", callees)
	}
	// A loop that makes specs in the container is none of the set-up.
	r = rank(t, repo, fmt.Sprintf("  /src/kv/loop_test.go:%d\n", lineOf(loop, "\t\tExpect(NewStore())")))
	if sp = r.specs(); len(sp) != 1 {
		t.Fatalf("%d specs, want 1", len(sp))
	}
	if callees = " " + strings.Join(sp[0].sym.callees, " ") + " "; !strings.Contains(callees, " NewStore ") || strings.Contains(callees, " step1 ") {
		t.Errorf("the spec's callees %q: want NewStore, not the loop's step1", callees)
	}
	// The Describe's line alone (building the spec tree failed in its
	// body): its own statements ran, not its specs.
	r = rank(t, repo, fmt.Sprintf("  /src/kv/store_test.go:%d\n", describe))
	if sp = r.specs(); len(sp) != 1 {
		t.Fatalf("%d specs, want 1", len(sp))
	}
	callees = " " + strings.Join(sp[0].sym.callees, " ") + " "
	if !strings.Contains(callees, " NewStore ") || strings.Contains(callees, " Get ") || strings.Contains(callees, "step") {
		t.Errorf("the Describe's callees %q: want its BeforeEach's NewStore, none of its specs' Get or step", callees)
	}
}

// TestSpecEdgesWeighDotImportedFunctionsLess: a function of another
// package that a spec's file dot-imports (NewStore, from a spec in
// another directory) is reached as one call further away than the same
// function of the spec's own package: such a package is more often the
// spec's DSL or its helpers than the code under test.
func TestSpecEdgesWeighDotImportedFunctionsLess(t *testing.T) {
	code := storeCode()
	weight := map[string]float64{}
	for _, dir := range []string{"kv", "kv/spec"} {
		specs := storeSpecs("kv_test", "example.com/kv/kv")
		repo := newRepo(t, map[string]string{"go.mod": "module example.com/kv\n", "kv/store.go": code, dir + "/store_test.go": specs})
		r := rank(t, repo, fmt.Sprintf("  /src/%s/store_test.go:%d\n", dir, lineOf(specs, "\t\t\tExpect(ok)")))
		i := slices.Index(r.ix.paths, "kv/store.go")
		weight[dir] = r.reached[i][lineOf(code, "func NewStore")]
	}
	if weight["kv"] == 0 || weight["kv/spec"] != weight["kv"]*edgeDecay {
		t.Errorf("NewStore reached with %v from its own directory, %v from another's dot-import; want the second %v times the first", weight["kv"], weight["kv/spec"], edgeDecay)
	}
}
