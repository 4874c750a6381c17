package agent

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/agentfix/agentfix/internal/instructions"
)

// Start is the first event of a session record: everything needed to run
// the same job again.
type Start struct {
	Version        string `json:"version"`
	GoVersion      string `json:"go_version"`
	Repo           string `json:"repo"`
	Head           string `json:"head"`
	Branch         string `json:"branch,omitempty"`
	Model          string `json:"model"`
	Digest         string `json:"digest,omitempty"`
	ContextLength  int    `json:"context_length"`
	Reviewer       string `json:"reviewer,omitempty"`
	ReviewerDigest string `json:"reviewer_digest,omitempty"`
	Task           Task   `json:"task"`
	// Instructions are the repository's instructions for agents, as the
	// model read them.
	Instructions []instructions.File `json:"instructions,omitempty"`
	// Config is the effective configuration, as YAML in the config file's
	// form, so that config.Parse reads it back strictly.
	Config string `json:"config"`
}

// open checks the model server (reachable, with the model), then records
// the start event. The caller opened the work tree and took its
// checkpoint.
func (r *run) open(ctx context.Context) error {
	if r.job.Model == nil {
		return fmt.Errorf("agent: job has no model")
	}
	if r.repo == nil || r.cp == nil {
		return fmt.Errorf("agent: job has no work tree checkpoint")
	}
	repo := r.repo
	asked := time.Now()
	var err error
	r.info, err = r.job.Model.ModelInfo(ctx, r.cfg.Model)
	r.modelTime += time.Since(asked)
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	start := Start{
		Version:       r.job.Version,
		GoVersion:     runtime.Version(),
		Repo:          repo.Root,
		Head:          r.cp.Head,
		Branch:        r.cp.Branch,
		Model:         r.info.Name,
		Digest:        r.info.Digest,
		ContextLength: r.info.ContextLength,
		Task:          r.job.Task,
		Instructions:  r.job.Instructions,
	}
	cfgYAML, err := yaml.Marshal(r.cfg)
	if err != nil {
		return fmt.Errorf("record: config: %w", err)
	}
	start.Config = string(cfgYAML)
	if m := r.cfg.Reviewer.Model; m != "" {
		asked := time.Now()
		info, err := r.job.Model.ModelInfo(ctx, m)
		r.modelTime += time.Since(asked)
		if err != nil {
			return fmt.Errorf("reviewer model: %w", err)
		}
		start.Reviewer, start.ReviewerDigest = info.Name, info.Digest
	}
	r.res.Model, r.res.Digest, r.res.Head = r.info.Name, r.info.Digest, r.cp.Head
	r.logf("%s at %s, model %s", repo.Root, short(r.cp.Head), r.info.Name)
	return r.record("start", start)
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
