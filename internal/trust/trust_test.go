package trust_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/event"
	"github.com/agentfix/agentfix/internal/testing/githubfake"
	"github.com/agentfix/agentfix/internal/trust"
)

const repo = "acme/widgets"

// fake returns a fake GitHub with one collaborator per role, a same-repo
// PR (#1) and a fork PR (#2).
func fake(t *testing.T) (*githubfake.Server, *github.Client) {
	t.Helper()
	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	s.AddRepo("stranger/widgets", "main")
	for _, role := range []string{"admin", "maintain", "write", "triage", "read", "none"} {
		s.SetPermission(repo, role+"-user", role)
	}
	s.AddPR(repo, githubfake.Issue{Title: "same repo", PR: &githubfake.PullRequest{Head: "feature"}})
	s.AddPR(repo, githubfake.Issue{Title: "from a fork", PR: &githubfake.PullRequest{Head: "main", HeadRepo: "stranger/widgets"}})
	return s, s.Client(t)
}

func job(kind event.Kind, trigger event.Trigger, login, typ string) *event.Job {
	j := &event.Job{Kind: kind, Trigger: trigger, Owner: "acme", Repo: "widgets", Number: 5, Actor: event.Actor{Login: login, Type: typ}}
	if trigger == event.TriggerComment {
		j.Command = &event.Command{Verb: "fix", Line: "/agent fix"}
	}
	return j
}

func TestDecidePermissions(t *testing.T) {
	t.Parallel()
	_, gh := fake(t)
	tests := []struct {
		login   string
		allowed bool
		perm    string
		reason  string
	}{
		{"admin-user", true, "admin", "has admin permission"},
		{"maintain-user", true, "write", "has maintain permission"},
		{"write-user", true, "write", "has write permission"},
		{"triage-user", false, "read", "has triage permission"},
		{"read-user", false, "read", "has read permission"},
		{"none-user", false, "none", "has no permission"},
		{"stranger", false, "none", "is not a collaborator"},
	}
	for _, tc := range tests {
		for _, trig := range []event.Trigger{event.TriggerComment, event.TriggerLabel, event.TriggerDispatch} {
			t.Run(tc.login+"/"+string(trig), func(t *testing.T) {
				t.Parallel()
				d, err := trust.Decide(context.Background(), gh.Repositories, job(event.KindFixIssue, trig, tc.login, "User"), config.Default().Triggers)
				if err != nil {
					t.Fatal(err)
				}
				if d.Allowed != tc.allowed || d.Permission != tc.perm || !strings.Contains(d.Reason, tc.reason) {
					t.Errorf("%+v, want allowed=%v permission=%q reason containing %q", d, tc.allowed, tc.perm, tc.reason)
				}
				if !strings.Contains(d.Reason, "@"+tc.login) {
					t.Errorf("reason %q does not name the actor", d.Reason)
				}
			})
		}
	}
}

func TestDecideBots(t *testing.T) {
	t.Parallel()
	s, gh := fake(t)
	s.SetPermission(repo, "renovate[bot]", "write")
	allowBots := config.Triggers{AllowBots: []string{"renovate[bot]"}}
	tests := []struct {
		name, login, typ string
		triggers         config.Triggers
		allowed          bool
	}{
		{"bot type", "helper", "Bot", config.Triggers{}, false},
		{"bot login, user type", "renovate[bot]", "User", config.Triggers{}, false},
		{"bot with write permission still refused", "renovate[bot]", "Bot", config.Triggers{}, false},
		{"listed bot", "renovate[bot]", "Bot", allowBots, true},
		{"listing is exact", "Renovate[bot]", "Bot", allowBots, false},
		{"actions bot", "github-actions[bot]", "Bot", allowBots, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, kind := range []event.Kind{event.KindFixIssue, event.KindHelp} {
				d, err := trust.Decide(context.Background(), gh.Repositories, job(kind, event.TriggerComment, tc.login, tc.typ), tc.triggers)
				if err != nil {
					t.Fatal(err)
				}
				if d.Allowed != tc.allowed {
					t.Errorf("%s: %+v, want allowed=%v", kind, d, tc.allowed)
				}
			}
		})
	}
}

