package workspace

import (
	"context"
	"fmt"
	"strings"
)

// status is the state of the work tree in one git call: HEAD, the branch,
// changed tracked files and untracked (not ignored) files.
type status struct {
	head      string // "" before the first commit
	branch    string // "" when detached
	changed   []string
	untracked []string
}

// status runs git status --porcelain=v2, which reports everything the
// checkpoint and the restore need at once; a few git processes fewer per
// round is most of agentfix's own time in a run.
func (r *Repo) status(ctx context.Context) (*status, error) {
	out, err := r.git().Run(ctx, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	st := &status{}
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		e := fields[i]
		switch {
		case strings.HasPrefix(e, "# branch.oid "):
			if oid := strings.TrimPrefix(e, "# branch.oid "); oid != "(initial)" {
				st.head = oid
			}
		case strings.HasPrefix(e, "# branch.head "):
			if b := strings.TrimPrefix(e, "# branch.head "); b != "(detached)" {
				st.branch = b
			}
		case strings.HasPrefix(e, "1 "):
			st.changed = append(st.changed, nthField(e, 8))
		case strings.HasPrefix(e, "2 "):
			st.changed = append(st.changed, nthField(e, 9))
			i++ // the original path of a rename or copy follows
		case strings.HasPrefix(e, "u "):
			st.changed = append(st.changed, nthField(e, 10))
		case strings.HasPrefix(e, "? "):
			st.untracked = append(st.untracked, e[2:])
		}
	}
	return st, nil
}

// nthField returns the path that follows n space-separated fields (paths
// may themselves contain spaces).
func nthField(e string, n int) string {
	for ; n > 0; n-- {
		i := strings.IndexByte(e, ' ')
		if i < 0 {
			return e
		}
		e = e[i+1:]
	}
	return e
}

// headOf is st's HEAD, or an error before the first commit.
func (st *status) headOf(root string) (string, error) {
	if st.head == "" {
		return "", fmt.Errorf("%s has no commit yet; commit something first", root)
	}
	return st.head, nil
}
