package agent

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/llm"
)

// The prompts. Every request starts with the same prefix (the system prompt,
// then the repository context and the task) and appends the conversation,
// so the server can reuse its prompt cache from one request to the next.
// Golden files under testdata/prompts show them as the model reads them.

const systemPrompt = `You are agentfix, a careful software engineer fixing one problem in a git repository.
You cannot run commands. You change code only by replying with edits, which are checked and applied for you; then the repository's tests are run and you are told the result.

Rules:
- Change as little as needed to fix the problem. Do not reformat or rename unrelated code.
- Do not change tests to make them pass unless the task asks for it.
- The code you are shown has a gutter before each line: the line's number on the first line of each part and on every tenth line, then a tab. The gutter is not part of the files; never write it in an edit.
- Write code as plain text, never inside JSON.`

const instructionsPrompt = `

# The maintainers' instructions

The repository's maintainers wrote these instructions for agents like you. Follow them where they do not conflict with the rules above.

%s`

const contextPrompt = `# Repository

%s
# Task

%s`

const checkedWith = `
The fix is accepted when these commands pass:

%s
`

const reproducedWith = `
The fix is accepted when a test you write first fails on the code as it is now and passes with the fix, and these commands pass:

%s
`

const reproduceRequest = `Before fixing anything, write a test that reproduces the problem: it must fail on the code as it is now, because of the problem, and pass once the problem is fixed.
- Use the repository's own test framework and conventions. Put the test in a test file (paths matching %s), a new one or an existing one.
- Change only test files now; the fix comes next.
- The test should fail in an assertion. It may fail to compile only when the task asks for a function, method or parameter that does not exist yet.
Reply with the test as one unified diff (a ` + "```diff" + ` fenced block is fine), no explanation.`

const feedbackNoTest = `Your reply changes no test file (it changes %s), so nothing reproduces the problem yet. Test files are those matching %s.`

const feedbackTestPasses = `Your test passes on the code as it is now:

%s

So it does not reproduce the problem: a test that reproduces it fails now and passes once the problem is fixed. The work tree has been reset. Write a test that checks the behaviour the task says is wrong.`

const feedbackTestBroken = `Your test does not reproduce the problem: %s.

%s

A reproduction fails in an assertion (or a panic) of the test, or does not compile only because the function, method or parameter the task asks for is missing. The work tree has been reset. Fix the test.`

const feedbackReproduced = `Your test fails on the code as it is now, as a reproduction should:

%[2]s

It is in the work tree now (%[1]s) and frozen: the fix may not change, rename or delete it. Fix the code so that it passes.`

const feedbackNoReproduction = `No test reproduced the problem. Fix it anyway, as well as you can.`

const planRequest = `Before writing any code, plan the fix.
Reply with JSON only: "files" lists the paths (relative to the repository root) of the files you will change, "steps" says in a few short sentences what you will change in them, naming the functions.
If you need to see more code before writing the edit, "look" lists up to 6 things to be shown: "path/file.go:FuncName" (a function, type or Type.Method), "path/file.go:120-180" (lines) or "path/file.go" (a file from the repository map).`

const patchRequest = `Now write the fix as one unified diff in plain text (a ` + "```diff" + ` fenced block is fine):
- headers "--- a/PATH" and "+++ b/PATH", paths relative to the repository root ("--- /dev/null" for a new file);
- hunks "@@ -start,count +start,count @@" with three lines of unchanged context around each change;
- the diff is applied to the original files shown above.
Reply with the diff only, no explanation.`

const searchReplaceRequest = `The diff could not be applied twice. Write the fix as SEARCH/REPLACE blocks instead, one per change:

path/to/file.go
<<<<<<< SEARCH
the exact lines to find in the original file, unchanged, with their indentation
=======
the lines to put in their place
>>>>>>> REPLACE

The SEARCH lines must match the file exactly and be unique in it; give a few surrounding lines to make them unique. Reply with the blocks only.`

const feedbackPlanInvalid = `That plan cannot be used: %s
Reply with the plan again, as JSON with "files" and "steps".`

const feedbackPatch = `Your edit was not applied, nothing was changed:
%s`

const feedbackCut = `Your reply was cut off at the length limit. Keep the edit short: only the hunks that change, with three lines of context.`

const feedbackVerify = `Your edit applied, but the checks failed:

%s

The work tree has been reset to the original files. Find the cause and write a new, complete fix against the original files.`

const feedbackReview = `Your fix passed the checks, but a reviewer rejected it: %s
The work tree has been reset to the original files. Write a better, complete fix against the original files.`

const reviewSystem = `You review a proposed code change before it is offered to the maintainers as a pull request.
Approve it only if it fixes the task at its cause, is minimal, and does not weaken or delete tests. Answer with JSON only: "verdict" is "approve" or "reject", "reason" is one sentence.`

const reviewRequest = `# Task

%s

# Proposed change

` + "```diff" + `
%s` + "```" + `

# Evidence

%s`

func system(text string) llm.Message { return llm.Message{Role: "system", Content: text} }
func user(text string) llm.Message   { return llm.Message{Role: "user", Content: text} }
func assistant(text string) llm.Message {
	return llm.Message{Role: "assistant", Content: text}
}

// prefix is the stable start of every request: the system prompt and the
// repository's instructions, then the context and the task.
func prefix(instr []instructions.File, context, task string) []llm.Message {
	sys := systemPrompt
	if len(instr) > 0 {
		sys += fmt.Sprintf(instructionsPrompt, strings.TrimRight(instructions.Text(instr), "\n"))
	}
	return []llm.Message{system(sys), user(fmt.Sprintf(contextPrompt, strings.TrimRight(context, "\n")+"\n", task))}
}

// patchMessage is the user message that asks for an edit: the feedback
// waiting to be said, then the request in the form this attempt wants.
func patchMessage(feedback []string, searchReplace bool, plan *Plan) string {
	var b strings.Builder
	for _, f := range feedback {
		b.WriteString(strings.TrimSpace(f))
		b.WriteString("\n\n")
	}
	if plan == nil && len(feedback) == 0 {
		b.WriteString("(No plan was agreed; work from the task.)\n\n")
	}
	if searchReplace {
		b.WriteString(searchReplaceRequest)
	} else {
		b.WriteString(patchRequest)
	}
	return b.String()
}

// planMessage is the user message that asks for the plan, after the
// feedback waiting to be said (a reproduction's outcome).
func planMessage(feedback []string) string {
	var b strings.Builder
	for _, f := range feedback {
		b.WriteString(strings.TrimSpace(f))
		b.WriteString("\n\n")
	}
	b.WriteString(planRequest)
	return b.String()
}

// say queues feedback for the next request to the main model.
func (r *run) say(text string) { r.pending = append(r.pending, text) }
