package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/leaper-dev/leaper/web"
)

// Server serves a Web over HTTP. Create it with NewServer; it is an
// http.Handler, and Serve runs it on a listener until its context is done.
type Server struct {
	opts  Options
	cur   atomic.Pointer[backend]
	ready atomic.Bool
	// stopping is set when Serve's context is done: /readyz says 503.
	stopping atomic.Bool
	switchMu sync.Mutex
	switches atomic.Int64
	// mu guards mountFns.
	mu       sync.Mutex
	mountFns map[string]func(*web.Web) http.Handler
	sem      chan struct{}
	eval     *gate
	cache    *cache
	start    time.Time
	token    [sha256.Size]byte
	mux      *http.ServeMux
	// limits are the body bounds of endpoints mounted with their own
	// (MountEndpoint), by name.
	limits map[string]int64
	stats  map[string]*endpointStats
	names  []string
	jinaH  http.HandlerFunc
	flight atomic.Int64
	queued atomic.Int64
	// beforeTool, when set (tests), runs inside the worker slot before a
	// tool executes.
	beforeTool func(endpoint string)
	// beforeEval, when set (tests), runs in the gate before a /retrieve
	// query is evaluated.
	beforeEval func(query string)
}

// NewServer returns a Server over w.
func NewServer(w *web.Web, opts *Options) *Server {
	o := opts.withDefaults()
	s := &Server{
		opts:     o,
		sem:      make(chan struct{}, o.Workers),
		eval:     newGate(o.Evaluations),
		cache:    newCache(o.Cache),
		start:    time.Now(),
		mux:      http.NewServeMux(),
		limits:   map[string]int64{},
		stats:    map[string]*endpointStats{},
		mountFns: map[string]func(*web.Web) http.Handler{},
	}
	b, err := s.newBackend(w)
	if err != nil {
		// The digest of a store built before it was recorded could not be
		// read; serve it all the same, under a name that says so.
		o.Logger.Warn("serve: store id", "err", err)
		b = &backend{w: w, id: "unknown", dir: w.Store().Dir(), mounts: map[string]http.Handler{}}
	}
	s.cur.Store(b)
	if o.Token != "" {
		s.token = sha256.Sum256([]byte(o.Token))
	}
	s.handle("/search", http.MethodPost, s.search)
	s.handle("/visit", http.MethodPost, s.visit)
	s.handle("/retrieve", http.MethodPost, s.retrieve)
	s.handle("/access", http.MethodPost, s.access)
	s.handle("/serper/search", http.MethodPost, s.serper)
	// /jina/<url> is dispatched in ServeHTTP: the mux would clean the
	// "//" out of the page URL.
	s.jinaH = s.wrap("jina", http.MethodGet, s.jina, renderJina)
	healthz := func(*http.Request, []byte) ([]byte, bool, error) {
		return []byte(`{"status":"ok"}` + "\n"), false, nil
	}
	s.handle("/healthz", http.MethodGet, healthz)
	// rLLM's retrieval tool checks GET /health.
	s.handle("/health", http.MethodGet, healthz)
	// Liveness (the process answers) and readiness (the store is open and
	// warm, and the server is not stopping): a balancer checks /readyz.
	s.handle("/livez", http.MethodGet, healthz)
	s.mux.HandleFunc("/readyz", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set(StoreHeader, s.StoreID())
		s.readyz(rw)
	})
	s.handle("/admin/store", http.MethodPost, s.adminStore)
	s.handle("/stats", http.MethodGet, func(*http.Request, []byte) ([]byte, bool, error) {
		b, err := encode(s.Stats())
		return b, false, err
	})
	s.mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) {
		writeError(rw, http.StatusNotFound, fmt.Sprintf("no endpoint %s", r.URL.Path), nil)
	})
	return s
}

// Stats returns the server's counters and latency quantiles.
func (s *Server) Stats() *Stats {
	b := s.cur.Load()
	st := &Stats{
		Store:         b.id,
		StoreDigest:   b.digest,
		StoreDir:      b.dir,
		Ready:         s.Ready(),
		Switches:      s.switches.Load(),
		UptimeSeconds: time.Since(s.start).Seconds(),
		InFlight:      s.flight.Load(),
		Queued:        s.queued.Load(),
		Workers:       s.opts.Workers,
		Evaluations:   s.opts.Evaluations,
		CacheEntries:  s.cache.len(),
		CacheCapacity: s.opts.Cache,
		Endpoints:     map[string]EndpointStats{},
	}
	for _, n := range s.names {
		st.Endpoints[n] = s.stats[n].snapshot()
	}
	return st
}

