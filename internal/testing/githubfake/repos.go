package githubfake

import (
	"fmt"
	"net/http"
	"os/exec"
	"strings"

	"github.com/google/go-github/v60/github"
)

// routes registers every endpoint the fake speaks, below Prefix.
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /user", s.getUser)
	mux.HandleFunc("GET /repos/{owner}/{repo}", s.withRepo(s.getRepo))
	mux.HandleFunc("GET /repos/{owner}/{repo}/collaborators/{user}/permission", s.withRepo(s.getPermission))
	mux.HandleFunc("GET /repos/{owner}/{repo}/branches/{branch...}", s.withRepo(s.getBranch))
	mux.HandleFunc("GET /repos/{owner}/{repo}/git/ref/{ref...}", s.withRepo(s.getRef))
	mux.HandleFunc("GET /repos/{owner}/{repo}/contents/{path...}", s.withRepo(s.getContents))
	mux.HandleFunc("GET /repos/{owner}/{repo}/labels", s.withRepo(s.listRepoLabels))
	mux.HandleFunc("POST /repos/{owner}/{repo}/labels", s.withRepo(s.createRepoLabel))
	mux.HandleFunc("GET /repos/{owner}/{repo}/issues", s.withRepo(s.listIssues))
	mux.HandleFunc("POST /repos/{owner}/{repo}/issues", s.withRepo(s.createIssue))
	// Issue sub-resources overlap (issues/{n}/comments and
	// issues/comments/{id}), so one handler dispatches them.
	mux.HandleFunc("/repos/{owner}/{repo}/issues/{rest...}", s.withRepo(s.issuesTree))
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls", s.withRepo(s.listPulls))
	mux.HandleFunc("POST /repos/{owner}/{repo}/pulls", s.withRepo(s.createPull))
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls/{number}", s.withRepo(s.getPull))
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/pulls/{number}", s.withRepo(s.updatePull))
	// Reviews, review comments and requested reviewers: see pullsTree.
	mux.HandleFunc("/repos/{owner}/{repo}/pulls/{rest...}", s.withRepo(s.pullsTree))
	mux.HandleFunc("GET /search/issues", s.searchIssues)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { notFound(w) })
}

// withRepo locks the state, finds the repository named in the path (404
// when unknown) and calls h.
func (s *Server) withRepo(h func(w http.ResponseWriter, r *http.Request, rp *repo)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		rp := s.repos[key(r.PathValue("owner")+"/"+r.PathValue("repo"))]
		if rp == nil {
			notFound(w)
			return
		}
		h(w, r, rp)
	}
}

// getUser answers as GitHub does for the Actions token, which is an
// installation token and not a user: 403; after SetUserToken, as for a
// person's token: the identity.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	user, login := s.userToken, s.identity
	s.mu.Unlock()
	if user {
		writeJSON(w, http.StatusOK, ghUser(login))
		return
	}
	writeError(w, http.StatusForbidden, "Resource not accessible by integration",
		"https://docs.github.com/rest/users/users#get-the-authenticated-user")
}

func (s *Server) getRepo(w http.ResponseWriter, r *http.Request, rp *repo) {
	writeJSON(w, http.StatusOK, s.ghRepo(rp))
}

// permissionBody is the collaborator-permission answer: the collapsed
// permission, and the fine role in role_name (top level and user).
type permissionBody struct {
	Permission string       `json:"permission"`
	RoleName   string       `json:"role_name"`
	User       *github.User `json:"user"`
}

func (s *Server) getPermission(w http.ResponseWriter, r *http.Request, rp *repo) {
	login := r.PathValue("user")
	p, ok := rp.perms[strings.ToLower(login)]
	if !ok && strings.EqualFold(login, rp.owner) {
		// The owner of a user-owned repository is its admin.
		p, ok = Permission{Role: "admin"}, true
	}
	if !ok {
		// A non-collaborator: GitHub may answer 404 here.
		writeError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user")
		return
	}
	u := ghUser(login)
	u.RoleName = github.String(p.Role)
	writeJSON(w, http.StatusOK, permissionBody{Permission: p.collapsed(), RoleName: p.Role, User: u})
}

