package serve

import (
	"context"
	"net/http"
	"strings"

	"github.com/leaper-dev/leaper/web"
)

// Answer answers one call to an endpoint mounted with MountEndpoint: body
// is the request's, read, bounded and checked to be UTF-8; run does the
// work that reads the store. The value returned is sent as JSON. An error
// with an HTTPStatus method is the client's mistake, answered with that
// status and the error's text; any other is a 500 (503 when the call was
// cancelled).
type Answer func(ctx context.Context, body []byte, run Run) (any, error)

// Run runs fn in one of the server's worker slots, as the server's own
// tools run, over the web of the store the request holds (after a Switch,
// the new store's for new requests). It is an alias, so that a package
// serving an endpoint declares the same type without importing this one.
type Run = func(fn func(ctx context.Context, w *web.Web) (any, error)) (any, error)

// statusError is an Answer's error for a client mistake.
type statusError interface {
	error
	HTTPStatus() int
}

// MountEndpoint serves answer at path, POST only, as the server's own
// endpoints are served: the token check, a body of at most maxBody bytes
// (0: Options.MaxBody) in UTF-8, the answer sent whole, errors as JSON
// ({"error": ...}), requests counted in the stats under the path's name.
// leaper serve mounts /reward and /get_reward (package
// agent/eval/rewardhttp, which owns scoring) this way. Call it before
// serving.
func (s *Server) MountEndpoint(path string, maxBody int64, answer Answer) {
	name := strings.TrimPrefix(path, "/")
	if maxBody > 0 {
		s.limits[name] = maxBody
	}
	s.handle(path, http.MethodPost, func(r *http.Request, body []byte) ([]byte, bool, error) {
		ctx := r.Context()
		v, err := answer(ctx, body, func(fn func(context.Context, *web.Web) (any, error)) (any, error) {
			return s.run(ctx, name, func(ctx context.Context) (any, error) { return fn(ctx, webOf(ctx)) })
		})
		if err != nil {
			return nil, false, err
		}
		b, err := encode(v)
		return b, false, err
	})
}
