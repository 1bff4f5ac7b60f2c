// Package chatretry tells transient failures of an OpenAI-compatible chat
// endpoint from permanent ones, for the callers that retry them (agent's
// model client, synth's paraphraser).
package chatretry

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// ErrNoChoices is a reply without choices: a server's hiccup, transient as
// a 5xx is.
var ErrNoChoices = errors.New("response has no choices")

// Retryable reports whether a failure is transient: 429, 5xx, a reply
// without choices, a timeout or a broken connection.
func Retryable(err error) bool {
	if errors.Is(err, ErrNoChoices) {
		return true
	}
	var ae *openai.APIError
	if errors.As(err, &ae) && ae.HTTPStatusCode != 0 {
		return ae.HTTPStatusCode == http.StatusTooManyRequests || ae.HTTPStatusCode >= 500
	}
	var re *openai.RequestError
	if errors.As(err, &re) && re.HTTPStatusCode != 0 {
		return re.HTTPStatusCode == http.StatusTooManyRequests || re.HTTPStatusCode >= 500
	}
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// Policy is how a caller retries a chat call.
type Policy struct {
	Timeout    time.Duration // bounds one call
	Retries    int           // retries of a transient failure; negative for none
	Backoff    time.Duration // the first wait, doubled each retry
	MaxBackoff time.Duration // the longest wait
	// Jitter, when set, adds up to half of each wait, drawn from it.
	Jitter *rand.Rand
	// OnRetry, when set, hears of each retry: its number (from 1), the
	// wait before it and the failure.
	OnRetry func(retry int, wait time.Duration, err error)
}

// Do calls fn, each call bounded by p.Timeout, until it succeeds, fails
// for good (not Retryable) or the retries run out; attempts is how many
// calls were made. A done ctx returns ctx.Err() as it is.
func Do[T any](ctx context.Context, p Policy, fn func(ctx context.Context) (T, error)) (out T, attempts int, err error) {
	for attempt := 0; ; attempt++ {
		rctx, cancel := context.WithTimeout(ctx, p.Timeout)
		out, err = fn(rctx)
		cancel()
		if err == nil {
			return out, attempt + 1, nil
		}
		if ctx.Err() != nil {
			return out, attempt + 1, ctx.Err()
		}
		if !Retryable(err) || p.Retries < 0 || attempt >= p.Retries {
			return out, attempt + 1, err
		}
		d := p.Backoff << attempt
		if d > p.MaxBackoff || d <= 0 {
			d = p.MaxBackoff
		}
		if p.Jitter != nil {
			d += time.Duration(p.Jitter.Int64N(int64(d)/2 + 1))
		}
		if p.OnRetry != nil {
			p.OnRetry(attempt+1, d, err)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return out, attempt + 1, ctx.Err()
		case <-t.C:
		}
	}
}

// Complete returns the call Do retries: one chat completion of req on c, a
// reply without choices counted as ErrNoChoices.
func Complete(c *openai.Client, req openai.ChatCompletionRequest) func(context.Context) (openai.ChatCompletionResponse, error) {
	return func(ctx context.Context) (openai.ChatCompletionResponse, error) {
		resp, err := c.CreateChatCompletion(ctx, req)
		if err == nil && len(resp.Choices) == 0 {
			err = ErrNoChoices
		}
		return resp, err
	}
}
