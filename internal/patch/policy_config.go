package patch

import "github.com/agentfix/agentfix/internal/config"

// PolicyFrom is the policy the config sets: paths.* and limits.*. The
// config file itself is always denied, whatever paths.deny says: it decides
// which commands agentfix runs and what a patch may touch, so a model must
// never be the one to change it.
func PolicyFrom(cfg *config.Config) Policy {
	return Policy{
		Allow:           cfg.Paths.Allow,
		Deny:            append(append([]string(nil), cfg.Paths.Deny...), config.DefaultPath),
		AllowDelete:     cfg.Paths.AllowDelete,
		AllowRename:     cfg.Paths.AllowRename,
		MaxFiles:        cfg.Limits.MaxFiles,
		MaxChangedLines: cfg.Limits.MaxChangedLines,
	}
}
