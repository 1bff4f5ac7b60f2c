package serve

import (
	"errors"
	"fmt"
)

// Sentinel errors.
var (
	// ErrNoToken is returned when a non-loopback address is to be served
	// without a bearer token.
	ErrNoToken = errors.New("serve: a non-loopback address needs a token (--token-file)")
	// ErrEmptyToken is returned for a token file holding only white space.
	ErrEmptyToken = errors.New("serve: empty token")
	// ErrBadOptions reports Options that cannot be used, such as a
	// negative Workers or Cache.
	ErrBadOptions = errors.New("serve: bad options")
	// ErrNoSwitch is returned by Switch on a server without Options.Open.
	ErrNoSwitch = errors.New("serve: this server cannot switch stores (no Options.Open)")
)

// Error is a non-2xx answer of the server, as the client sees it.
type Error struct {
	Status int    // HTTP status code
	Msg    string // the server's "error" message
}

func (e *Error) Error() string { return fmt.Sprintf("serve: HTTP %d: %s", e.Status, e.Msg) }

// badRequest is a client mistake: it becomes a 4xx with a JSON message.
// obs marks rejections for which the tool itself has an answer (malformed
// arguments, an empty query, a URL that is not served): the body then also
// carries that answer, so a client standing in for the tool can return it.
type badRequest struct {
	status int
	msg    string
	obs    bool
}

func (e *badRequest) Error() string { return e.msg }

func badf(obs bool, format string, a ...any) *badRequest {
	return &badRequest{status: 400, msg: fmt.Sprintf(format, a...), obs: obs}
}