func TestDecideForks(t *testing.T) {
	t.Parallel()
	_, gh := fake(t)
	tests := []struct {
		name       string
		pr         int // 0: not resolved
		allowForks bool
		login      string
		allowed    bool
		reason     string
	}{
		{"same repo", 1, false, "write-user", true, "write permission"},
		{"fork refused", 2, false, "write-user", false, "comes from a fork (stranger/widgets)"},
		{"fork allowed by config", 2, true, "write-user", true, "write permission"},
		{"fork allowed, actor still checked", 2, true, "read-user", false, "read permission"},
		{"unresolved PR", 0, true, "admin-user", false, "could not tell"},
		{"stranger on a fork is told about themselves", 2, false, "stranger", false, "not a collaborator"},
		{"bot on a fork", 2, false, "helper[bot]", false, "is a bot"},
	}
	for _, kind := range []event.Kind{event.KindCheckPR, event.KindFixPR, event.KindRevisePR} {
		for _, tc := range tests {
			t.Run(string(kind)+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				decideFork(t, gh, kind, tc.pr, tc.allowForks, tc.login, tc.allowed, tc.reason)
			})
		}
	}
}

// decideFork decides a job of kind by login on PR pr (0: unresolved).
func decideFork(t *testing.T, gh *github.Client, kind event.Kind, pr int, allowForks bool, login string, allowed bool, reason string) {
	ctx := context.Background()
	j := job(kind, event.TriggerComment, login, "User")
	j.IsPR = true
	j.PR = &event.PullRequest{Number: pr}
	if pr > 0 {
		p, _, err := gh.PullRequests.Get(ctx, "acme", "widgets", pr)
		if err != nil {
			t.Fatal(err)
		}
		j.SetPullRequest(p)
	}
	d, err := trust.Decide(ctx, gh.Repositories, j, config.Triggers{AllowForks: allowForks})
	if err != nil {
		t.Fatal(err)
	}
	if d.Allowed != allowed || !strings.Contains(d.Reason, reason) {
		t.Errorf("%+v, want allowed=%v reason containing %q", d, allowed, reason)
	}
}

func TestDecideWithoutAPI(t *testing.T) {
	t.Parallel()
	s, gh := fake(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		job     *event.Job
		allowed bool
	}{
		{"schedule", &event.Job{Kind: event.KindNightly, Trigger: event.TriggerSchedule, Owner: "acme", Repo: "widgets"}, true},
		{"help from a stranger", job(event.KindHelp, event.TriggerComment, "stranger", "User"), true},
		{"ignored", &event.Job{Kind: event.KindIgnore, IgnoreReason: "edited"}, false},
		{"no actor", job(event.KindFixIssue, event.TriggerDispatch, "", ""), false},
	} {
		d, err := trust.Decide(ctx, gh.Repositories, tc.job, config.Triggers{})
		if err != nil || d.Allowed != tc.allowed || d.Reason == "" {
			t.Errorf("%s: %+v %v, want allowed=%v with a reason", tc.name, d, err, tc.allowed)
		}
	}
	for _, c := range s.Calls() {
		if strings.Contains(c.Path, "/permission") {
			t.Errorf("asked the permission API: %s", c.Path)
		}
	}
}

func TestDecideAPIError(t *testing.T) {
	t.Parallel()
	s, gh := fake(t)
	s.FailNext("GET", "/repos/acme/widgets/collaborators/*/permission", 1, http.StatusInternalServerError)
	d, err := trust.Decide(context.Background(), gh.Repositories, job(event.KindFixIssue, event.TriggerComment, "admin-user", "User"), config.Triggers{})
	if err == nil || d.Allowed {
		t.Fatalf("%+v %v: an API failure must not allow", d, err)
	}
	if !strings.Contains(err.Error(), "admin-user") || !strings.Contains(err.Error(), "acme/widgets") {
		t.Errorf("error %q does not name the user and the repository", err)
	}
}

func TestRefusalComment(t *testing.T) {
	t.Parallel()
	j := job(event.KindCheckPR, event.TriggerComment, "stranger", "User")
	j.Command = &event.Command{Verb: "check", Args: "go test ./...", Line: "/agent check go test ./..."}
	d := trust.Decision{Reason: "@stranger is not a collaborator on acme/widgets."}
	got := trust.RefusalComment(j, d)
	want := event.Marker + "\n> /agent check go test ./...\n\n@stranger, agentfix did not act on this.\n\nReason: @stranger is not a collaborator on acme/widgets.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !event.HasMarker(got) {
		t.Error("refusal lacks the marker: agentfix could answer itself")
	}
	if event.NewCommands("").Parse(got) != nil {
		t.Error("the refusal quoting the command parses as a command")
	}
	j = job(event.KindFixIssue, event.TriggerLabel, "read-user", "User")
	j.Label = "agent-fix"
	if got := trust.RefusalComment(j, d); !strings.Contains(got, "> label `agent-fix` added") {
		t.Errorf("label refusal %q does not quote the label", got)
	}
}
