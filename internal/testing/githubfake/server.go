// Package githubfake is a stateful fake of the GitHub REST API for tests,
// served by httptest under the /api/v3 prefix (as GitHub Enterprise Server
// does) and meant to be driven through the real go-github client. It holds
// repositories, collaborator permissions, issues and pull requests (one
// number space; the issues list includes PRs), comments, labels, branches,
// search, and pull request reviews with their inline comments, threaded
// replies and requested reviewers; it answers with GitHub's status codes
// and error shapes where code depends on them, and can inject faults: 5xx,
// primary and secondary rate limits. Tests assert on its state through
// snapshot accessors.
//
// The binary under test finds it by GITHUB_API_URL=s.APIURL() (no trailing
// slash, as Actions sets it).
//
// Endpoints (below /api/v3); anything else is 404:
//
//	GET    /user                                    403, as for the Actions token (see SetUserToken)
//	GET    /repos/{o}/{r}
//	GET    /repos/{o}/{r}/collaborators/{u}/permission
//	GET    /repos/{o}/{r}/branches/{branch}         404 when missing
//	GET    /repos/{o}/{r}/git/ref/heads/{branch}
//	GET    /repos/{o}/{r}/labels, POST (create)
//	GET    /repos/{o}/{r}/issues                    state, labels, creator; PRs included
//	POST   /repos/{o}/{r}/issues
//	GET    /repos/{o}/{r}/issues/{n}, PATCH
//	GET    /repos/{o}/{r}/issues/{n}/comments, POST
//	GET    /repos/{o}/{r}/issues/comments/{id}, PATCH, DELETE
//	POST   /repos/{o}/{r}/issues/comments/{id}/reactions
//	GET    /repos/{o}/{r}/issues/{n}/labels, POST (add), PUT (replace), DELETE
//	DELETE /repos/{o}/{r}/issues/{n}/labels/{name}
//	GET    /repos/{o}/{r}/pulls                     state, head (owner:branch only), base
//	POST   /repos/{o}/{r}/pulls                     422 "A pull request already exists ..."
//	GET    /repos/{o}/{r}/pulls/{n}, PATCH
//	GET    /repos/{o}/{r}/pulls/{n}/reviews, POST   a comment-only or changes review needs a body; not on one's own PR
//	GET    /repos/{o}/{r}/pulls/{n}/reviews/{id}
//	GET    /repos/{o}/{r}/pulls/{n}/reviews/{id}/comments
//	GET    /repos/{o}/{r}/pulls/{n}/comments, POST  (in_reply_to: a reply)
//	POST   /repos/{o}/{r}/pulls/{n}/comments/{id}/replies
//	GET    /repos/{o}/{r}/pulls/comments/{id}
//	GET    /repos/{o}/{r}/pulls/{n}/requested_reviewers, POST, DELETE  422 for the author or a non-collaborator
//	GET    /search/issues                           repo:, is:, state:, label:, author:, in:, words
//
// Lists are paginated (page, per_page, Link header) like GitHub's.
package githubfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Prefix is the path the API is mounted under. Requests outside it get a
// plain 404, so a client that drops the prefix fails loudly.
const Prefix = "/api/v3"

// DefaultIdentity is the login the Actions token acts as.
const DefaultIdentity = "github-actions[bot]"

// Server is the fake. All methods are safe for concurrent use.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	repos    map[string]*repo // by lower-case owner/name
	faults   []*fault
	calls    []Call
	nextID   int64
	identity string
	// userToken: the token is a person's, whom GET /user names.
	userToken bool
	token     string
	now       func() time.Time
	quota     quota
}

// Call is one request the fake received, for assertions and debugging.
type Call struct {
	Method string
	// Path is the path below Prefix, with the query: "/repos/o/r/pulls?head=o:b".
	Path   string
	Status int
}

