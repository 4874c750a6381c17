package report

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// HelpOptions are the config values the help reply describes.
type HelpOptions struct {
	// Prefix is the slash command ("/agent").
	Prefix string
	// Label is the trigger label.
	Label      string
	AllowForks bool
	AllowBots  []string
}

// Help is the reply to `/agent help`: the commands and who may use them.
func Help(o HelpOptions) string {
	p := o.Prefix
	var b strings.Builder
	b.WriteString(Marker("help", "") + "\n")
	b.WriteString("**agentfix commands**\n\n")
	b.WriteString("| command | where | what it does |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| `%s fix [instructions]` | issue | try to fix the issue and open a pull request that says `Fixes #N` |\n", p)
	fmt.Fprintf(&b, "| `%s check [command]` | pull request | run the allowlisted checks on the PR's head; if they fail, try a fix and open a PR into the PR's branch |\n", p)
	fmt.Fprintf(&b, "| `%s fix [instructions]` | agentfix's pull request (a comment, or an inline review comment) | revise it: one new commit on its branch, proven like the first |\n", p)
	fmt.Fprintf(&b, "| `%s fix [instructions]` | someone else's pull request | do what the instructions ask and open a PR into the PR's branch |\n", p)
	b.WriteString("| a review requesting changes, or commenting | agentfix's pull request | the same as `fix` on it, with the review and its inline comments as the request |\n")
	fmt.Fprintf(&b, "| `%s help` | anywhere | show this message |\n", p)
	if o.Label != "" {
		fmt.Fprintf(&b, "| label `%s` | issue | the same as `%s fix` |\n", o.Label, p)
	}
	b.WriteString("\n**Who may use them**: people with write, maintain or admin permission on this repository. ")
	b.WriteString("Others get a reply saying why nothing ran. ")
	if len(o.AllowBots) > 0 {
		fmt.Fprintf(&b, "Bots may not, except %s. ", "`"+strings.Join(o.AllowBots, "`, `")+"`")
	} else {
		b.WriteString("Bots may not. ")
	}
	if o.AllowForks {
		b.WriteString("Checks on pull requests from forks run without any token.\n")
	} else {
		b.WriteString("Checks do not run on pull requests from forks.\n")
	}
	b.WriteString("\nCommands are read at the start of a line; quoted lines and code blocks are ignored, and edited comments do not count.\n")
	return b.String()
}

// TrackingMarker marks the one issue a nightly run keeps for failures it
// could not fix.
var TrackingMarker = Marker("tracking", "nightly")

// TrackingTitle is the nightly tracking issue's title.
const TrackingTitle = "agentfix: nightly checks fail on the default branch"

// TrackingClosed is the comment that closes the tracking issue when a
// nightly run finds the checks passing again.
func TrackingClosed(r *Run, branch string) string {
	var b strings.Builder
	b.WriteString(Marker("tracking-closed", "nightly") + "\n")
	fmt.Fprintf(&b, "✅ The nightly checks pass again on `%s`", branch)
	if r.RunURL != "" {
		fmt.Fprintf(&b, " ([this run](%s))", r.RunURL)
	}
	b.WriteString(". Closing; agentfix reopens this issue if they fail again.\n")
	return b.String()
}

// TrackingBody is the nightly tracking issue's body: why agentfix did not
// fix it, and the failure summary.
func TrackingBody(r *Run, branch string) string {
	var b strings.Builder
	b.WriteString(TrackingMarker + "\n")
	fmt.Fprintf(&b, "The nightly checks on %s fail, and agentfix did not fix them.\n\n", untrusted.Code(branch))
	if r.Reason != "" {
		fmt.Fprintf(&b, "**Why**: %s\n\n", untrusted.Markdown(r.Reason))
	}
	if r.Before != nil {
		b.WriteString("| when | command | result | time | failures |\n|---|---|---|---|---|\n")
		checkTable(&b, "nightly", r.Before)
		b.WriteString("\n")
		if r.Before.Summary != "" {
			b.WriteString("<details><summary>Failure summary</summary>\n\n")
			b.WriteString(codeBlock("", cut(r.Before.Summary, 40000)))
			b.WriteString("\n</details>\n\n")
		}
	}
	if r.RunURL != "" {
		fmt.Fprintf(&b, "Last seen in [this run](%s). agentfix updates this issue on every nightly run while the checks fail.\n", r.RunURL)
	}
	s := b.String()
	if len(s) > MaxBody {
		s = cut(s, MaxBody)
	}
	return s
}
