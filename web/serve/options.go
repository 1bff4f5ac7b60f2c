package serve

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/web"
)

// Options configure a Server. The zero value (or nil) means defaults.
type Options struct {
	// Workers bounds concurrent tool executions; requests beyond it queue.
	// Default 2×GOMAXPROCS: tools are CPU-bound, and a little more than one
	// per core hides the short waits on Badger and the index.
	Workers int
	// Evaluations bounds the search queries evaluated at once (a
	// /retrieve query, a /search or Serper call); further ones wait in
	// the order they came. Default GOMAXPROCS: evaluation is CPU-bound,
	// and one per core answers each query at a core's speed instead of
	// sharing the cores among every request in flight, which stretches
	// every latency by the number of requests (see admit.go).
	Evaluations int
	// Cache is the number of responses kept in an LRU cache keyed by
	// endpoint and canonical arguments; 0 turns it off.
	Cache int
	// Token, when not empty, is the bearer token every request but
	// GET /healthz must carry.
	Token string
	// MaxBody bounds a request body, in bytes. Default 1 MiB.
	MaxBody int64
	// MaxQueries bounds the queries of one search call (and of Serper's
	// batch). Default 16.
	MaxQueries int
	// MaxBatch bounds the queries of one /retrieve call: Search-R1's
	// trainer posts every active rollout's query at once (512 prompts × 5
	// samples). Default 2560.
	MaxBatch int
	// BatchTimeout bounds the time one /retrieve call may take; past it
	// the call is answered 503. Default 90s, within the server's write
	// timeout (2 min), so the client gets an answer rather than a cut
	// connection.
	BatchTimeout time.Duration
	// MaxURLs bounds the URLs of one visit or access call. Default 16.
	MaxURLs int
	// MaxTopK bounds topk of a retrieve call. Default 100.
	MaxTopK int
	// MaxArgLen bounds one query, URL or goal, in bytes. Default 4096.
	MaxArgLen int
	// ShutdownGrace is how long Serve lets in-flight requests finish once
	// its context is done. Default 30s.
	ShutdownGrace time.Duration
	// Drain is how long Serve keeps answering, with GET /readyz saying
	// 503, once its context is done and before it stops accepting: time
	// for a load balancer's health check to take the replica out (for
	// HAProxy, inter × fall). Default 0: stop at once.
	Drain time.Duration
	// Open opens the store in a directory for Switch (and POST
	// /admin/store); nil means the server cannot switch stores. The server
	// closes the web's store once it no longer serves it.
	Open func(dir string) (*web.Web, error)
	// Logger receives server errors and recovered panics; default discard.
	Logger *slog.Logger
}

// Validate reports options out of range: a negative count, size or
// duration. Zero means the default for each; NewServer fills the defaults
// and, to stay usable as a plain constructor, treats a negative value as
// zero, so callers that take options from users call Validate first.
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	bad := []struct {
		name string
		neg  bool
	}{
		{"Workers", o.Workers < 0},
		{"Evaluations", o.Evaluations < 0},
		{"Cache", o.Cache < 0},
		{"MaxBody", o.MaxBody < 0},
		{"MaxQueries", o.MaxQueries < 0},
		{"MaxBatch", o.MaxBatch < 0},
		{"BatchTimeout", o.BatchTimeout < 0},
		{"MaxURLs", o.MaxURLs < 0},
		{"MaxTopK", o.MaxTopK < 0},
		{"MaxArgLen", o.MaxArgLen < 0},
		{"ShutdownGrace", o.ShutdownGrace < 0},
		{"Drain", o.Drain < 0},
	}
	for _, b := range bad {
		if b.neg {
			return fmt.Errorf("%w: %s must not be negative", ErrBadOptions, b.name)
		}
	}
	return nil
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Workers <= 0 {
		c.Workers = 2 * runtime.GOMAXPROCS(0)
	}
	if c.Evaluations <= 0 {
		c.Evaluations = runtime.GOMAXPROCS(0)
	}
	if c.Cache < 0 {
		c.Cache = 0
	}
	if c.MaxBody <= 0 {
		c.MaxBody = 1 << 20
	}
	if c.MaxQueries <= 0 {
		c.MaxQueries = 16
	}
	if c.MaxBatch <= 0 {
		c.MaxBatch = DefaultMaxBatch
	}
	if c.BatchTimeout <= 0 {
		c.BatchTimeout = 90 * time.Second
	}
	if c.MaxURLs <= 0 {
		c.MaxURLs = 16
	}
	if c.MaxTopK <= 0 {
		c.MaxTopK = 100
	}
	if c.MaxArgLen <= 0 {
		c.MaxArgLen = 4096
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = 30 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// DefaultMaxBatch is Options.MaxBatch's default: Search-R1's GRPO batch,
// 512 prompts × 5 samples.
const DefaultMaxBatch = 2560

// ReadToken reads a token file: its content without surrounding space.
func ReadToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("%s: %w", path, ErrEmptyToken)
	}
	return tok, nil
}