// handlerFunc answers a request whose body has been read and bounded; it
// returns the encoded JSON answer and whether it came from the cache, or an
// error (a *badRequest for client mistakes).
type handlerFunc func(r *http.Request, body []byte) (out []byte, cached bool, err error)

// renderFunc writes a successful answer in a form other than its JSON.
type renderFunc func(rw http.ResponseWriter, r *http.Request, out []byte)

func (s *Server) handle(path, method string, h handlerFunc) {
	s.mux.HandleFunc(path, s.wrap(strings.TrimPrefix(path, "/"), method, h, nil))
}

// wrap makes an endpoint of h: token check, method, bounded body, stats,
// recovered panics, errors as JSON; render, when set, writes the answer.
func (s *Server) wrap(name, method string, h handlerFunc, render renderFunc) http.HandlerFunc {
	st := &endpointStats{}
	s.stats[name] = st
	s.names = append(s.names, name)
	return func(rw http.ResponseWriter, r *http.Request) {
		t0 := time.Now()
		s.flight.Add(1)
		// Last, once the request is counted: InFlight 0 means every
		// answered request is in the stats.
		defer s.flight.Add(-1)
		sw := &statusWriter{ResponseWriter: rw}
		// The answer goes out in one write (holdconn.go): registered
		// first, this runs last, after any error answer below.
		if hc := heldConn(r.Context()); hc != nil {
			hc.hold()
			defer func() {
				if sw.status != 0 {
					sw.Flush()
				}
				hc.release()
			}()
		}
		// The request holds the store it starts on to its end, so a
		// switch closes the old store only once its requests are answered.
		var b *backend
		if noStore[name] {
			b = s.cur.Load()
		} else {
			b = s.hold()
			defer b.release()
			r = r.WithContext(context.WithValue(r.Context(), backendKey{}, b))
		}
		sw.Header().Set(StoreHeader, b.id)
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.opts.Logger.Error("serve: panic", "endpoint", name, "panic", p)
				if sw.status == 0 {
					writeError(sw, http.StatusInternalServerError, "internal error", nil)
				}
			}
			st.requests.Add(1)
			switch {
			case sw.status >= 500:
				st.serverErr.Add(1)
			case sw.status >= 400:
				st.clientErr.Add(1)
			}
			st.latency.Record(time.Since(t0))
		}()
		if name != "healthz" && name != "health" && name != "livez" && !s.authorized(r) {
			sw.Header().Set("WWW-Authenticate", `Bearer realm="leaper"`)
			writeError(sw, http.StatusUnauthorized, "missing or wrong bearer token", nil)
			return
		}
		if r.Method != method {
			sw.Header().Set("Allow", method)
			writeError(sw, http.StatusMethodNotAllowed, fmt.Sprintf("%s /%s: use %s", r.Method, name, method), nil)
			return
		}
		var body []byte
		if method == http.MethodPost {
			var err error
			limit := s.opts.MaxBody
			if l := s.limits[name]; l > 0 {
				limit = l
			}
			if name == "retrieve" {
				// A batch of MaxBatch queries of 1 KiB each fits.
				limit = max(limit, int64(s.opts.MaxBatch)<<10)
			}
			body, err = io.ReadAll(http.MaxBytesReader(sw, r.Body, limit))
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					writeError(sw, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", limit), nil)
				} else {
					writeError(sw, http.StatusBadRequest, "reading request body: "+err.Error(), nil)
				}
				return
			}
			if msg := notUTF8(body); msg != "" {
				writeError(sw, http.StatusBadRequest, msg, nil)
				return
			}
		}
		out, cached, err := h(r, body)
		if err != nil {
			s.fail(sw, r, name, body, err)
			return
		}
		if cached {
			st.cacheHits.Add(1)
			sw.Header().Set("X-Cache", "hit")
		}
		if render != nil {
			render(sw, r, out)
			return
		}
		writeBody(sw, http.StatusOK, "application/json; charset=utf-8", out)
	}
}

// noStore are the endpoints that read no store: they hold none, so that a
// switch (itself POST /admin/store) does not wait for them.
var noStore = map[string]bool{"healthz": true, "health": true, "livez": true, "stats": true, "admin/store": true}

func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		// Serper clients send their key as X-API-KEY.
		tok = r.Header.Get("X-API-KEY")
		if tok == "" {
			return false
		}
	}
	// Compare digests so neither the content nor the length of the token
	// shows in the timing.
	h := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(h[:], s.token[:]) == 1
}

