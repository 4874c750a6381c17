package githubfake

import (
	"net/http"
	"slices"
	"strings"

	"github.com/google/go-github/v60/github"
)

// searchIssues implements enough of GET /search/issues to find a tracking
// issue: the qualifiers repo:, is:/type: issue|pr|open|closed, state:,
// label:, author:, in:title|body, and free words or "quoted phrases" that
// must all occur (case-insensitively) in the title or body.
func (s *Server) searchIssues(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := parseQuery(r.URL.Query().Get("q"))
	if len(q.terms) == 0 && len(q.repos) == 0 && len(q.labels) == 0 {
		validationFailed(w, errorDetail{Resource: "Search", Field: "q", Code: "missing"})
		return
	}
	type hit struct {
		rp *repo
		is *Issue
	}
	var hits []hit
	for _, rp := range s.repos {
		if len(q.repos) > 0 && !slices.Contains(q.repos, key(rp.fullName())) {
			continue
		}
		for _, is := range rp.issues {
			if q.match(is) {
				hits = append(hits, hit{rp, is})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := strings.Compare(a.rp.fullName(), b.rp.fullName()); c != 0 {
			return c
		}
		return b.is.Number - a.is.Number
	})
	items := []*github.Issue{}
	for _, h := range paginate(w, r, hits) {
		items = append(items, s.ghIssue(h.rp, h.is))
	}
	writeJSON(w, http.StatusOK, &github.IssuesSearchResult{
		Total:             github.Int(len(hits)),
		IncompleteResults: github.Bool(false),
		Issues:            items,
	})
}

type query struct {
	repos, labels, terms []string
	kind, state, author  string
	in                   []string
}

// parseQuery splits q into qualifiers and terms, honouring double quotes.
func parseQuery(q string) query {
	var out query
	for _, tok := range tokenize(q) {
		name, val, ok := strings.Cut(tok, ":")
		val = strings.Trim(val, `"`)
		switch {
		case ok && name == "repo":
			out.repos = append(out.repos, strings.ToLower(val))
		case ok && (name == "is" || name == "type"):
			switch val {
			case "issue", "pr":
				out.kind = val
			case "pull-request":
				out.kind = "pr"
			case "open", "closed":
				out.state = val
			}
		case ok && name == "state":
			out.state = val
		case ok && name == "label":
			out.labels = append(out.labels, val)
		case ok && name == "author":
			out.author = val
		case ok && name == "in":
			out.in = strings.Split(val, ",")
		default:
			out.terms = append(out.terms, strings.ToLower(strings.Trim(tok, `"`)))
		}
	}
	return out
}

func tokenize(q string) []string {
	var toks []string
	var cur strings.Builder
	quoted := false
	for _, c := range q {
		switch {
		case c == '"':
			quoted = !quoted
			cur.WriteRune(c)
		case c == ' ' && !quoted:
			if cur.Len() > 0 {
				toks = append(toks, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(c)
		}
	}
	if cur.Len() > 0 {
		toks = append(toks, cur.String())
	}
	return toks
}

func (q query) match(is *Issue) bool {
	switch {
	case q.kind == "issue" && is.PR != nil, q.kind == "pr" && is.PR == nil:
		return false
	case q.state != "" && is.State != q.state:
		return false
	case q.author != "" && !strings.EqualFold(q.author, is.User):
		return false
	case !hasLabels(is.Labels, q.labels):
		return false
	}
	var hay string
	if len(q.in) == 0 || slices.Contains(q.in, "title") {
		hay += strings.ToLower(is.Title) + "\n"
	}
	if len(q.in) == 0 || slices.Contains(q.in, "body") {
		hay += strings.ToLower(is.Body)
	}
	for _, t := range q.terms {
		if !strings.Contains(hay, t) {
			return false
		}
	}
	return true
}
