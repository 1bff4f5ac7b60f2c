// Package chatretry tells transient failures of an OpenAI-compatible chat
// endpoint from permanent ones, for the callers that retry them (agent's
// model client, synth's paraphraser).
package chatretry

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"

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