func (s *Server) fail(rw http.ResponseWriter, r *http.Request, endpoint string, body []byte, err error) {
	var br *badRequest
	var se statusError
	switch {
	case errors.As(err, &br):
		var obs *web.Observation
		if br.obs {
			// The tool's own answer to the same arguments, so that a
			// client standing in for the tool (Client.Call) returns exactly
			// what web.Web.Call would. Only cheap rejections get one.
			if o, err := s.run(r.Context(), endpoint, func(ctx context.Context) (any, error) {
				return webOf(ctx).Call(ctx, endpoint, body)
			}); err == nil {
				obs = normalize(o.(*web.Observation))
			}
		}
		writeError(rw, br.status, br.msg, obs)
	case errors.As(err, &se):
		writeError(rw, se.HTTPStatus(), se.Error(), nil)
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		writeError(rw, http.StatusServiceUnavailable, "request canceled", nil)
	default:
		s.opts.Logger.Error("serve: request failed", "endpoint", endpoint, "err", err)
		writeError(rw, http.StatusInternalServerError, "internal error", nil)
	}
}

func (s *Server) acquire(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
		return nil
	default:
	}
	s.queued.Add(1)
	defer s.queued.Add(-1)
	select {
	case s.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) release() { <-s.sem }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/jina/") || strings.HasPrefix(r.RequestURI, "/jina/") {
		s.jinaH(rw, r)
		return
	}
	s.mux.ServeHTTP(rw, r)
}

// HTTPServer returns an http.Server for s with the read, write and idle
// timeouts a public endpoint needs.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ConnContext:       connContext,
		ErrorLog:          slog.NewLogLogger(s.opts.Logger.Handler(), slog.LevelWarn),
	}
}

