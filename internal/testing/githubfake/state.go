package githubfake

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// repo is one repository's state; guarded by Server.mu.
type repo struct {
	owner, name   string
	defaultBranch string
	private       bool
	perms         map[string]Permission // by lower-case login
	issues        map[int]*Issue        // issues and PRs, by number
	nextNumber    int
	comments      map[int64]*Comment
	labels        map[string]string // lower-case name -> name
	branches      map[string]string // name -> sha
	gitDir        string
	reviews       map[int64]*Review
	reviewComment map[int64]*ReviewComment
}

func (r *repo) fullName() string { return r.owner + "/" + r.name }

// Permission is a collaborator's access. Role is the fine role ("admin",
// "maintain", "write", "triage", "read"); the API's permission field
// collapses it (maintain shows as write, triage as read).
type Permission struct {
	Role string
}

// collapsed is the permission field the API returns for role.
func (p Permission) collapsed() string {
	switch p.Role {
	case "admin":
		return "admin"
	case "maintain", "write":
		return "write"
	case "triage", "read":
		return "read"
	}
	return "none"
}

// Issue is an issue or pull request as the fake holds it; snapshot
// accessors return copies.
type Issue struct {
	Number    int
	Title     string
	Body      string
	State     string // open, closed
	User      string
	Labels    []string
	CreatedAt time.Time
	UpdatedAt time.Time
	// PR is set for pull requests.
	PR *PullRequest
}

// PullRequest is the pull-request part of an Issue.
type PullRequest struct {
	// Head is the head branch name; HeadRepo its repository (owner/name),
	// the base repository unless the PR comes from a fork.
	Head     string
	HeadRepo string
	HeadSHA  string
	Base     string
	Draft    bool
	Merged   bool
	// MaintainerCanModify mirrors the API field.
	MaintainerCanModify bool
	// RequestedReviewers are the logins whose review is requested; a
	// submitted review removes its author, as on GitHub.
	RequestedReviewers []string
}

// Comment is an issue or PR comment.
type Comment struct {
	ID        int64
	Issue     int
	User      string
	Body      string
	CreatedAt time.Time
	UpdatedAt time.Time
	// Reactions are the reaction contents added through the API ("eyes").
	Reactions []string
}

// Edited reports whether the comment was changed after it was created.
func (c Comment) Edited() bool { return c.UpdatedAt.After(c.CreatedAt) }

func (i *Issue) clone() Issue {
	c := *i
	c.Labels = slices.Clone(i.Labels)
	if i.PR != nil {
		pr := *i.PR
		pr.RequestedReviewers = slices.Clone(i.PR.RequestedReviewers)
		c.PR = &pr
	}
	return c
}

// AddRepo creates the repository fullName ("owner/name") with its default
// branch; it replaces any repository of that name.
func (s *Server) AddRepo(fullName, defaultBranch string) {
	owner, name, ok := strings.Cut(fullName, "/")
	if !ok {
		panic(fmt.Sprintf("githubfake: AddRepo(%q): want owner/name", fullName))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repos[key(fullName)] = &repo{
		owner: owner, name: name, defaultBranch: defaultBranch,
		perms:      map[string]Permission{},
		issues:     map[int]*Issue{},
		nextNumber: 1,
		comments:   map[int64]*Comment{},
		labels:     map[string]string{},
		branches:   map[string]string{},

		reviews:       map[int64]*Review{},
		reviewComment: map[int64]*ReviewComment{},
	}
}

// mustRepo returns the repository or panics: seeding an unknown
// repository is a bug in the test. s.mu held.
func (s *Server) mustRepo(fullName string) *repo {
	r := s.repos[key(fullName)]
	if r == nil {
		panic(fmt.Sprintf("githubfake: repository %q not added (call AddRepo first)", fullName))
	}
	return r
}

// SetPermission gives login the role ("admin", "maintain", "write",
// "triage", "read", or "none") on the repository. A login without a role
// is not a collaborator: the permission API answers 404 for it, except for
// the repository's owner, who is admin.
func (s *Server) SetPermission(fullName, login, role string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustRepo(fullName).perms[strings.ToLower(login)] = Permission{Role: role}
}

// SetBranch sets branch to sha in the in-memory branch list (used when no
// git directory is attached).
func (s *Server) SetBranch(fullName, branch, sha string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustRepo(fullName).branches[branch] = sha
}

// DeleteBranch removes branch from the in-memory branch list.
func (s *Server) DeleteBranch(fullName, branch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.mustRepo(fullName).branches, branch)
}

