package githubfake

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBodyChars is the longest issue, PR or comment body GitHub accepts.
const MaxBodyChars = 65536

func sortStrings(s []string) { sort.Strings(s) }

// tooLong answers 422 when body is over MaxBodyChars; it reports whether it
// did.
func tooLong(w http.ResponseWriter, resource, body string) bool {
	if utf8.RuneCountInString(body) <= MaxBodyChars {
		return false
	}
	validationFailed(w, errorDetail{Resource: resource, Field: "body", Code: "custom",
		Message: "body is too long (maximum is 65536 characters)"})
	return true
}

func (s *Server) listIssues(w http.ResponseWriter, r *http.Request, rp *repo) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	var want []string
	if l := q.Get("labels"); l != "" {
		want = strings.Split(l, ",")
	}
	creator := q.Get("creator")
	var list []*Issue
	for _, is := range rp.issues {
		if state != "all" && is.State != state {
			continue
		}
		if creator != "" && !strings.EqualFold(creator, is.User) {
			continue
		}
		if !hasLabels(is.Labels, want) {
			continue
		}
		list = append(list, is)
	}
	writeNumbered(w, r, list, func(is *Issue) any { return s.ghIssue(rp, is) })
}

// writeNumbered answers a list request with items newest first (GitHub's
// default, sort=created) or oldest first with direction=asc, one page of
// them, each converted to its API shape.
func writeNumbered(w http.ResponseWriter, r *http.Request, list []*Issue, conv func(*Issue) any) {
	asc := r.URL.Query().Get("direction") == "asc"
	slices.SortFunc(list, func(a, b *Issue) int {
		if asc {
			return a.Number - b.Number
		}
		return b.Number - a.Number
	})
	out := make([]any, 0, len(list))
	for _, is := range paginate(w, r, list) {
		out = append(out, conv(is))
	}
	writeJSON(w, http.StatusOK, out)
}

func hasLabels(have, want []string) bool {
	for _, w := range want {
		w = strings.TrimSpace(w)
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, w) }) {
			return false
		}
	}
	return true
}

// issueInput is the body of create and edit; pointers tell absent from
// empty.
type issueInput struct {
	Title  *string   `json:"title"`
	Body   *string   `json:"body"`
	State  *string   `json:"state"`
	Labels *[]string `json:"labels"`
}

func (s *Server) createIssue(w http.ResponseWriter, r *http.Request, rp *repo) {
	var in issueInput
	if !decodeBody(w, r, &in) {
		return
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		validationFailed(w, errorDetail{Resource: "Issue", Field: "title", Code: "missing_field"})
		return
	}
	is := Issue{Title: *in.Title, User: s.identity}
	if in.Body != nil {
		if tooLong(w, "Issue", *in.Body) {
			return
		}
		is.Body = *in.Body
	}
	if in.Labels != nil {
		is.Labels = dedupe(*in.Labels)
	}
	writeJSON(w, http.StatusCreated, s.ghIssue(rp, s.addIssue(rp, is)))
}

func dedupe(labels []string) []string {
	var out []string
	for _, l := range labels {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, l) }) {
			out = append(out, l)
		}
	}
	return out
}

// issuesTree serves everything below /repos/{owner}/{repo}/issues/.
func (s *Server) issuesTree(w http.ResponseWriter, r *http.Request, rp *repo) {
	seg := strings.Split(r.PathValue("rest"), "/")
	m := r.Method
	switch {
	case len(seg) == 2 && seg[0] == "comments":
		id, err := strconv.ParseInt(seg[1], 10, 64)
		c := rp.comments[id]
		if err != nil || c == nil {
			notFound(w)
			return
		}
		switch m {
		case http.MethodGet:
			writeJSON(w, http.StatusOK, s.ghComment(rp, c))
		case http.MethodPatch:
			s.editComment(w, r, rp, c)
		case http.MethodDelete:
			delete(rp.comments, id)
			w.WriteHeader(http.StatusNoContent)
		default:
			notFound(w)
		}
		return
	case len(seg) == 3 && seg[0] == "comments" && seg[2] == "reactions" && m == http.MethodPost:
		id, _ := strconv.ParseInt(seg[1], 10, 64)
		s.react(w, r, rp, rp.comments[id])
		return
	}
	n, err := strconv.Atoi(seg[0])
	is := rp.issues[n]
	if err != nil || is == nil {
		notFound(w)
		return
	}
	switch {
	case len(seg) == 1 && m == http.MethodGet:
		writeJSON(w, http.StatusOK, s.ghIssue(rp, is))
	case len(seg) == 1 && m == http.MethodPatch:
		s.editIssue(w, r, rp, is)
	case len(seg) == 2 && seg[1] == "comments" && m == http.MethodGet:
		s.listComments(w, r, rp, is)
	case len(seg) == 2 && seg[1] == "comments" && m == http.MethodPost:
		s.createComment(w, r, rp, is)
	case len(seg) == 2 && seg[1] == "labels":
		s.issueLabels(w, r, rp, is)
	case len(seg) == 3 && seg[1] == "labels" && m == http.MethodDelete:
		i := slices.IndexFunc(is.Labels, func(l string) bool { return strings.EqualFold(l, seg[2]) })
		if i < 0 {
			writeError(w, http.StatusNotFound, "Label does not exist", "https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue")
			return
		}
		is.Labels = slices.Delete(is.Labels, i, i+1)
		is.UpdatedAt = s.now().UTC()
		writeJSON(w, http.StatusOK, s.ghLabels(is.Labels))
	default:
		notFound(w)
	}
}

