package report

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"

	"github.com/leaper-dev/leaper/graph"
)

// Handler serves the report of g as one page, built on the first request
// and kept. A build that fails answers 500 and is tried again on the next
// request.
func Handler(g *graph.Store, opts *Options) http.Handler {
	return &handler{g: g, opts: opts}
}

type handler struct {
	g    *graph.Store
	opts *Options
	mu   sync.Mutex
	page []byte
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "report: GET only", http.StatusMethodNotAllowed)
		return
	}
	b, err := h.get(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method == http.MethodGet {
		w.Write(b)
	}
}

func (h *handler) get(ctx context.Context) ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.page != nil {
		return h.page, nil
	}
	var buf bytes.Buffer
	if err := Write(ctx, &buf, h.g, h.opts); err != nil {
		return nil, err
	}
	h.page = buf.Bytes()
	return h.page, nil
}
