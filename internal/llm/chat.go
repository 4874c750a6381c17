package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// DefaultReplyTokens is the reply room Chat reserves when it chooses
// num_ctx itself and the request sets no MaxReplyTokens.
const DefaultReplyTokens = 4096

// Message is one chat message; Role is "system", "user" or "assistant".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat request.
type Request struct {
	Model    string
	Messages []Message
	// Format constrains the reply: a JSON schema object, or the JSON string
	// "json" (with its quotes). Empty: free text.
	Format json.RawMessage
	// NumCtx is the context window to ask for. 0: Chat chooses it with
	// NumCtx from WindowTokens(Messages, the model's tokenizer),
	// MaxReplyTokens (or DefaultReplyTokens) and the model's context
	// length.
	NumCtx int
	// MaxReplyTokens caps the reply (num_predict); 0: no cap.
	MaxReplyTokens int
}

// Response is the model's complete answer.
type Response struct {
	Content string
	// Thinking is the reasoning a thinking model sent apart from Content.
	Thinking string
	// PromptTokens and CompletionTokens are the server's counts.
	PromptTokens, CompletionTokens int
	// ModelDuration is the wall time Chat spent on the request, all
	// attempts and retry waits included.
	ModelDuration time.Duration
	// ServerDuration is the server's total_duration for the attempt that
	// succeeded.
	ServerDuration time.Duration
	// Attempts is how many times the request was sent.
	Attempts int
	// DoneReason is why the model stopped: "stop", or "length" when it ran
	// into MaxReplyTokens or num_ctx.
	DoneReason string
	// NumCtx is the num_ctx the request asked for.
	NumCtx int
}

// Chat sends req and waits for the whole reply, streaming it to keep long
// generations visible in the log. Every request carries temperature 0, the
// client's seed and num_ctx. Failures are retried by kind (see retry.go);
// when ctx ends, Chat returns ctx.Err().
func (c *Client) Chat(ctx context.Context, req Request) (*Response, error) {
	if req.Model == "" || len(req.Messages) == 0 {
		return nil, errors.New("llm: chat request needs a model and at least one message")
	}
	start := c.now()
	numCtx := req.NumCtx
	if numCtx <= 0 {
		info, err := c.shownOf(ctx, req.Model)
		if err != nil {
			return nil, err
		}
		reply := req.MaxReplyTokens
		if reply <= 0 {
			reply = DefaultReplyTokens
		}
		numCtx = NumCtx(WindowTokens(req.Messages, info.Tokenizer), reply, info.ContextLength)
	}
	// The options map is written by hand: api.Options drops a zero
	// temperature and seed (omitempty) and the server would use its
	// defaults (temperature 0.8, random seed).
	options := map[string]any{
		"temperature": 0,
		"seed":        c.seed,
		"num_ctx":     numCtx,
	}
	if req.MaxReplyTokens > 0 {
		options["num_predict"] = req.MaxReplyTokens
	}
	msgs := make([]api.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = api.Message{Role: m.Role, Content: m.Content}
	}
	// truncate: false makes the server refuse a prompt longer than num_ctx
	// instead of silently dropping its front (the repo map, the task).
	stream, truncate := true, false
	areq := &api.ChatRequest{
		Model:    req.Model,
		Messages: msgs,
		Stream:   &stream,
		Truncate: &truncate,
		Format:   req.Format,
		Options:  options,
	}

	var resp *Response
	send := func() (int, error) {
		return c.retry(ctx, "chat", req.Model, func(actx context.Context) error {
			var err error
			resp, err = c.chatOnce(actx, areq)
			return err
		})
	}
	attempts, err := send()
	var re *RejectedError
	if errors.As(err, &re) && re.PromptTooLong() && req.NumCtx <= 0 {
		// Our estimate was short: ask once more with the model's whole
		// window. A num_ctx the caller chose (ollama.num_ctx) is kept.
		if info, lerr := c.shownOf(ctx, req.Model); lerr == nil && info.ContextLength > numCtx {
			full := info.ContextLength
			c.logf("ollama: chat %s: the prompt does not fit num_ctx %d; asking again with %d", req.Model, numCtx, full)
			numCtx = full
			options["num_ctx"] = numCtx
			var more int
			more, err = send()
			attempts += more
		}
	}
	if err != nil {
		return nil, err
	}
	resp.Attempts = attempts
	resp.NumCtx = numCtx
	resp.ModelDuration = c.now().Sub(start)
	return resp, nil
}

// chatOnce is one attempt: it streams the reply and insists on the final
// done chunk, which the ollama/api client does not.
func (c *Client) chatOnce(ctx context.Context, req *api.ChatRequest) (*Response, error) {
	var content, thinking strings.Builder
	var final *api.ChatResponse
	p := c.newProgress(req.Model)
	stop := p.watch(ctx)
	defer stop()
	err := c.api.Chat(ctx, req, func(r api.ChatResponse) error {
		content.WriteString(r.Message.Content)
		thinking.WriteString(r.Message.Thinking)
		if r.Done {
			final = &r
			return nil
		}
		p.token()
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, describeStreamError(err)
	}
	if final == nil {
		// The client returns nil when the context ends mid-stream, and when
		// the body ends at a line boundary.
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errIncomplete
	}
	p.finish(final.EvalCount)
	return &Response{
		Content:          content.String(),
		Thinking:         thinking.String(),
		PromptTokens:     final.PromptEvalCount,
		CompletionTokens: final.EvalCount,
		ServerDuration:   final.TotalDuration,
		DoneReason:       final.DoneReason,
	}, nil
}

// describeStreamError says what a plain error from the api client's stream
// reader means: it returns a line it could not decode as the error text,
// and the message of an {"error": …} line inside a 200 stream.
func describeStreamError(err error) error {
	var se api.StatusError
	var ae api.AuthorizationError
	var ne net.Error
	if errors.As(err, &se) || errors.As(err, &ae) || errors.As(err, &ne) {
		return err
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "{") {
		if len(msg) > 80 {
			msg = msg[:80] + "…"
		}
		return fmt.Errorf("the reply stream was cut in the middle of a line (%s): %w", msg, errCutMidLine)
	}
	return fmt.Errorf("the server reported an error in the middle of the reply: %w", err)
}