// SetGitDir attaches a git repository (typically the bare repository the
// test uses as origin): branches and refs are then read from it with git
// (falling back to SetBranch's list), so what the code under test pushes is
// what the API reports; and each PR gets refs/pull/<n>/head there when its
// head commit is in it. For a fork PR, push the fork's commit to the git
// directory first (any ref) and give its SHA as PullRequest.HeadSHA.
func (s *Server) SetGitDir(fullName, dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustRepo(fullName).gitDir = dir
}

// AddIssue creates an issue and returns its number. Zero fields get
// defaults: state open, user octocat.
func (s *Server) AddIssue(fullName string, is Issue) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	return s.addIssue(r, is).Number
}

// AddPR creates a pull request and returns its number. is.PR must be set;
// HeadRepo defaults to the repository itself, Base to its default branch.
func (s *Server) AddPR(fullName string, is Issue) int {
	if is.PR == nil {
		panic("githubfake: AddPR needs Issue.PR")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	pr := *is.PR
	if pr.HeadRepo == "" {
		pr.HeadRepo = r.fullName()
	}
	if pr.Base == "" {
		pr.Base = r.defaultBranch
	}
	is.PR = &pr
	c := s.addIssue(r, is)
	s.syncPullRef(r, c)
	return c.Number
}

// addIssue stores is with the next number; s.mu held.
func (s *Server) addIssue(r *repo, is Issue) *Issue {
	now := s.now().UTC().Truncate(time.Second)
	c := is.clone()
	c.Number = r.nextNumber
	r.nextNumber++
	if c.State == "" {
		c.State = "open"
	}
	if c.User == "" {
		c.User = "octocat"
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	c.UpdatedAt = c.CreatedAt
	for _, l := range c.Labels {
		r.labels[strings.ToLower(l)] = l
	}
	r.issues[c.Number] = &c
	return &c
}

// AddComment adds a comment by user to issue or PR number and returns its
// id.
func (s *Server) AddComment(fullName string, number int, user, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	if r.issues[number] == nil {
		panic(fmt.Sprintf("githubfake: AddComment: %s#%d does not exist", fullName, number))
	}
	return s.addComment(r, number, user, body).ID
}

// addComment stores a comment; s.mu held.
func (s *Server) addComment(r *repo, number int, user, body string) *Comment {
	s.nextID++
	now := s.now().UTC()
	c := &Comment{ID: s.nextID, Issue: number, User: user, Body: body, CreatedAt: now, UpdatedAt: now}
	r.comments[c.ID] = c
	return c
}

// Issue returns a copy of issue or PR number.
func (s *Server) Issue(fullName string, number int) (Issue, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.mustRepo(fullName).issues[number]
	if is == nil {
		return Issue{}, false
	}
	return is.clone(), true
}

// Issues returns copies of all issues and PRs, by number.
func (s *Server) Issues(fullName string) []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	var out []Issue
	for _, is := range r.issues {
		out = append(out, is.clone())
	}
	slices.SortFunc(out, func(a, b Issue) int { return a.Number - b.Number })
	return out
}

// PullRequests returns copies of the pull requests in state ("open",
// "closed", or "" for all), by number.
func (s *Server) PullRequests(fullName, state string) []Issue {
	var out []Issue
	for _, is := range s.Issues(fullName) {
		if is.PR != nil && (state == "" || is.State == state) {
			out = append(out, is)
		}
	}
	return out
}

// OpenPRsByHead returns the open PRs whose head branch is head (in any
// head repository).
func (s *Server) OpenPRsByHead(fullName, head string) []Issue {
	var out []Issue
	for _, is := range s.PullRequests(fullName, "open") {
		if is.PR.Head == head {
			out = append(out, is)
		}
	}
	return out
}

// Comments returns copies of the comments on issue or PR number, oldest
// first.
func (s *Server) Comments(fullName string, number int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.mustRepo(fullName).comments {
		if c.Issue == number {
			cc := *c
			cc.Reactions = slices.Clone(c.Reactions)
			out = append(out, cc)
		}
	}
	slices.SortFunc(out, func(a, b Comment) int { return int(a.ID - b.ID) })
	return out
}

// Labels returns the labels on issue or PR number.
func (s *Server) Labels(fullName string, number int) []string {
	is, ok := s.Issue(fullName, number)
	if !ok {
		return nil
	}
	return is.Labels
}
