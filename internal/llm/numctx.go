package llm

import (
	"math"

	"github.com/agentfix/agentfix/internal/tokens"
)

// minNumCtx is the smallest window NumCtx asks for.
const minNumCtx = 2048

// NumCtx is the num_ctx to request for a prompt of promptTokens (counted on
// the high side: WindowTokens) and a reply of up to maxReplyTokens, on a
// model trained with modelContextLength tokens (0: unknown, no cap).
//
// The rule: the prompt and the reply, rounded up to a power of two, at
// least 2048, and never above the model's context length. The count is
// already above what the model's tokenizer counts, so no margin is added.
// Powers of two keep num_ctx the same for several rounds while the
// conversation grows; every change of num_ctx makes Ollama reload the model
// and lose its prompt cache. If the prompt does not fit the model, the result
// is the model's full length: cutting the prompt is the context packer's
// job.
func NumCtx(promptTokens, maxReplyTokens, modelContextLength int) int {
	need := promptTokens + maxReplyTokens
	n := minNumCtx
	for n < need {
		n *= 2
	}
	if modelContextLength > 0 && n > modelContextLength {
		n = modelContextLength
	}
	return n
}

// templateTokens is the room each message takes in a chat template besides
// its content: the role and the markers around it (five tokens in the
// templates of Llama 3, Qwen and Gemma), with a margin.
const templateTokens = 8

// EstimateTokens estimates the prompt tokens of msgs for any model:
// tokens.Estimate of each message's content, the count the context packs
// are spent in, which is above what the tokenizers of the models users run
// count (bench/tokens), plus templateTokens for each message.
func EstimateTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += tokens.Estimate(m.Content) + templateTokens
	}
	return n
}

// estimatePerToken is, per pre-tokenizer of a model's vocabulary (GGUF's
// tokenizer.ggml.pre, which /api/show reports), how many of
// tokens.Estimate's tokens at least go to one of the model's tokens, with
// a margin. Measured by bench/tokens on the 336 packs of the real-bug
// benchmark and this repository's Go files: the lowest ratio of a file was
// 1.308 for Qwen 2.5 and 3, 1.500 for Llama 3, 1.443 for DeepSeek V3 and
// 1.264 for Mistral Nemo. A tokenizer not listed (Llama 2, Gemma, any
// other) gets the count as it is, which is above all eight measured.
var estimatePerToken = map[string]float64{
	"qwen2":       1.25, // Qwen 2.5 and Qwen 3
	"llama-bpe":   1.45, // Llama 3
	"deepseek-v3": 1.40, // DeepSeek V3
	"tekken":      1.20, // Mistral Nemo, Devstral
}

// WindowTokens estimates the tokens msgs take in the window of a model
// whose pre-tokenizer is pre (ModelInfo.Tokenizer; "" when unknown): what
// NumCtx sizes the window by. It is EstimateTokens, divided by what that
// tokenizer was measured to need at least, so that a Qwen model is not
// asked for a window twice as large as the prompt needs.
func WindowTokens(msgs []Message, pre string) int {
	n := EstimateTokens(msgs)
	if per, ok := estimatePerToken[pre]; ok {
		n = int(math.Ceil(float64(n) / per))
	}
	return n
}

// TokenizerMeasured reports whether WindowTokens knows the pre-tokenizer
// pre: whether windows for its models are sized for it, not by the count
// for any model.
func TokenizerMeasured(pre string) bool {
	_, ok := estimatePerToken[pre]
	return ok
}
