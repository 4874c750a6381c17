package actiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// World is one test's GitHub, Ollama, origin and workspace.
type World struct {
	T testing.TB
	// GH is the fake GitHub API serving Repo.
	GH *githubfake.Server
	// Ollama is the fake model server serving Model.
	Ollama *ollamafake.Server
	// Origin is the bare repository GH serves Repo's git from.
	Origin string
	// Workspace is the checkout a run works in (GITHUB_WORKSPACE).
	Workspace string
	// Dir is the test's temporary directory, holding the rest.
	Dir string
	// Token is the workflow token: GH requires it, every run gets it.
	Token string
	// Env adds to or overrides the Actions environment of a run.
	Env map[string]string
	// BeforeStart, when set, is called with the binary's command once its
	// environment and files are in place, just before Start starts it: a
	// row that must run agentfix as another user sets the credential and
	// hands that user the world's files.
	BeforeStart func(*exec.Cmd)
}

// New seeds origin with files on main (Project when nil), clones the
// workspace from it and starts the fakes. GH requires token and gives
// alice write permission; the model answers every plan with PlanJSON and
// every patch request with FixDiff.
func New(t testing.TB, token string, files map[string]string) *World {
	t.Helper()
	if files == nil {
		files = Project
	}
	tmp := t.TempDir()
	w := &World{T: t, Dir: tmp, Origin: filepath.Join(tmp, "origin.git"), Workspace: filepath.Join(tmp, "workspace"), Token: token, Env: map[string]string{}}
	seed := filepath.Join(tmp, "seed")
	Git(t, tmp, nil, "init", "-q", "--bare", "-b", "main", w.Origin)
	Git(t, tmp, nil, "init", "-q", "-b", "main", seed)
	WriteFiles(t, seed, files)
	Git(t, seed, nil, "add", ".")
	Git(t, seed, HumanID, "commit", "-q", "-m", "initial")
	Git(t, seed, nil, "push", "-q", w.Origin, "main")
	w.Clone("main")

	w.GH = githubfake.New(t)
	w.GH.AddRepo(Repo, "main")
	w.GH.SetGitDir(Repo, w.Origin)
	w.GH.RequireToken(token)
	w.GH.SetPermission(Repo, "alice", "write")

	w.Ollama = ollamafake.New(t, ollamafake.Model{Name: Model, ContextLength: 32768})
	w.AnswerWith(FixDiff)
	return w
}

// AnswerWith makes the model answer every plan with PlanJSON and every
// patch request with diff.
func (w *World) AnswerWith(diff string) {
	w.Ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		if len(r.Format) > 0 {
			return ollamafake.Text(PlanJSON)
		}
		return ollamafake.Text("```diff\n" + diff + "```\n")
	})
}

// AnswerReproduceWith makes the model answer a request for a test that
// reproduces the issue with the diff test, every plan with PlanJSON and
// every patch request with the diff fix.
func (w *World) AnswerReproduceWith(test, fix string) {
	w.Ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		last := r.Messages[len(r.Messages)-1].Content
		switch {
		case len(r.Format) > 0:
			return ollamafake.Text(PlanJSON)
		case strings.Contains(last, "write a test that reproduces the problem"):
			return ollamafake.Text("```diff\n" + test + "```\n")
		}
		return ollamafake.Text("```diff\n" + fix + "```\n")
	})
}

// Clone replaces the workspace with a depth-1 clone of branch, as
// actions/checkout with persist-credentials: false leaves it.
func (w *World) Clone(branch string) {
	w.T.Helper()
	os.RemoveAll(w.Workspace)
	Git(w.T, w.Dir, nil, "clone", "-q", "--depth=1", "-b", branch, "file://"+w.Origin, w.Workspace)
}

// PushMain commits files onto origin's main as a person and refreshes the
// workspace.
func (w *World) PushMain(files map[string]string) {
	w.T.Helper()
	w.pushTo("main", false, files)
	w.Clone("main")
}

// PushBranch commits files onto a new branch of origin (from main), as a
// person would, and returns the commit.
func (w *World) PushBranch(branch string, files map[string]string) string {
	w.T.Helper()
	return w.pushTo(branch, true, files)
}

// PushOnto commits files onto origin's existing branch, as a person
// would, and returns the commit.
func (w *World) PushOnto(branch string, files map[string]string) string {
	w.T.Helper()
	return w.pushTo(branch, false, files)
}

func (w *World) pushTo(branch string, create bool, files map[string]string) string {
	w.T.Helper()
	c := filepath.Join(w.T.TempDir(), "c")
	Git(w.T, w.Dir, nil, "clone", "-q", "file://"+w.Origin, c)
	if create {
		Git(w.T, c, nil, "checkout", "-q", "-b", branch)
	} else {
		Git(w.T, c, nil, "checkout", "-q", branch)
	}
	WriteFiles(w.T, c, files)
	Git(w.T, c, nil, "add", ".")
	Git(w.T, c, HumanID, "commit", "-q", "-m", "change on "+branch)
	Git(w.T, c, nil, "push", "-q", "origin", branch)
	return Git(w.T, c, nil, "rev-parse", "HEAD")
}

// AddIssue opens alice's buggy-Add issue in GH and returns its number.
func (w *World) AddIssue() int {
	return w.GH.AddIssue(Repo, githubfake.Issue{Title: "Add returns the wrong sum", Body: "Add(2, 3) gives -1.", User: "alice"})
}

// StatusComments are agentfix's status comments on number.
func (w *World) StatusComments(number int) []githubfake.Comment {
	var out []githubfake.Comment
	for _, c := range w.GH.Comments(Repo, number) {
		if strings.Contains(c.Body, "<!-- agentfix:status") {
			out = append(out, c)
		}
	}
	return out
}

// ChatsMention reports whether any chat request sent text.
func (w *World) ChatsMention(text string) bool {
	for _, c := range w.Ollama.Chats() {
		for _, m := range c.Messages {
			if strings.Contains(m.Content, text) {
				return true
			}
		}
	}
	return false
}

// Tip is the commit origin's branch points at.
func (w *World) Tip(branch string) string {
	w.T.Helper()
	return Git(w.T, w.Origin, nil, "rev-parse", "refs/heads/"+branch)
}
