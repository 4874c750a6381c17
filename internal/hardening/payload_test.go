package hardening

import (
	"fmt"
	"strings"
)

// Payload builders: the fields agentfix reads, shaped like GitHub's.

func userJSON(login, typ string) map[string]any {
	if typ == "" {
		typ = "User"
		if strings.HasSuffix(login, "[bot]") {
			typ = "Bot"
		}
	}
	return map[string]any{"login": login, "type": typ, "id": 1}
}

func repoJSON() map[string]any {
	return map[string]any{"full_name": repoName, "name": "calc", "owner": userJSON("octo", ""), "default_branch": "main"}
}

func issueJSON(number int, title, body string, isPR bool) map[string]any {
	is := map[string]any{"number": number, "title": title, "body": body, "state": "open", "user": userJSON("alice", ""), "labels": []any{}}
	if isPR {
		is["pull_request"] = map[string]any{"url": fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", repoName, number)}
	}
	return is
}

func labeledPayload(number int, sender string) map[string]any {
	return map[string]any{"action": "labeled", "issue": issueJSON(number, "Add returns the wrong sum", "Add(2, 3) gives -1.", false),
		"label": map[string]any{"name": "agent-fix"}, "repository": repoJSON(), "sender": userJSON(sender, "")}
}

// commentPayload is an issue_comment event; typ is the author's type
// ("" guesses from the login).
func commentPayload(action string, number int, isPR bool, author, typ, body string) map[string]any {
	return map[string]any{"action": action, "issue": issueJSON(number, "Add returns the wrong sum", "Add(2, 3) gives -1.", isPR),
		"comment":    map[string]any{"id": 777, "body": body, "user": userJSON(author, typ), "html_url": "https://example/c"},
		"repository": repoJSON(), "sender": userJSON(author, typ)}
}