// New starts a fake and stops it when tb's test ends. The test fails if
// a fault it injected never fired: a fault that was not hit tests nothing.
func New(tb testing.TB) *Server {
	tb.Helper()
	s := NewServer()
	tb.Cleanup(func() {
		s.Close()
		if left := s.unfired(); len(left) > 0 {
			tb.Errorf("githubfake: injected faults never fired: %s", strings.Join(left, "; "))
		}
	})
	return s
}

// NewServer starts a fake; Close stops it.
func NewServer() *Server {
	s := &Server{
		repos:    map[string]*repo{},
		nextID:   1000,
		identity: DefaultIdentity,
		now:      time.Now,
	}
	mux := http.NewServeMux()
	s.routes(mux)
	root := http.NewServeMux()
	root.Handle(Prefix+"/", http.StripPrefix(Prefix, s.middleware(mux)))
	s.srv = httptest.NewServer(root)
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// URL is the server's root, usable as GITHUB_SERVER_URL: the html_url of
// issues and PRs point below it.
func (s *Server) URL() string { return s.srv.URL }

// APIURL is what GITHUB_API_URL should be: URL()+"/api/v3", no trailing
// slash.
func (s *Server) APIURL() string { return s.srv.URL + Prefix }

// SetIdentity sets the login that writes comments, issues and PRs made
// through the API (default github-actions[bot]).
func (s *Server) SetIdentity(login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.identity = login
}

// SetUserToken makes the token a person's (a PAT): GET /user answers
// with the identity instead of 403.
func (s *Server) SetUserToken() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.userToken = true
}

// RequireToken makes every request without `Authorization: Bearer <tok>`
// (or `token <tok>`) fail with 401, as GitHub does for a bad token.
func (s *Server) RequireToken(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = tok
}

// Calls returns the requests received so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// statusRecorder keeps the status for the call log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			p := r.URL.EscapedPath()
			if r.URL.RawQuery != "" {
				p += "?" + r.URL.RawQuery
			}
			s.mu.Lock()
			s.calls = append(s.calls, Call{Method: r.Method, Path: p, Status: rec.status})
			s.mu.Unlock()
		}()
		h := rec.Header()
		h.Set("X-GitHub-Api-Version-Selected", "2022-11-28")
		s.mu.Lock()
		tok := s.token
		now := s.now()
		if tok != "" {
			auth := r.Header.Get("Authorization")
			if auth != "Bearer "+tok && auth != "token "+tok {
				s.mu.Unlock()
				writeError(rec, http.StatusUnauthorized, "Bad credentials", "https://docs.github.com/rest")
				return
			}
		}
		f := s.takeFault(r)
		if f != nil {
			s.mu.Unlock()
			f.write(rec, now)
			return
		}
		ok := s.spendQuota(rec, now)
		if !s.quota.on {
			h.Set("X-RateLimit-Limit", "5000")
			h.Set("X-RateLimit-Remaining", "4999")
			h.Set("X-RateLimit-Reset", fmt.Sprint(now.Add(time.Hour).Unix()))
		}
		s.mu.Unlock()
		if ok {
			next.ServeHTTP(rec, r)
		}
	})
}

// errorBody is GitHub's error shape.
type errorBody struct {
	Message          string        `json:"message"`
	Errors           []errorDetail `json:"errors,omitempty"`
	DocumentationURL string        `json:"documentation_url,omitempty"`
}

type errorDetail struct {
	Resource string `json:"resource,omitempty"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg, doc string) {
	writeJSON(w, status, errorBody{Message: msg, DocumentationURL: doc})
}

func notFound(w http.ResponseWriter) {
	writeError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest")
}

// validationFailed is the 422 GitHub answers for invalid input: the
// top-level message is only "Validation Failed", the detail is in errors.
func validationFailed(w http.ResponseWriter, d errorDetail) {
	writeJSON(w, http.StatusUnprocessableEntity, errorBody{
		Message:          "Validation Failed",
		Errors:           []errorDetail{d},
		DocumentationURL: "https://docs.github.com/rest",
	})
}

func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON", "https://docs.github.com/rest")
		return false
	}
	return true
}

func key(fullName string) string { return strings.ToLower(fullName) }
