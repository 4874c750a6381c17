package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v60/github"
)

// ActionsBot is the login the workflow's GITHUB_TOKEN writes as.
const ActionsBot = "github-actions[bot]"

// Identify sets p.Self to the login the token acts as. A person's token
// may ask GET /user; an installation token (the workflow's GITHUB_TOKEN)
// is answered 403 there, and is then taken to be ActionsBot. Other errors
// are returned, with p.Self set to ActionsBot all the same.
//
// GitHub docs: REST "Get the authenticated user".
func (p *Publisher) Identify(ctx context.Context) error {
	u, resp, err := p.GH.Users.Get(ctx, "")
	switch {
	case err == nil && u.GetLogin() != "":
		p.Self = u.GetLogin()
		return nil
	case err == nil:
		err = errors.New("GET /user named no login")
	case resp != nil && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusNotFound):
		p.Self = ActionsBot
		return nil
	}
	p.Self = ActionsBot
	return fmt.Errorf("who is the token? %w (taking it to be %s)", err, ActionsBot)
}

// self is the login agentfix writes as.
func (p *Publisher) self() string {
	if p.Self == "" {
		return ActionsBot
	}
	return p.Self
}

// mine reports whether u is the login agentfix writes as.
func (p *Publisher) mine(u *github.User) bool {
	return strings.EqualFold(u.GetLogin(), p.self())
}
