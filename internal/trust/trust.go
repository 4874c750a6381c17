// Package trust decides whether the actor behind a job may make agentfix
// act, and says why. It fails closed: anything it cannot establish is a
// refusal with a reason, never a silent yes.
package trust

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/event"
)

// PermissionGetter is the one API call trust needs: the collaborator
// permission of a user. *github.RepositoriesService satisfies it.
//
// GitHub docs: REST "Get repository permissions for a user".
type PermissionGetter interface {
	GetPermissionLevel(ctx context.Context, owner, repo, user string) (*github.RepositoryPermissionLevel, *github.Response, error)
}

var _ PermissionGetter = (*github.RepositoriesService)(nil)

// Decision is the outcome of Decide.
type Decision struct {
	Allowed bool
	// Reason is one sentence saying why, for the log, the step summary and
	// the refusal comment.
	Reason string
	// Permission is what the API said ("admin", "write", "read", "none"),
	// empty when it was not asked.
	Permission string
	// Role is the fine-grained role (user.role_name: "maintain",
	// "triage", ...), when the API gave one.
	Role string
}

func allow(format string, args ...any) Decision {
	return Decision{Allowed: true, Reason: fmt.Sprintf(format, args...)}
}

func refuse(format string, args ...any) Decision {
	return Decision{Reason: fmt.Sprintf(format, args...)}
}

// Decide says whether job may run. Rules, in order:
//   - ignored jobs are never allowed;
//   - scheduled runs are the repository's own workflow and are allowed;
//   - bots (type Bot, or a login ending in [bot]) are refused unless their
//     exact login is in triggers.allow_bots, which is then enough (an app
//     has no collaborator permission to ask for);
//   - help is answered for any human;
//   - everyone else needs admin, maintain or write permission from the
//     collaborator-permission API (author_association is not trusted). A
//     404 means not a collaborator. An API error is returned as an error:
//     the caller cannot tell yes from no and must not run;
//   - then a job that runs a PR's code (check-pr, fix-pr, revise-pr) on a
//     PR from a fork is refused unless triggers.allow_forks, and a PR
//     whose head has not been resolved (Job.SetPullRequest) is refused.
//
// The actor is checked before the fork, so a stranger is told that they
// may not trigger agentfix, not something about the PR.
func Decide(ctx context.Context, gh PermissionGetter, job *event.Job, t config.Triggers) (Decision, error) {
	switch {
	case job.Kind == event.KindIgnore:
		return refuse("the event does not trigger agentfix: %s", job.IgnoreReason), nil
	case job.Kind == event.KindNightly && job.Trigger == event.TriggerSchedule:
		return allow("scheduled runs are started by the repository's own workflow"), nil
	}
	a := job.Actor
	switch {
	case a.Login == "":
		return refuse("the event names no actor, so agentfix cannot check their permission"), nil
	case a.IsBot() && !slices.Contains(t.AllowBots, a.Login):
		return refuse("@%s is a bot, and bots may trigger agentfix only when listed in triggers.allow_bots", a.Login), nil
	}
	var d Decision
	switch {
	case a.IsBot():
		d = allow("@%s is listed in triggers.allow_bots", a.Login)
	case job.Kind == event.KindHelp:
		return allow("help is answered for anyone"), nil
	default:
		var err error
		if d, err = permission(ctx, gh, job); err != nil || !d.Allowed {
			return d, err
		}
	}
	if runsPRCode(job.Kind) {
		if fd, ok := forkDecision(job, t); !ok {
			fd.Permission, fd.Role = d.Permission, d.Role
			return fd, nil
		}
	}
	return d, nil
}

// runsPRCode reports whether a job of kind runs a pull request's code:
// check-pr, `/agent fix` on a PR, and a revision of agentfix's own PR.
func runsPRCode(kind event.Kind) bool {
	return kind == event.KindCheckPR || kind == event.KindFixPR || kind == event.KindRevisePR
}

// forkDecision refuses a job that runs a fork PR's code unless allowed;
// ok is false when it refuses.
func forkDecision(job *event.Job, t config.Triggers) (Decision, bool) {
	pr := job.PR
	if pr == nil || !pr.Resolved {
		return refuse("agentfix could not tell whether pull request #%d comes from a fork, so it will not run its code", job.Number), false
	}
	if pr.Fork && !t.AllowForks {
		head := pr.HeadRepo
		if head == "" {
			head = "a deleted repository"
		}
		return refuse("pull request #%d comes from a fork (%s), and agentfix runs a fork's code only when triggers.allow_forks is true in .github/agent-fix.yml", job.Number, head), false
	}
	return Decision{}, true
}

// writeRoles are the permissions that may trigger agentfix. The API
// collapses maintain into write and triage into read.
var writeRoles = []string{"admin", "maintain", "write"}

func permission(ctx context.Context, gh PermissionGetter, job *event.Job) (Decision, error) {
	login := job.Actor.Login
	lvl, resp, err := gh.GetPermissionLevel(ctx, job.Owner, job.Repo, login)
	if err != nil {
		if notFound(resp, err) {
			// GitHub may answer 404 for someone who is not a collaborator.
			d := refuse("@%s is not a collaborator on %s; only collaborators with write, maintain or admin permission can trigger agentfix", login, job.FullName())
			d.Permission = "none"
			return d, nil
		}
		return Decision{}, fmt.Errorf("trust: get collaborator permission of %s on %s: %w", login, job.FullName(), err)
	}
	perm := strings.ToLower(lvl.GetPermission())
	role := strings.ToLower(lvl.GetUser().GetRoleName())
	shown := perm
	if role != "" && role != perm {
		shown = role
	}
	d := Decision{Permission: perm, Role: role}
	if slices.Contains(writeRoles, perm) {
		d.Allowed = true
		d.Reason = fmt.Sprintf("@%s has %s permission on %s", login, shown, job.FullName())
		return d, nil
	}
	if shown == "" || shown == "none" {
		shown = "no"
	}
	d.Reason = fmt.Sprintf("@%s has %s permission on %s; only collaborators with write, maintain or admin permission can trigger agentfix", login, shown, job.FullName())
	return d, nil
}

func notFound(resp *github.Response, err error) bool {
	if resp != nil && resp.Response != nil {
		return resp.StatusCode == http.StatusNotFound
	}
	var er *github.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound
}

// HeadMoved says why a pull request's code must not run when the head
// checked out (tip) is not the head the decision approved: commits pushed
// since then were approved by no one. It returns "" when the heads match.
func HeadMoved(job *event.Job, tip string) string {
	if job.PR == nil || job.PR.HeadSHA == "" || tip == job.PR.HeadSHA {
		return ""
	}
	return fmt.Sprintf("the head of #%d moved from %.12s to %.12s while agentfix was starting; comment the command again to check the new commits", job.Number, job.PR.HeadSHA, tip)
}
