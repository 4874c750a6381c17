package actiontest

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

// InterceptGitHub puts a proxy in front of GH for the runs that follow
// (their GITHUB_API_URL points at it): intercept sees each request first
// and returns true when it has answered it; the rest go on to GH. It lets
// a test stage what the fake cannot, such as a race with another run.
func (w *World) InterceptGitHub(intercept func(rw http.ResponseWriter, r *http.Request) bool) {
	w.T.Helper()
	target, err := url.Parse(w.GH.URL())
	if err != nil {
		w.T.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !intercept(rw, r) {
			rp.ServeHTTP(rw, r)
		}
	}))
	w.T.Cleanup(srv.Close)
	w.Env["GITHUB_API_URL"] = srv.URL + githubfake.Prefix
}
