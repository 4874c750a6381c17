package repoctx

import (
	"regexp"
	"strings"
)

var (
	// reSourceLink is a link to a file of a repository on GitHub, as a
	// reporter points at the line they suspect: .../blob/REF/PATH#L120,
	// or #L120-L135 for lines; a line's column (#L120C5) too.
	reSourceLink = regexp.MustCompile(`https?://github\.com/[\w.\-]+/[\w.\-]+/(?:blob|tree|raw)/[\w.\-]+/([^\s#?()\[\]<>"'` + "`" + `]+)(?:\?[^\s#()\[\]<>"'` + "`" + `]*)?(?:#L(\d+)(?:C\d+)?(?:-L\d+(?:C\d+)?)?)?`)
	// rePlayLink is a Go playground link: its id is no word of the code.
	rePlayLink = regexp.MustCompile(`https?://(?:go\.dev/play|play\.golang\.org)/p/[\w\-]+(?:\.go)?(?:\?[\w=&.\-]*)?`)
	// reDocLink is a link to a package's documentation on pkg.go.dev, to
	// a symbol of it or not: pkg.go.dev/example.com/kv#Store.Get.
	reDocLink = regexp.MustCompile(`https?://pkg\.go\.dev/([\w.\-/]*[\w\-])/?(?:@[\w.\-+]*[\w+])?(?:#([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?))?`)
	// reAttachment is a file attached to an issue (a screenshot, a
	// recording, a log), whose address is a number or a UUID.
	reAttachment = regexp.MustCompile(`(?:!\[[^\]\n]*\]\()?https?://(?:github\.com/user-attachments/(?:assets|files)|(?:private-)?user-images\.githubusercontent\.com)/[^\s)"'<>]+\)?`)
)

// readLinks is text with the links an issue carries read as what they
// point at, and the symbols they name: a link to a file's line on GitHub
// is that path and line (internal/decoder/string.go:173); a link to
// pkg.go.dev is the package's path, and names the symbol its fragment
// names (#Store.Get: Store and Get); a Go playground link or an
// attachment says nothing of the code and goes. Read as words, the links
// were a file named pkg.go (pkg.go.dev), words like blob, user and
// attachments, and a playground id (Xk3TqZ9aBcD) that counted as an
// identifier, the query's strongest term. Other links stay as they are:
// a report about parsing URLs quotes them.
func readLinks(text string) (string, []string) {
	if !strings.Contains(text, "://") {
		return text, nil
	}
	text = reAttachment.ReplaceAllString(text, "")
	text = rePlayLink.ReplaceAllString(text, "")
	text = reSourceLink.ReplaceAllStringFunc(text, func(link string) string {
		m := reSourceLink.FindStringSubmatch(link)
		if m[2] != "" {
			return m[1] + ":" + m[2]
		}
		return m[1]
	})
	var symbols []string
	text = reDocLink.ReplaceAllStringFunc(text, func(link string) string {
		m := reDocLink.FindStringSubmatch(link)
		if m[2] != "" {
			symbols = append(symbols, strings.Split(m[2], ".")...)
		}
		return m[1]
	})
	return text, symbols
}
