package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/web"
)

// This file holds what a replica behind a load balancer needs: the store
// it answers from (swappable without downtime), readiness and liveness,
// and the store id every answer carries.

// StoreHeader is the response header naming the store that answered
// (store.Store.ID: format version and content digest).
const StoreHeader = "X-Leaper-Store"

// backend is one open store the server answers from. A request holds it
// (refs) from its first byte to its last, so a switch can wait for the
// requests on the old store to finish before closing it.
type backend struct {
	w      *web.Web
	id     string
	digest string
	dir    string
	refs   atomic.Int64
	mounts map[string]http.Handler
}

type backendKey struct{}

// webOf is the web of the store a request holds.
func webOf(ctx context.Context) *web.Web { return ctx.Value(backendKey{}).(*backend).w }

// newBackend reads the store's id (computing the digest of a store built
// before it was recorded) and makes the mounted handlers over w.
func (s *Server) newBackend(w *web.Web) (*backend, error) {
	b := &backend{w: w, dir: w.Store().Dir(), mounts: map[string]http.Handler{}}
	var err error
	if b.digest, err = w.Store().Digest(); err != nil {
		return nil, err
	}
	if b.id, err = w.Store().ID(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, mk := range s.mountFns {
		b.mounts[p] = mk(w)
	}
	return b, nil
}

// hold returns the current backend, counted as in use until release.
func (s *Server) hold() *backend {
	for {
		b := s.cur.Load()
		b.refs.Add(1)
		if s.cur.Load() == b {
			return b
		}
		b.refs.Add(-1) // switched meanwhile: take the new one
	}
}

func (b *backend) release() { b.refs.Add(-1) }

// StoreID is the id of the store the server answers from now.
func (s *Server) StoreID() string { return s.cur.Load().id }

// Ready reports whether the server is ready for traffic: its store is open
// and warm (Warm ran), and it is not stopping.
func (s *Server) Ready() bool { return s.ready.Load() && !s.stopping.Load() }

// warmQueries are searched, and their first hits visited, to bring the
// index's and the graph's pages into memory before a replica says ready.
var warmQueries = []string{"list of", "national team", "film", "season", "election",
	"album", "championship", "university", "river", "award", "city", "olympic games"}

// warmPostingsTime bounds the decoding of frequent terms' posting lists
// at warm-up.
const warmPostingsTime = 2 * time.Minute

// warm decodes the posting lists of the index's most frequent terms, as
// many as its postings cache's budget allows at the decoder's generous
// estimate of their size (about three quarters of it in fact, leaving the
// rest for the rarer terms searches bring), which a fresh server's first
// searches would otherwise each wait for (at 21 million passages, up to
// hundreds of milliseconds for a common word); then runs the warm-up searches and
// visits over w. Each part is bounded by ctx and by its own time; a store
// that answers nothing is warm all the same.
func warm(ctx context.Context, w *web.Web) error {
	ix := w.Store().Index()
	pctx, pcancel := context.WithTimeout(ctx, warmPostingsTime)
	_, err := ix.WarmPostings(pctx, ix.PostingsCache())
	pcancel()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("serve: warm: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for _, q := range warmQueries {
		o, err := w.Search(ctx, []string{q}, 0)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("serve: warm: search %q: %w", q, err)
		}
		if len(o.URLs) > 0 {
			if _, err := w.Visit(ctx, o.URLs[:min(3, len(o.URLs))], q); err != nil && ctx.Err() == nil {
				return fmt.Errorf("serve: warm: visit: %w", err)
			}
		}
	}
	return nil
}

// Warm brings the current store's pages into memory with a few searches and
// visits, then marks the server ready (GET /readyz answers 200). Serve
// calls it once it listens; a Server used only as an http.Handler is not
// ready until Warm is called.
func (s *Server) Warm(ctx context.Context) error {
	if err := warm(ctx, s.cur.Load().w); err != nil {
		return err
	}
	s.ready.Store(true)
	return nil
}

// SwitchResult says what a switch did.
type SwitchResult struct {
	From string `json:"from"`
	To   string `json:"to"`
	Dir  string `json:"dir"`
	// DrainedMS is how long the requests on the old store took to finish
	// after new requests went to the new one.
	DrainedMS float64 `json:"drained_ms"`
	// Abandoned counts requests still on the old store when
	// Options.ShutdownGrace ran out and it was closed anyway.
	Abandoned int64 `json:"abandoned,omitempty"`
}

// Switch makes the server answer from the store in dir without downtime:
// it opens the store (Options.Open), warms it, sends every new request to
// it, waits for the requests on the old store to finish (up to
// Options.ShutdownGrace) and closes the old store. The server stays ready
// throughout; a store that fails to open or warm leaves the old one
// serving. One switch runs at a time.
func (s *Server) Switch(ctx context.Context, dir string) (*SwitchResult, error) {
	if s.opts.Open == nil {
		return nil, ErrNoSwitch
	}
	s.switchMu.Lock()
	defer s.switchMu.Unlock()
	w, err := s.opts.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("serve: switch to %s: %w", dir, err)
	}
	nb, err := s.newBackend(w)
	if err == nil {
		err = warm(ctx, w)
	}
	if err != nil {
		w.Store().Close()
		return nil, fmt.Errorf("serve: switch to %s: %w", dir, err)
	}
	old := s.cur.Swap(nb)
	s.switches.Add(1)
	t0 := time.Now()
	for old.refs.Load() > 0 && time.Since(t0) < s.opts.ShutdownGrace {
		time.Sleep(2 * time.Millisecond)
	}
	res := &SwitchResult{From: old.id, To: nb.id, Dir: dir, DrainedMS: float64(time.Since(t0).Microseconds()) / 1000,
		Abandoned: old.refs.Load()}
	if err := old.w.Store().Close(); err != nil && !errors.Is(err, store.ErrClosed) {
		s.opts.Logger.Warn("serve: close old store", "dir", old.dir, "err", err)
	}
	s.opts.Logger.Info("serve: switched store", "from", old.id, "to", nb.id, "dir", dir, "drained_ms", res.DrainedMS)
	return res, nil
}

// SwitchRequest is the body of POST /admin/store.
type SwitchRequest struct {
	Dir string `json:"dir"`
}

func (s *Server) adminStore(r *http.Request, body []byte) ([]byte, bool, error) {
	var a SwitchRequest
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(false, "invalid request: %s", web.JSONMessage(err))
	}
	if strings.TrimSpace(a.Dir) == "" {
		return nil, false, badf(false, `missing "dir" (the store directory to serve)`)
	}
	// The switch outlives a client that gives up: half a switch helps no one.
	res, err := s.Switch(context.WithoutCancel(r.Context()), a.Dir)
	switch {
	case errors.Is(err, ErrNoSwitch):
		return nil, false, &badRequest{status: http.StatusNotImplemented, msg: err.Error()}
	case err != nil:
		return nil, false, &badRequest{status: http.StatusConflict, msg: err.Error()}
	}
	b, err := encode(res)
	return b, false, err
}

// readyz answers 200 when the server is ready for traffic, 503 while it
// warms up or stops: the balancer's health check.
func (s *Server) readyz(rw http.ResponseWriter) {
	st := http.StatusOK
	status := "ready"
	switch {
	case s.stopping.Load():
		st, status = http.StatusServiceUnavailable, "stopping"
	case !s.ready.Load():
		st, status = http.StatusServiceUnavailable, "warming"
	}
	b, _ := encode(map[string]string{"status": status, "store": s.StoreID()})
	writeBody(rw, st, "application/json; charset=utf-8", b)
}
