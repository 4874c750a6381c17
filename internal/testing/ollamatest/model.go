package ollamatest

import (
	"bytes"
	"fmt"
)

// Model is a scripted model: a tiny llama model whose replies are fixed
// texts, chosen by the Modelfile template from what the request holds.
//
// It works because the model cannot look back: with the attention and
// feed-forward output weights at zero, the hidden state after the only block
// is the current token's embedding, so the next token depends on the current
// token alone. Each reply is a chain of phrase tokens, each pointing at the
// next and the last at end-of-sequence; the template puts the reply's
// trigger token last in the prompt, and greedy decoding (temperature 0)
// walks the chain.
type Model struct {
	// Replies are tried in order; the first whose When holds is the answer.
	// When none holds, the model answers with an empty message (unless the
	// request sends a format: the server's grammar then forbids ending at
	// once and the answer is junk, so script every such request).
	Replies []Reply
	// ContextLength is the trained context length the model reports
	// (llama.context_length); 0 means 8192.
	ContextLength int
}

// Reply is one scripted answer.
type Reply struct {
	// When chooses this reply; the zero value always holds.
	When Cond
	// Text is the whole answer, sent back exactly.
	Text string
}

// Special tokens of every scripted model.
const (
	bosText     = "<|bos|>"
	eosText     = "<|eos|>"
	noReplyText = "<|noreply|>"
)

func triggerText(i int) string { return fmt.Sprintf("<|reply%d|>", i) }

// Dimensions of every scripted model. The attention heads are narrow
// (headDim, not embd/heads): their output is zeroed anyway, and a long
// prompt costs attention time in proportion to their width.
const (
	embd    = 64
	heads   = 2
	headDim = 4
	ff      = 64
	blocks  = 1
)

// GGUF returns the model file.
func (m Model) GGUF() ([]byte, error) {
	v := newVocab()
	bos, err := v.add(bosText, tokenControl)
	if err != nil {
		return nil, err
	}
	eos, err := v.add(eosText, tokenControl)
	if err != nil {
		return nil, err
	}
	if _, err := v.add(noReplyText, tokenControl); err != nil {
		return nil, err
	}
	triggers := make([]int32, len(m.Replies))
	for i := range m.Replies {
		if triggers[i], err = v.add(triggerText(i), tokenControl); err != nil {
			return nil, err
		}
	}
	merges, err := v.addBytes()
	if err != nil {
		return nil, err
	}

	// next[t] is the token that follows t; unscripted tokens end the reply.
	next := map[int32]int32{}
	for i, r := range m.Replies {
		if r.Text == "" {
			continue
		}
		chain, err := v.phrases(r.Text)
		if err != nil {
			return nil, fmt.Errorf("reply %d: %w", i, err)
		}
		prev := triggers[i]
		for _, id := range chain {
			next[prev] = id
			prev = id
		}
	}

	w, err := scriptWeights(len(v.texts), eos, next)
	if err != nil {
		return nil, err
	}

	ctx := m.ContextLength
	if ctx == 0 {
		ctx = 8192
	}
	kvs := []kv{
		{"general.architecture", "llama"},
		{"general.name", "agentfix scripted"},
		{"general.file_type", uint32(0)}, // all F32
		{"general.alignment", uint32(ggufAlignment)},
		{"llama.context_length", uint32(ctx)},
		{"llama.embedding_length", uint32(embd)},
		{"llama.block_count", uint32(blocks)},
		{"llama.feed_forward_length", uint32(ff)},
		{"llama.attention.head_count", uint32(heads)},
		{"llama.attention.head_count_kv", uint32(heads)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"llama.attention.key_length", uint32(headDim)},
		{"llama.attention.value_length", uint32(headDim)},
		{"llama.rope.dimension_count", uint32(headDim)},
		{"llama.vocab_size", uint32(len(v.texts))},
		{"tokenizer.ggml.model", "gpt2"},
		{"tokenizer.ggml.pre", "default"},
		{"tokenizer.ggml.tokens", v.texts},
		{"tokenizer.ggml.token_type", v.types},
		{"tokenizer.ggml.merges", merges},
		{"tokenizer.ggml.bos_token_id", uint32(bos)},
		{"tokenizer.ggml.eos_token_id", uint32(eos)},
		{"tokenizer.ggml.add_bos_token", false},
		{"tokenizer.ggml.add_eos_token", false},
	}
	n := uint64(len(v.texts))
	zeros := func(shape ...uint64) tensor {
		size := uint64(1)
		for _, d := range shape {
			size *= d
		}
		return tensor{Shape: shape, Data: make([]float32, size)}
	}
	ones := tensor{Shape: []uint64{embd}, Data: make([]float32, embd)}
	for i := range ones.Data {
		ones.Data[i] = 1
	}
	named := func(name string, t tensor) tensor { t.Name = name; return t }
	tensors := []tensor{
		{Name: "token_embd.weight", Shape: []uint64{embd, n}, Data: w.embed},
		named("output_norm.weight", ones),
		{Name: "output.weight", Shape: []uint64{embd, n}, Data: w.output},
		named("blk.0.attn_norm.weight", ones),
		named("blk.0.attn_q.weight", zeros(embd, heads*headDim)),
		named("blk.0.attn_k.weight", zeros(embd, heads*headDim)),
		named("blk.0.attn_v.weight", zeros(embd, heads*headDim)),
		named("blk.0.attn_output.weight", zeros(heads*headDim, embd)),
		named("blk.0.ffn_norm.weight", ones),
		named("blk.0.ffn_gate.weight", zeros(embd, ff)),
		named("blk.0.ffn_up.weight", zeros(embd, ff)),
		named("blk.0.ffn_down.weight", zeros(ff, embd)),
	}
	var buf bytes.Buffer
	if err := writeGGUF(&buf, kvs, tensors); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
