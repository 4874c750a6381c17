package actiontest

// Repo is the repository every World serves.
const Repo = "octo/calc"

// Model is the model the fake Ollama serves and every run asks for.
const Model = "qwen2.5-coder:14b"

// RunID is GITHUB_RUN_ID of every run.
const RunID = "4242"

// Project is the buggy project: Add subtracts, and its test says so.
var Project = map[string]string{
	"go.mod":       "module example.com/calc\n\ngo 1.21\n",
	"calc.go":      "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
	"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
}

// FixDiff is the model's fix of Project.
const FixDiff = "--- a/calc.go\n+++ b/calc.go\n@@ -3,4 +3,4 @@\n // Add returns the sum of a and b.\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n"

// FixedCalc is calc.go once FixDiff is applied.
const FixedCalc = "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"

// PlanJSON is the model's plan for the fix.
const PlanJSON = `{"files":["calc.go"],"steps":["Add subtracts b; make it add b"]}`

// FixedProject is Project with Add already right: its checks pass.
var FixedProject = map[string]string{"go.mod": Project["go.mod"], "calc.go": FixedCalc, "calc_test.go": Project["calc_test.go"]}

// GreenProject has Project's bug (Add subtracts) but a test that does not
// catch it: its checks pass, so a fix of the issue is proven only by a
// test that fails first.
var GreenProject = map[string]string{
	"go.mod":       Project["go.mod"],
	"calc.go":      Project["calc.go"],
	"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAddZero(t *testing.T) {\n\tif got := Add(2, 0); got != 2 {\n\t\tt.Fatalf(\"Add(2, 0) = %d, want 2\", got)\n\t}\n}\n",
}

// ReproDiff is the model's test that reproduces the issue in GreenProject:
// TestAddTwoThree fails until Add adds.
const ReproDiff = "--- a/calc_test.go\n+++ b/calc_test.go\n@@ -7,3 +7,9 @@ func TestAddZero(t *testing.T) {\n \t\tt.Fatalf(\"Add(2, 0) = %d, want 2\", got)\n \t}\n }\n+\n+func TestAddTwoThree(t *testing.T) {\n+\tif got := Add(2, 3); got != 5 {\n+\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n+\t}\n+}\n"

// CommentDiff is the hollow answer: a comment, which fixes nothing.
const CommentDiff = "--- a/calc.go\n+++ b/calc.go\n@@ -1,4 +1,4 @@\n package calc\n \n-// Add returns the sum of a and b.\n+// Add returns the sum of a and b, e.g. Add(2, 3) is 5.\n func Add(a, b int) int {\n"
