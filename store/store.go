package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/index"
)

// Options configure Open. A nil *Options opens the whole store read-only.
type Options struct {
	// Writable opens the graph for writing; the default is read-only, as
	// every reader should (several processes may read at once).
	Writable bool
	// GraphOnly opens the graph and not the index, for commands that do
	// not search; Index then returns nil.
	GraphOnly bool
	// AllowIncomplete opens a store whose build has not finished.
	AllowIncomplete bool
	// Logger receives the graph's and the index's messages. Default:
	// discard.
	Logger *slog.Logger
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Store is an open store directory: its graph and, unless opened
// GraphOnly, its index.
type Store struct {
	dir string
	g   *graph.Store
	x   *index.Index

	mu     sync.Mutex
	closed bool

	idOnce sync.Once
	digest string
	idErr  error
}

// Open opens the store in dir: read-only by default, refusing a store of
// another format version (graph.ErrVersion, checked by graph.Open) or one
// whose build has not finished (graph.ErrIncomplete).
func Open(dir string, opts *Options) (*Store, error) {
	o := opts.withDefaults()
	g, err := graph.Open(GraphPath(dir), &graph.Options{ReadOnly: !o.Writable, Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	if !o.AllowIncomplete && !g.Manifest().Complete {
		g.Close()
		return nil, graph.ErrIncomplete
	}
	s := &Store{dir: dir, g: g}
	if o.GraphOnly {
		return s, nil
	}
	x, err := index.Open(IndexPath(dir), &index.Options{ReadOnly: !o.Writable, Logger: o.Logger})
	if err != nil {
		g.Close()
		return nil, err
	}
	s.x = x
	return s, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Graph is the store's entity-relation graph.
func (s *Store) Graph() *graph.Store { return s.g }

// Index is the store's full-text index, nil when opened GraphOnly.
func (s *Store) Index() *index.Index { return s.x }

// Digest is the store's content digest (graph.Manifest.Digest: SHA-256 of
// its pages in URL order, hex). A build records it; for a store built
// before it was recorded, the first call computes it from the pages (one
// read of every page) and keeps it for the store's life.
func (s *Store) Digest() (string, error) {
	s.idOnce.Do(func() {
		s.digest = s.g.Manifest().Digest
		if s.digest == "" {
			s.digest, s.idErr = s.g.ComputeDigest(context.Background())
		}
	})
	return s.digest, s.idErr
}

// ID names what the store holds: "v" and the format version, then the
// first 16 hex digits of its content digest ("v4-9f2c0e7a1b44d5e8").
// Two stores with the same ID answer every search and visit alike;
// replicas behind one balancer must agree on it, and a trajectory records
// it so a replay can refuse another store.
func (s *Store) ID() (string, error) {
	d, err := s.Digest()
	if err != nil {
		return "", fmt.Errorf("store: digest of %s: %w", s.dir, err)
	}
	return FormatID(s.g.Manifest().Version, d), nil
}

// FormatID is the store id of a format version and a content digest.
func FormatID(version int, digest string) string {
	return fmt.Sprintf("v%d-%s", version, digest[:min(16, len(digest))])
}

// Close closes the graph and the index. Closing twice returns ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.closed = true
	var xerr error
	if s.x != nil {
		xerr = s.x.Close()
	}
	return errors.Join(xerr, s.g.Close())
}

// Status is what a directory holds.
type Status int

// Statuses of a directory.
const (
	// Missing: no store.
	Missing Status = iota
	// Incomplete: a store whose build was stopped; building again with the
	// same inputs completes it.
	Incomplete
	// Complete: a store ready to read.
	Complete
)

func (s Status) String() string {
	switch s {
	case Missing:
		return "missing"
	case Incomplete:
		return "incomplete"
	case Complete:
		return "complete"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// State reports whether dir holds a store and whether its build finished.
// A store that cannot be read (another version, damaged) is Incomplete
// with the error.
func State(dir string) (Status, error) {
	if _, err := os.Stat(markerPath(dir)); err != nil {
		return Missing, nil
	}
	g, err := graph.Open(GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		return Incomplete, err
	}
	defer g.Close()
	if g.Manifest().Complete {
		return Complete, nil
	}
	return Incomplete, nil
}