// Serve answers requests on ln until ctx is done, then stops accepting and
// lets in-flight requests finish (up to Options.ShutdownGrace). It warms
// the store once it listens (GET /readyz says 200 after), and once ctx is
// done says 503 on /readyz for Options.Drain before it stops accepting. It
// returns nil after a clean shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := s.HTTPServer()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(holdListener{ln}) }()
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	go func() {
		if err := s.Warm(wctx); err != nil {
			s.opts.Logger.Error("serve: warm-up failed; /readyz stays 503", "err", err)
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Say "not ready" first and keep answering for Drain, so the balancer
	// stops sending before the listener closes.
	s.stopping.Store(true)
	if s.opts.Drain > 0 {
		select {
		case <-time.After(s.opts.Drain):
		case err := <-errc:
			return err
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownGrace)
	defer cancel()
	err := hs.Shutdown(sctx)
	<-errc
	if err != nil {
		hs.Close()
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	return nil
}

// IsLoopback reports whether a listen address (host:port) binds only the
// loopback interface. An empty host binds every interface.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckAddr refuses an address that is not HOST:PORT with a valid port,
// and a non-loopback address without a token.
func CheckAddr(addr, token string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return fmt.Errorf("address %q: want HOST:PORT, as 127.0.0.1:8080 (%v)", addr, err)
	}
	if !IsLoopback(addr) && token == "" {
		return fmt.Errorf("%w: %s", ErrNoToken, addr)
	}
	return nil
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Flush lets streamed answers (MCP's server-sent events) through.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// notUTF8 says where a request body stops being UTF-8, or "" if it is:
// JSON is UTF-8 (RFC 8259), and decoding anything else would turn the
// bad bytes into U+FFFD and search for text the client never sent.
func notUTF8(body []byte) string {
	if utf8.Valid(body) {
		return ""
	}
	i := 0
	for i < len(body) {
		r, n := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	return fmt.Sprintf("request body is not UTF-8: byte 0x%02x at offset %d (send JSON encoded as UTF-8)", body[i], i)
}

// errorBody is the JSON of every non-2xx answer.
type errorBody struct {
	Error string `json:"error"`
	// Observation is the tool's own answer to the same arguments, for
	// rejections the tool answers itself (malformed arguments, an empty
	// query, a URL that is not http(s)).
	Observation *web.Observation `json:"observation,omitempty"`
}

func writeError(rw http.ResponseWriter, status int, msg string, obs *web.Observation) {
	b, _ := encode(errorBody{Error: msg, Observation: obs})
	rw.Header().Set("X-Content-Type-Options", "nosniff")
	writeBody(rw, status, "application/json; charset=utf-8", b)
}

// writeBody writes a whole answer with its length, so that the client reads
// it in one piece rather than as chunks (net/http chunks any answer it has
// not seen the end of within its first 2 KB).
func writeBody(rw http.ResponseWriter, status int, contentType string, b []byte) {
	h := rw.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	rw.WriteHeader(status)
	rw.Write(b)
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// normalize makes Entities a list, never null.
func normalize(o *web.Observation) *web.Observation {
	if o != nil && o.Entities == nil {
		o.Entities = []uint32{}
	}
	return o
}

// Mount serves h at path (and below it) behind the server's token check,
// counting its requests in the stats under the path's name. leaper serve
// mounts the MCP endpoint (/mcp) this way.
func (s *Server) Mount(path string, h http.Handler) { s.mount(path, h) }

// MountWeb serves at path (and below it) a handler made by mk over the web
// of the store the server answers from: once now, and again over each
// store a Switch brings in, so the mounted handler answers from the same
// store as the rest. Call it before serving.
func (s *Server) MountWeb(path string, mk func(*web.Web) http.Handler) {
	s.mu.Lock()
	s.mountFns[path] = mk
	s.mu.Unlock()
	b := s.cur.Load()
	b.mounts[path] = mk(b.w)
	s.mount(path, nil)
}

// mount serves h, or with h nil the current store's handler for path.
func (s *Server) mount(path string, h http.Handler) {
	name := strings.Trim(path, "/")
	st := &endpointStats{}
	s.stats[name] = st
	s.names = append(s.names, name)
	s.mux.HandleFunc(path, func(rw http.ResponseWriter, r *http.Request) {
		t0 := time.Now()
		s.flight.Add(1)
		defer s.flight.Add(-1) // last, as in wrap
		sw := &statusWriter{ResponseWriter: rw}
		// Calls (POST) hold their store; an MCP event stream (GET) reads
		// none and may stay open for long, so a switch does not wait on it.
		var b *backend
		if r.Method == http.MethodPost {
			b = s.hold()
			defer b.release()
		} else {
			b = s.cur.Load()
		}
		sw.Header().Set(StoreHeader, b.id)
		h := h
		if h == nil {
			h = b.mounts[path]
		}
		defer func() {
			st.requests.Add(1)
			switch {
			case sw.status >= 500:
				st.serverErr.Add(1)
			case sw.status >= 400:
				st.clientErr.Add(1)
			}
			st.latency.Record(time.Since(t0))
		}()
		if !s.authorized(r) {
			sw.Header().Set("WWW-Authenticate", `Bearer realm="leaper"`)
			writeError(sw, http.StatusUnauthorized, "missing or wrong bearer token", nil)
			return
		}
		r.Body = http.MaxBytesReader(sw, r.Body, s.opts.MaxBody)
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					writeError(sw, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", s.opts.MaxBody), nil)
				} else {
					writeError(sw, http.StatusBadRequest, "reading request body: "+err.Error(), nil)
				}
				return
			}
			if msg := notUTF8(body); msg != "" {
				writeError(sw, http.StatusBadRequest, msg, nil)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		bw := &wholeWriter{w: sw}
		h.ServeHTTP(bw, r)
		bw.finish()
	})
}

// wholeWriter holds a mounted handler's application/json answer until the
// handler returns, then sends it whole with its length, as writeBody does
// for the native endpoints; any other answer (MCP's server-sent events)
// passes straight through. The MCP SDK writes its answers from a goroutine
// of its own while the handler waits, hence the lock.
type wholeWriter struct {
	w  *statusWriter
	mu sync.Mutex
	// decided is set at the first WriteHeader or Write; whole then says
	// whether the answer is held, with its status in code.
	decided, whole bool
	code           int
	body           []byte
	finished       bool
}

func (w *wholeWriter) Header() http.Header { return w.w.Header() }

// Unwrap gives http.ResponseController the underlying writer.
func (w *wholeWriter) Unwrap() http.ResponseWriter { return w.w }

func (w *wholeWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeaderLocked(code)
}

func (w *wholeWriter) writeHeaderLocked(code int) {
	if w.decided {
		if !w.whole {
			w.w.WriteHeader(code) // net/http logs the superfluous call
		}
		return
	}
	w.decided = true
	ct := w.w.Header().Get("Content-Type")
	w.whole = !w.finished && code == http.StatusOK && strings.HasPrefix(ct, "application/json")
	if w.whole {
		w.code = code
		return
	}
	w.w.WriteHeader(code)
}

func (w *wholeWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.decided {
		w.writeHeaderLocked(http.StatusOK)
	}
	if !w.whole {
		return w.w.Write(b)
	}
	if w.finished {
		return 0, errAnswerSent
	}
	w.body = append(w.body, b...)
	return len(b), nil
}

// Flush lets streamed answers through; a held answer waits for the end.
func (w *wholeWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.decided {
		w.writeHeaderLocked(http.StatusOK)
	}
	if !w.whole {
		w.w.Flush()
	}
}

var errAnswerSent = errors.New("serve: write after the answer was sent")

// finish sends a held answer. Writes after it fail.
func (w *wholeWriter) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finished = true
	if w.whole {
		w.w.Header().Set("Content-Length", strconv.Itoa(len(w.body)))
		w.w.WriteHeader(w.code)
		w.w.Write(w.body)
	}
}
