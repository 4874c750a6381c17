package llm

import "github.com/agentfix/agentfix/internal/tokens"

// minNumCtx is the smallest window NumCtx asks for.
const minNumCtx = 2048

// NumCtx is the num_ctx to request for a prompt of promptTokens (as
// estimated by the caller) and a reply of up to maxReplyTokens, on a model
// trained with modelContextLength tokens (0: unknown, no cap).
//
// The rule: add an eighth to the estimate as a margin, then round up to a
// power of two, at least 2048, and never above the model's context length.
// Powers of two keep num_ctx the same for several rounds while the
// conversation grows; every change of num_ctx makes Ollama reload the model
// and lose its prompt cache. If the prompt does not fit the model, the result
// is the model's full length: cutting the prompt is the context packer's
// job, and a prompt larger than num_ctx is silently cut at the front by the
// server.
func NumCtx(promptTokens, maxReplyTokens, modelContextLength int) int {
	need := promptTokens + maxReplyTokens
	need += need / 8
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

// EstimateTokens estimates the prompt tokens of msgs: tokens.Estimate of
// each message's content, the count the context packs are spent in, which
// is above what the tokenizers of the models users run count (bench/tokens),
// plus templateTokens for each message.
func EstimateTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += tokens.Estimate(m.Content) + templateTokens
	}
	return n
}
