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
	// Tokenizer is the pre-tokenizer of the model's vocabulary
	// (tokenizer.ggml.pre, e.g. "qwen2" or "llama-bpe"); "" if the server
	// does not say.
	Tokenizer string
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
	pre, _ := show.ModelInfo["tokenizer.ggml.pre"].(string)
	info := &ModelInfo{Name: model, Family: show.Details.Family, ContextLength: contextLength(show.ModelInfo), Tokenizer: pre}
	c.mu.Lock()
	c.shown[model] = *info
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

// shownOf is what /api/show says of model, asking the server once: its
// context length and its tokenizer.
func (c *Client) shownOf(ctx context.Context, model string) (ModelInfo, error) {
	c.mu.Lock()
	info, ok := c.shown[model]
	c.mu.Unlock()
	if ok {
		return info, nil
	}
	got, err := c.ModelInfo(ctx, model)
	if err != nil {
		return ModelInfo{}, err
	}
	return *got, nil
}

// withTag adds ":latest" to a model name without a tag, as the server does.
func withTag(name string) string {
	if !strings.Contains(name[strings.LastIndex(name, "/")+1:], ":") {
		return name + ":latest"
	}
	return name
}
