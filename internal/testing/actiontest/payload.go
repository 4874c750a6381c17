package actiontest

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

// Payload builders: the fields agentfix reads, shaped like GitHub's.

// User is an account; typ is its type ("" guesses from the login: Bot for
// a login ending in [bot], else User).
func User(login, typ string) map[string]any {
	if typ == "" {
		typ = "User"
		if strings.HasSuffix(login, "[bot]") {
			typ = "Bot"
		}
	}
	return map[string]any{"login": login, "type": typ, "id": 1}
}

// RepoJSON is Repo as a payload's repository.
func RepoJSON() map[string]any {
	return map[string]any{"full_name": Repo, "name": "calc", "owner": User("octo", ""), "default_branch": "main"}
}

// issueJSON is alice's issue (or pull request) number.
func issueJSON(number int, title, body string, isPR bool) map[string]any {
	is := map[string]any{"number": number, "title": title, "body": body, "state": "open", "user": User("alice", ""), "labels": []any{}}
	if isPR {
		is["pull_request"] = map[string]any{"url": fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", Repo, number)}
	}
	return is
}

// LabeledPayload is an issues event: sender put label on the buggy-Add
// issue number.
func LabeledPayload(number int, label, sender string) map[string]any {
	return map[string]any{"action": "labeled", "issue": issueJSON(number, "Add returns the wrong sum", "Add(2, 3) gives -1.", false),
		"label": map[string]any{"name": label}, "repository": RepoJSON(), "sender": User(sender, "")}
}

// CommentPayload is an issue_comment event on number (a pull request when
// isPR); typ is the author's type ("" guesses from the login).
func CommentPayload(action string, number int, isPR bool, author, typ, body string) map[string]any {
	return map[string]any{"action": action, "issue": issueJSON(number, "Add returns the wrong sum", "Add(2, 3) gives -1.", isPR),
		"comment":    map[string]any{"id": 777, "body": body, "user": User(author, typ), "html_url": "https://example/c"},
		"repository": RepoJSON(), "sender": User(author, typ)}
}

// PRJSON is pull request pr of Repo as review payloads carry it.
func PRJSON(pr githubfake.Issue) map[string]any {
	head := RepoJSON()
	if pr.PR.HeadRepo != "" && pr.PR.HeadRepo != Repo {
		head = map[string]any{"full_name": pr.PR.HeadRepo, "fork": true}
	}
	state := pr.State
	if state == "" {
		state = "open"
	}
	return map[string]any{
		"number": pr.Number, "state": state, "title": pr.Title, "body": pr.Body, "user": User(pr.User, ""),
		"url":      fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", Repo, pr.Number),
		"html_url": fmt.Sprintf("https://github.com/%s/pull/%d", Repo, pr.Number),
		"head":     map[string]any{"ref": pr.PR.Head, "sha": pr.PR.HeadSHA, "repo": head},
		"base":     map[string]any{"ref": pr.PR.Base, "repo": RepoJSON()},
	}
}

// ReviewPayload is a pull_request_review event: rv submitted on pr. The
// state is spelled in lower case, as payloads do (the REST API uses upper
// case).
func ReviewPayload(pr githubfake.Issue, rv githubfake.Review) map[string]any {
	return map[string]any{"action": "submitted",
		"review": map[string]any{"id": rv.ID, "user": User(rv.User, ""), "body": rv.Body, "state": strings.ToLower(rv.State), "commit_id": rv.CommitID,
			"html_url": fmt.Sprintf("https://github.com/%s/pull/%d#pullrequestreview-%d", Repo, pr.Number, rv.ID)},
		"pull_request": PRJSON(pr), "repository": RepoJSON(), "sender": User(rv.User, "")}
}

// ReviewCommentPayload is a pull_request_review_comment event: c created
// on pr.
func ReviewCommentPayload(pr githubfake.Issue, c githubfake.ReviewComment) map[string]any {
	return map[string]any{"action": "created",
		"comment": map[string]any{"id": c.ID, "pull_request_review_id": c.ReviewID, "user": User(c.User, ""), "body": c.Body,
			"path": c.Path, "line": c.Line, "original_line": c.Line, "side": "RIGHT", "diff_hunk": c.DiffHunk, "commit_id": c.CommitID,
			"html_url": fmt.Sprintf("https://github.com/%s/pull/%d#discussion_r%d", Repo, pr.Number, c.ID)},
		"pull_request": PRJSON(pr), "repository": RepoJSON(), "sender": User(c.User, "")}
}
