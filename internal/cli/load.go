package cli

import (
	"flag"
	"os"
	"path/filepath"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
)

// configFlags are the flags every command that loads the config shares.
type configFlags struct {
	repo  string
	flags config.Flags
}

// register adds --repo and --config to fs; withModel adds the flags that
// override model settings too.
func (c *configFlags) register(fs *flag.FlagSet, withModel bool) {
	fs.StringVar(&c.repo, "repo", ".", "repository `DIR` (its root or any directory inside it)")
	fs.StringVar(&c.flags.Config, "config", "", "config `FILE` (default "+config.DefaultPath+" in the repository)")
	if withModel {
		fs.StringVar(&c.flags.Model, "model", "", "Ollama `MODEL` (overrides model)")
		fs.StringVar(&c.flags.OllamaHost, "ollama-host", "", "Ollama server `URL` (overrides ollama.host and OLLAMA_HOST)")
		fs.StringVar(&c.flags.TestCmd, "test-cmd", "", "verify `CMD` (overrides verify.commands)")
		fs.IntVar(&c.flags.MaxRounds, "max-rounds", 0, "rounds of patch and verify, `N` (overrides limits.max_rounds)")
	}
}

// load reads the effective config for the repository. Its errors are
// configuration errors (exit 2).
func (c *configFlags) load(e *Env, needVerify bool) (*config.Config, config.Sources, error) {
	repo, err := repoRoot(c.repo)
	if err != nil {
		return nil, nil, err
	}
	cfg, src, err := config.Load(config.LoadOptions{RepoDir: repo, Getenv: e.Getenv, Flags: c.flags, NeedVerify: needVerify})
	if err != nil {
		return nil, nil, exitcode.UsageError(err)
	}
	return cfg, src, nil
}

// repoRoot checks that dir exists and returns it as an absolute path.
func repoRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", exitcode.Usagef("--repo %s: %v", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return "", exitcode.Usagef("--repo %s: not a directory", dir)
	}
	return abs, nil
}
