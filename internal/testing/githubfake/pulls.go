package githubfake

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

func (s *Server) listPulls(w http.ResponseWriter, r *http.Request, rp *repo) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	// GitHub ignores a head filter without the "owner:" prefix and returns
	// every PR; so does the fake, to keep code honest.
	headOwner, headBranch, headOK := strings.Cut(q.Get("head"), ":")
	base := q.Get("base")
	var list []*Issue
	for _, is := range rp.issues {
		if is.PR == nil || (state != "all" && is.State != state) {
			continue
		}
		if headOK {
			owner, _, _ := strings.Cut(is.PR.HeadRepo, "/")
			if !strings.EqualFold(owner, headOwner) || is.PR.Head != headBranch {
				continue
			}
		}
		if base != "" && is.PR.Base != base {
			continue
		}
		list = append(list, is)
	}
	writeNumbered(w, r, list, func(is *Issue) any { return s.ghPR(rp, is) })
}

type pullInput struct {
	Title               *string `json:"title"`
	Head                string  `json:"head"`
	Base                *string `json:"base"`
	Body                *string `json:"body"`
	State               *string `json:"state"`
	Draft               *bool   `json:"draft"`
	MaintainerCanModify *bool   `json:"maintainer_can_modify"`
}

func (s *Server) createPull(w http.ResponseWriter, r *http.Request, rp *repo) {
	var in pullInput
	if !decodeBody(w, r, &in) {
		return
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		validationFailed(w, errorDetail{Resource: "PullRequest", Field: "title", Code: "missing_field"})
		return
	}
	if in.Base == nil || *in.Base == "" {
		validationFailed(w, errorDetail{Resource: "PullRequest", Field: "base", Code: "missing_field"})
		return
	}
	if in.Body != nil && tooLong(w, "PullRequest", *in.Body) {
		return
	}
	headRepo, headBranch := rp, in.Head
	if owner, branch, ok := strings.Cut(in.Head, ":"); ok {
		headBranch = branch
		if !strings.EqualFold(owner, rp.owner) {
			headRepo = s.repos[key(owner+"/"+rp.name)]
		}
	}
	baseSHA, ok := s.branchSHA(rp, *in.Base)
	if !ok {
		validationFailed(w, errorDetail{Resource: "PullRequest", Field: "base", Code: "invalid"})
		return
	}
	headSHA, ok := s.branchSHA(headRepo, headBranch)
	if !ok {
		validationFailed(w, errorDetail{Resource: "PullRequest", Field: "head", Code: "invalid"})
		return
	}
	for _, is := range rp.issues {
		if is.PR != nil && is.State == "open" && is.PR.Head == headBranch &&
			strings.EqualFold(is.PR.HeadRepo, headRepo.fullName()) && is.PR.Base == *in.Base {
			validationFailed(w, errorDetail{Resource: "PullRequest", Code: "custom",
				Message: fmt.Sprintf("A pull request already exists for %s:%s.", headRepo.owner, headBranch)})
			return
		}
	}
	if headSHA == baseSHA {
		validationFailed(w, errorDetail{Resource: "PullRequest", Code: "custom",
			Message: fmt.Sprintf("No commits between %s and %s", *in.Base, in.Head)})
		return
	}
	is := Issue{Title: *in.Title, User: s.identity, PR: &PullRequest{
		Head: headBranch, HeadRepo: headRepo.fullName(), HeadSHA: headSHA, Base: *in.Base,
	}}
	if in.Body != nil {
		is.Body = *in.Body
	}
	if in.Draft != nil {
		is.PR.Draft = *in.Draft
	}
	if in.MaintainerCanModify != nil {
		is.PR.MaintainerCanModify = *in.MaintainerCanModify
	}
	c := s.addIssue(rp, is)
	s.syncPullRef(rp, c)
	writeJSON(w, http.StatusCreated, s.ghPR(rp, c))
}

func (s *Server) pull(w http.ResponseWriter, r *http.Request, rp *repo) *Issue {
	n, err := strconv.Atoi(r.PathValue("number"))
	is := rp.issues[n]
	if err != nil || is == nil || is.PR == nil {
		notFound(w)
		return nil
	}
	return is
}

func (s *Server) getPull(w http.ResponseWriter, r *http.Request, rp *repo) {
	if is := s.pull(w, r, rp); is != nil {
		s.syncPullRef(rp, is) // the head branch may have moved since
		writeJSON(w, http.StatusOK, s.ghPR(rp, is))
	}
}

func (s *Server) updatePull(w http.ResponseWriter, r *http.Request, rp *repo) {
	is := s.pull(w, r, rp)
	if is == nil {
		return
	}
	var in pullInput
	if !decodeBody(w, r, &in) {
		return
	}
	if in.Body != nil && tooLong(w, "PullRequest", *in.Body) {
		return
	}
	if in.State != nil && *in.State != "open" && *in.State != "closed" {
		validationFailed(w, errorDetail{Resource: "PullRequest", Field: "state", Code: "invalid"})
		return
	}
	if in.Base != nil {
		if _, ok := s.branchSHA(rp, *in.Base); !ok {
			validationFailed(w, errorDetail{Resource: "PullRequest", Field: "base", Code: "invalid"})
			return
		}
		is.PR.Base = *in.Base
	}
	if in.Title != nil {
		is.Title = *in.Title
	}
	if in.Body != nil {
		is.Body = *in.Body
	}
	if in.State != nil {
		is.State = *in.State
	}
	if in.MaintainerCanModify != nil {
		is.PR.MaintainerCanModify = *in.MaintainerCanModify
	}
	is.UpdatedAt = s.now().UTC()
	writeJSON(w, http.StatusOK, s.ghPR(rp, is))
}

// SetPRState sets a PR's state and merged flag, as a human would by
// closing or merging it.
func (s *Server) SetPRState(fullName string, number int, state string, merged bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.mustRepo(fullName).issues[number]
	if is == nil || is.PR == nil {
		panic(fmt.Sprintf("githubfake: SetPRState: %s#%d is not a pull request", fullName, number))
	}
	is.State = state
	is.PR.Merged = merged
	is.UpdatedAt = s.now().UTC()
}