// branchSHA is the tip of branch in rp: from its git directory when one is
// attached and has the branch, else from the in-memory list. s.mu held.
func (s *Server) branchSHA(rp *repo, branch string) (string, bool) {
	if rp == nil || branch == "" {
		return "", false
	}
	if rp.gitDir != "" {
		if sha, ok := gitRevParse(rp.gitDir, "refs/heads/"+branch); ok {
			return sha, true
		}
	}
	sha, ok := rp.branches[branch]
	return sha, ok
}

func gitRevParse(gitDir, ref string) (string, bool) {
	out, err := exec.Command("git", "--git-dir", gitDir, "rev-parse", "--verify", "--quiet", ref+"^{commit}").Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// syncPullRef points refs/pull/<n>/head in rp's git directory at the PR's
// head commit, as GitHub does for every PR (that is how a workflow fetches
// a fork's code). It does nothing without a git directory or when the
// commit is not in it. s.mu held.
func (s *Server) syncPullRef(rp *repo, is *Issue) {
	if rp.gitDir == "" || is.PR == nil {
		return
	}
	sha := is.PR.HeadSHA
	if tip, ok := s.branchSHA(s.repos[key(is.PR.HeadRepo)], is.PR.Head); ok {
		sha = tip
	}
	if sha == "" {
		return
	}
	if _, ok := gitRevParse(rp.gitDir, sha); !ok {
		return
	}
	_ = exec.Command("git", "--git-dir", rp.gitDir, "update-ref", fmt.Sprintf("refs/pull/%d/head", is.Number), sha).Run()
}

func (s *Server) getBranch(w http.ResponseWriter, r *http.Request, rp *repo) {
	name := r.PathValue("branch")
	sha, ok := s.branchSHA(rp, name)
	if !ok {
		writeError(w, http.StatusNotFound, "Branch not found", "https://docs.github.com/rest/branches/branches#get-a-branch")
		return
	}
	writeJSON(w, http.StatusOK, &github.Branch{
		Name:      github.String(name),
		Commit:    &github.RepositoryCommit{SHA: github.String(sha)},
		Protected: github.Bool(name == rp.defaultBranch),
	})
}

func (s *Server) getRef(w http.ResponseWriter, r *http.Request, rp *repo) {
	ref := r.PathValue("ref")
	branch, ok := strings.CutPrefix(ref, "heads/")
	sha, found := s.branchSHA(rp, branch)
	if !ok || !found {
		writeError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/git/refs#get-a-reference")
		return
	}
	writeJSON(w, http.StatusOK, &github.Reference{
		Ref:    github.String("refs/" + ref),
		URL:    github.String(s.APIURL() + "/repos/" + rp.fullName() + "/git/refs/" + escapeRef(ref)),
		Object: &github.GitObject{Type: github.String("commit"), SHA: github.String(sha)},
	})
}

func (s *Server) listRepoLabels(w http.ResponseWriter, r *http.Request, rp *repo) {
	var names []string
	for _, n := range rp.labels {
		names = append(names, n)
	}
	sortStrings(names)
	writeJSON(w, http.StatusOK, paginate(w, r, s.ghLabels(names)))
}

func (s *Server) createRepoLabel(w http.ResponseWriter, r *http.Request, rp *repo) {
	var in struct {
		Name string `json:"name"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	if in.Name == "" {
		validationFailed(w, errorDetail{Resource: "Label", Field: "name", Code: "missing_field"})
		return
	}
	if _, ok := rp.labels[strings.ToLower(in.Name)]; ok {
		validationFailed(w, errorDetail{Resource: "Label", Field: "name", Code: "already_exists"})
		return
	}
	rp.labels[strings.ToLower(in.Name)] = in.Name
	writeJSON(w, http.StatusCreated, s.ghLabels([]string{in.Name})[0])
}
