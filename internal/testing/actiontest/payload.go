package actiontest

import (
	"fmt"
	"strings"
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