func (s *Server) editIssue(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue) {
	var in issueInput
	if !decodeBody(w, r, &in) {
		return
	}
	if in.Body != nil && tooLong(w, "Issue", *in.Body) {
		return
	}
	if in.State != nil && *in.State != "open" && *in.State != "closed" {
		validationFailed(w, errorDetail{Resource: "Issue", Field: "state", Code: "invalid"})
		return
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
	if in.Labels != nil {
		is.Labels = dedupe(*in.Labels)
		for _, l := range is.Labels {
			rp.labels[strings.ToLower(l)] = l
		}
	}
	is.UpdatedAt = s.now().UTC()
	writeJSON(w, http.StatusOK, s.ghIssue(rp, is))
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue) {
	var list []*Comment
	for _, c := range rp.comments {
		if c.Issue == is.Number {
			list = append(list, c)
		}
	}
	slices.SortFunc(list, func(a, b *Comment) int { return int(a.ID - b.ID) })
	out := make([]any, 0, len(list))
	for _, c := range paginate(w, r, list) {
		out = append(out, s.ghComment(rp, c))
	}
	writeJSON(w, http.StatusOK, out)
}

// commentBody reads a comment's body as GitHub checks it: present and not
// over the size limit. It answers the request itself when the body fails.
func commentBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in struct {
		Body string `json:"body"`
	}
	if !decodeBody(w, r, &in) {
		return "", false
	}
	if strings.TrimSpace(in.Body) == "" {
		validationFailed(w, errorDetail{Resource: "IssueComment", Field: "body", Code: "missing_field"})
		return "", false
	}
	if tooLong(w, "IssueComment", in.Body) {
		return "", false
	}
	return in.Body, true
}

func (s *Server) createComment(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue) {
	body, ok := commentBody(w, r)
	if !ok {
		return
	}
	c := s.addComment(rp, is.Number, s.identity, body)
	writeJSON(w, http.StatusCreated, s.ghComment(rp, c))
}

func (s *Server) editComment(w http.ResponseWriter, r *http.Request, rp *repo, c *Comment) {
	body, ok := commentBody(w, r)
	if !ok {
		return
	}
	c.Body = body
	c.UpdatedAt = s.now().UTC()
	if !c.UpdatedAt.After(c.CreatedAt) {
		// Keep Edited() true even when the clock did not move.
		c.UpdatedAt = c.CreatedAt.Add(1)
	}
	writeJSON(w, http.StatusOK, s.ghComment(rp, c))
}

func (s *Server) react(w http.ResponseWriter, r *http.Request, rp *repo, c *Comment) {
	if c == nil {
		notFound(w)
		return
	}
	var in struct {
		Content string `json:"content"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	c.Reactions = append(c.Reactions, in.Content)
	s.nextID++
	writeJSON(w, http.StatusCreated, map[string]any{"id": s.nextID, "content": in.Content, "user": ghUser(s.identity)})
}

// issueLabels serves GET, POST (add), PUT (replace) and DELETE (all) on an
// issue's labels. go-github sends a bare JSON array; the API also takes
// {"labels": [...]}.
func (s *Server) issueLabels(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue) {
	if r.Method == http.MethodGet {
		writeJSON(w, http.StatusOK, s.ghLabels(is.Labels))
		return
	}
	var names []string
	if r.Method == http.MethodPost || r.Method == http.MethodPut {
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &names); err != nil {
			var obj struct {
				Labels []string `json:"labels"`
			}
			if err := json.Unmarshal(b, &obj); err != nil {
				writeError(w, http.StatusBadRequest, "Problems parsing JSON", "https://docs.github.com/rest")
				return
			}
			names = obj.Labels
		}
	}
	switch r.Method {
	case http.MethodPost:
		is.Labels = dedupe(append(is.Labels, names...))
	case http.MethodPut:
		is.Labels = dedupe(names)
	case http.MethodDelete:
		is.Labels = nil
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		notFound(w)
		return
	}
	// Adding a label the repository lacks creates it, as GitHub does.
	for _, l := range is.Labels {
		if _, ok := rp.labels[strings.ToLower(l)]; !ok {
			rp.labels[strings.ToLower(l)] = l
		}
	}
	is.UpdatedAt = s.now().UTC()
	writeJSON(w, http.StatusOK, s.ghLabels(is.Labels))
}
