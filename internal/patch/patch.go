// Package patch turns a model's reply into one validated change to a work
// tree. It extracts every edit the reply holds (unified diffs, fenced or
// bare, with or without git headers and line numbers; SEARCH/REPLACE
// blocks; whole-file blocks), repairs what is unambiguous (hunk counts,
// line offsets, whitespace and line-ending drift), refuses what is not,
// validates the result against a Policy, and writes all files or none.
//
// The validator is the safety gate: every path goes through it, including
// replays of diffs this package produced.
package patch

import (
	"fmt"
	"strings"
)

// Policy is what a patch may touch (filled from config paths.* and
// limits.* by the caller).
type Policy struct {
	// Allow and Deny are doublestar globs relative to the repository root.
	// A path must match an Allow glob (an empty Allow allows every path)
	// and no Deny glob; Deny wins.
	Allow, Deny []string
	// AllowDelete and AllowRename let a patch delete or rename files.
	AllowDelete, AllowRename bool
	// MaxFiles and MaxChangedLines bound the patch; 0 means no limit.
	MaxFiles, MaxChangedLines int
	// Frozen are repository paths no patch may change, rename or delete:
	// the tests that reproduced an issue on the unfixed code, which the
	// fix must make pass as they are.
	Frozen []string
}

// Options change how Apply runs.
type Options struct {
	// Check validates and dry-runs the patch and writes nothing.
	Check bool
	// Only, when set, selects the edits to apply by the path they change:
	// the others are left out (listed in Result.Skipped), not refused.
	// It splits a reply that holds a test and a fix into its two parts.
	Only func(path string) bool
}

// Problem is one reason a patch was refused.
type Problem struct {
	File    string `json:"file,omitempty"`
	Hunk    int    `json:"hunk,omitempty"`
	Message string `json:"message"`
}

// String renders p as "file, hunk n: message".
func (p Problem) String() string {
	var where []string
	if p.File != "" {
		where = append(where, p.File)
	}
	if p.Hunk > 0 {
		where = append(where, fmt.Sprintf("hunk %d", p.Hunk))
	}
	if len(where) == 0 {
		return p.Message
	}
	return strings.Join(where, ", ") + ": " + p.Message
}

// Result is what Apply did, or would do with Options.Check.
type Result struct {
	// Applied is true when the patch was written (or, with Check, would be).
	Applied bool `json:"applied"`
	// Files are the paths the patch changes, in the order of the diff.
	Files []string `json:"files"`
	// Repairs say what was fixed in the model's edit to apply it.
	Repairs []string `json:"repairs"`
	// Errors say why the patch was refused; empty when Applied.
	Errors []Problem `json:"errors"`
	// Skipped are the paths of the edits Options.Only left out.
	Skipped []string `json:"skipped,omitempty"`
	// Diff is the normalised git-style unified diff of the change (a/ b/
	// prefixes, correct headers and counts). Apply and git apply accept it.
	// When the patch is refused it holds, for the record, what the edits
	// that could be placed would have changed.
	Diff string `json:"diff"`
}

// Feedback phrases the errors so they can be sent back to the model as the
// next message. It is empty when the patch was applied.
func (r *Result) Feedback() string {
	if r.Applied || len(r.Errors) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Your edit was not applied and no file was changed. Fix the problems below, then send the complete edit again (every file, not only the parts that failed).\n\n")
	for _, p := range r.Errors {
		b.WriteString("- " + p.String() + "\n")
	}
	b.WriteString("\nWrite each change as a unified diff (--- a/PATH, +++ b/PATH, @@ hunks with 3 unchanged lines of context copied exactly from the current file), or as SEARCH/REPLACE blocks with the file path on the line before <<<<<<< SEARCH.\n")
	return b.String()
}
