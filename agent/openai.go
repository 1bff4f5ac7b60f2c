package agent

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/internal/chatretry"
	openai "github.com/sashabaranov/go-openai"
)

// OpenAIOptions configure an [OpenAI] model client.
type OpenAIOptions struct {
	BaseURL string // e.g. http://localhost:8000/v1; default OpenAI's
	APIKey  string
	// Timeout bounds one request; default 5 minutes.
	Timeout time.Duration
	// MaxRetries is how many times a failed request is retried on 429, 5xx,
	// timeouts and connection errors; default 5, negative for none.
	MaxRetries int
	// Backoff is the first retry delay, doubled each retry up to
	// MaxBackoff, plus up to 50% jitter; defaults 1s and 60s.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// Seed seeds the jitter, so retry schedules are reproducible.
	Seed       int64
	HTTPClient *http.Client
	// OnRetry, when set, hears of each failed request that is retried:
	// the retry's number (from 1), the wait before it and the failure.
	OnRetry func(retry int, wait time.Duration, err error)
}

// OpenAI is a ChatModel over an OpenAI-compatible endpoint, through
// github.com/sashabaranov/go-openai.
type OpenAI struct {
	c    *openai.Client
	opts OpenAIOptions
}

// NewOpenAI returns a client; nil options mean defaults.
func NewOpenAI(opts *OpenAIOptions) *OpenAI {
	o := OpenAIOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = 5
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Minute
	}
	cfg := openai.DefaultConfig(o.APIKey)
	if o.BaseURL != "" {
		cfg.BaseURL = strings.TrimSuffix(o.BaseURL, "/")
	}
	if o.HTTPClient != nil {
		cfg.HTTPClient = o.HTTPClient
	}
	return &OpenAI{c: openai.NewClientWithConfig(cfg), opts: o}
}

// Chat sends the request, retrying transient failures with exponential
// backoff and seeded jitter.
func (m *OpenAI) Chat(ctx context.Context, req *ChatRequest) (*ChatResponse, error) {
	creq := toOpenAI(req)
	key := req.Key()
	start := time.Now()
	resp, attempts, err := chatretry.Do(ctx, chatretry.Policy{Timeout: m.opts.Timeout, Retries: m.opts.MaxRetries,
		Backoff: m.opts.Backoff, MaxBackoff: m.opts.MaxBackoff, OnRetry: m.opts.OnRetry,
		Jitter: rand.New(rand.NewPCG(uint64(m.opts.Seed), binary.BigEndian.Uint64([]byte(key[:8]))))},
		chatretry.Complete(m.c, creq))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("%w after %d attempt(s): %w", ErrModel, attempts, err)
	}
	out := fromOpenAI(&resp)
	out.Retries, out.Latency = attempts-1, time.Since(start)
	return out, nil
}

func toOpenAI(r *ChatRequest) openai.ChatCompletionRequest {
	c := openai.ChatCompletionRequest{Model: r.Model, Temperature: r.Temperature, TopP: r.TopP, MaxTokens: r.MaxTokens, Seed: r.Seed}
	if c.Temperature == 0 {
		// go-openai leaves a zero temperature out (the server's default
		// would apply); the smallest positive one is greedy decoding too.
		c.Temperature = math.SmallestNonzeroFloat32
	}
	for _, m := range r.Messages {
		om := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
		}
		c.Messages = append(c.Messages, om)
	}
	for _, t := range r.Tools {
		c.Tools = append(c.Tools, openai.Tool{Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters}})
	}
	return c
}

func fromOpenAI(r *openai.ChatCompletionResponse) *ChatResponse {
	ch := r.Choices[0]
	out := &ChatResponse{Content: ch.Message.Content, FinishReason: string(ch.FinishReason),
		PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens}
	// Reasoning models served by vLLM/SGLang may return the thought apart.
	if rc := ch.Message.ReasoningContent; rc != "" && !strings.Contains(out.Content, "<think>") {
		out.Content = "<think>\n" + rc + "\n</think>\n" + out.Content
	}
	for _, tc := range ch.Message.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return out
}
