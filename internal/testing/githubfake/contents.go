package githubfake

import (
	"encoding/base64"
	"net/http"
	"os/exec"
	"strings"

	"github.com/google/go-github/v60/github"
)

const contentsDoc = "https://docs.github.com/rest/repos/contents#get-repository-content"

// getContents answers GET /repos/{owner}/{repo}/contents/{path} for a file
// of the attached git directory (SetGitDir) at ?ref= (a branch, tag or
// commit; the default branch when absent), as GitHub does: the file's
// content base64-encoded; 404 when the ref, the path or the git directory
// is missing. A directory is answered as GitHub's listing is, an array,
// without its entries.
func (s *Server) getContents(w http.ResponseWriter, r *http.Request, rp *repo) {
	path := strings.Trim(r.PathValue("path"), "/")
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		ref = rp.defaultBranch
	}
	if rp.gitDir == "" || path == "" {
		writeError(w, http.StatusNotFound, "Not Found", contentsDoc)
		return
	}
	object := ref + ":" + path
	kind, err := exec.Command("git", "--git-dir", rp.gitDir, "cat-file", "-t", object).Output()
	if err != nil {
		writeError(w, http.StatusNotFound, "Not Found", contentsDoc)
		return
	}
	if strings.TrimSpace(string(kind)) == "tree" {
		writeJSON(w, http.StatusOK, []*github.RepositoryContent{})
		return
	}
	data, err := exec.Command("git", "--git-dir", rp.gitDir, "cat-file", "blob", object).Output()
	if err != nil {
		writeError(w, http.StatusNotFound, "Not Found", contentsDoc)
		return
	}
	name := path[strings.LastIndexByte(path, '/')+1:]
	writeJSON(w, http.StatusOK, &github.RepositoryContent{
		Type:     github.String("file"),
		Encoding: github.String("base64"),
		Name:     github.String(name),
		Path:     github.String(path),
		Size:     github.Int(len(data)),
		Content:  github.String(base64.StdEncoding.EncodeToString(data)),
	})
}
