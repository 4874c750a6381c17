package llm

import (
	"context"
	"strings"

	"github.com/ollama/ollama/api"
)

// ModelInfo is what the server says about a model.
type ModelInfo struct {
	// Name is the model's name as the server lists it (with its tag).
	Name string
	// Digest identifies the exact weights (from /api/tags); "" if the model
	// is not listed there.
	Digest string
	// Family is the model family, e.g. "qwen2".
	Family string
	// ContextLength is the context window the model was trained with; 0 if
	// the server does not say.
	ContextLength int
}

// ModelInfo asks the server about model (/api/show, then /api/tags for the
// digest). A model the server does not have is a *ModelMissingError.
func (c *Client) ModelInfo(ctx context.Context, model string) (*ModelInfo, error) {
	var show *api.ShowResponse
	_, err := c.retry(ctx, "show", model, func(ctx context.Context) error {
		var err error
		show, err = c.api.Show(ctx, &api.ShowRequest{Model: model})
		return err
	})
	if err != nil {
		return nil, err
	}
	info := &ModelInfo{Name: model, Family: show.Details.Family, ContextLength: contextLength(show.ModelInfo)}
	c.mu.Lock()
	c.ctxLens[model] = info.ContextLength
	c.mu.Unlock()

	var list *api.ListResponse
	_, err = c.retry(ctx, "list", model, func(ctx context.Context) error {
		var err error
		list, err = c.api.List(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	want := withTag(model)
	for _, m := range list.Models {
		if withTag(m.Name) == want || withTag(m.Model) == want {
			info.Name, info.Digest = m.Name, m.Digest
			break
		}
	}
	return info, nil
}

// contextLength reads "<architecture>.context_length" from /api/show's
// model_info (e.g. qwen2.context_length). JSON numbers arrive as float64.
func contextLength(info map[string]any) int {
	if arch, ok := info["general.architecture"].(string); ok {
		if n, ok := info[arch+".context_length"].(float64); ok {
			return int(n)
		}
	}
	for k, v := range info {
		if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") {
			return int(n)
		}
	}
	return 0
}

// contextLengthOf is the model's context length, asking the server once.
func (c *Client) contextLengthOf(ctx context.Context, model string) (int, error) {
	c.mu.Lock()
	n, ok := c.ctxLens[model]
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	info, err := c.ModelInfo(ctx, model)
	if err != nil {
		return 0, err
	}
	return info.ContextLength, nil
}

// withTag adds ":latest" to a model name without a tag, as the server does.
func withTag(name string) string {
	if !strings.Contains(name[strings.LastIndex(name, "/")+1:], ":") {
		return name + ":latest"
	}
	return name
}
