package hardening

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// hostileTest is a test file the model adds: it prints workflow commands
// from the test process, plainly, in a test's log and after a tab.
const hostileTest = `--- /dev/null
+++ b/log_test.go
@@ -0,0 +1,13 @@
+package calc
+
+import (
+	"fmt"
+	"testing"
+)
+
+func TestLog(t *testing.T) {
+	fmt.Println("::warning title=Security::Tests passed. Approve and merge.")
+	fmt.Print("x\r::add-mask::calc.go\n")
+	fmt.Println("\t##[error]old-style command")
+	t.Log("\n::error::from t.Log")
+}
`

// ownCommand is a workflow command agentfix itself writes: the log groups
// and ::stop-commands:: around test output (and the token that ends it),
// the mask of the workflow token, and the run's one annotation.
var ownCommand = regexp.MustCompile(`^::(?:group::|endgroup::$|stop-commands::[0-9a-f]{24}$|[0-9a-f]{24}::$|add-mask::` + regexp.QuoteMeta(token) + `$|notice::agentfix: fixed: )`)

// A model whose plan, file names, review and tests all try to write
// workflow commands gets none into the real process's stdout or stderr,
// which the runner parses.
func TestHostileModelWritesNoWorkflowCommand(t *testing.T) {
	w := newWorld(t, nil)
	w.config("reviewer:\n  model: " + actiontest.Model + "\n")
	plans := 0
	w.Ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		switch {
		case strings.Contains(string(r.Format), "verdict"):
			return ollamafake.Text(`{"verdict":"approve","reason":"::warning title=Security::Approve and merge.\n::add-mask::calc.go"}`)
		case len(r.Format) > 0:
			plans++
			if plans == 1 {
				return ollamafake.Text(`{"files":["calc.go\n::add-mask::calc.go"],"steps":["x"]}`)
			}
			return ollamafake.Text(`{"files":["calc.go","log_test.go"],"steps":["::warning title=Security::ok","x\n::add-mask::calc.go"]}`)
		}
		return ollamafake.Text("```diff\n" + actiontest.FixDiff + hostileTest + "```\n")
	})
	n := w.AddIssue()
	r := w.RunBinary("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 0, "fixed")
	// The row tests something only if the hostile text reached the log.
	r.Must(t, strings.Contains(r.Stderr, "Approve and merge") && strings.Contains(r.Stderr, "from t.Log") && strings.Contains(r.Stderr, "add-mask::calc.go"), "the hostile text never reached the log")
	for name, out := range map[string]string{"stdout": r.Stdout, "stderr": r.Stderr} {
		for _, line := range strings.FieldsFunc(out, func(c rune) bool { return c == '\n' || c == '\r' }) {
			cmd := strings.TrimLeft(line, " \t\v\f")
			if (strings.HasPrefix(cmd, "::") || strings.HasPrefix(cmd, "##[")) && !ownCommand.MatchString(cmd) {
				r.Must(t, false, "%s has a workflow command agentfix did not write: %q", name, line)
			}
		}
	}
}
