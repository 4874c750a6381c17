// Package workspace is agentfix's view of a git work tree: where its root
// is, what HEAD is, whether it is clean, checkpoints the loop can go back
// to, work branches and commits made with agentfix's own identity. It runs
// the real git binary through gitrun; nothing is ever written into
// .git/config.
package workspace

import "github.com/agentfix/agentfix/internal/gitrun"

// git is the runner for the work tree.
func (r *Repo) git() gitrun.Runner { return gitrun.Runner{Dir: r.Root} }
