package index

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"
)

// Options configure Open. The zero value (or a nil *Options) gives the
// defaults documented on each field.
type Options struct {
	// InMemory keeps the index in memory only; dir is ignored. For tests.
	InMemory bool

	// ReadOnly opens an existing index for searching only. Several
	// processes may hold the same directory open read-only at once; Add
	// returns ErrReadOnly. Open fails with ErrNotFound when dir holds no index.
	ReadOnly bool

	// Logger receives debug and info lines. Default: discard.
	Logger *slog.Logger

	// BatchSize is the number of pages per Bleve batch (one in-memory
	// segment each). Default 10000.
	BatchSize int

	// Workers is the number of batches built concurrently by Add.
	// Default: GOMAXPROCS, at most 4.
	Workers int

	// PostingsCache is how many bytes of decoded posting lists (of the
	// terms searched, 32 postings or more) a read-only index keeps in
	// memory, off the Go heap, to search faster: about 4.5 bytes a
	// posting, so all 13.3 million postings of the full shared corpus
	// would take 60 MB, and the lists of 20,000 queries' terms over 21
	// million passages about 2.5 GB. Lists are kept until the budget is
	// spent, then no more are added; memory is taken only as lists are
	// decoded. Default: an eighth of the machine's memory, at least
	// 256 MiB; negative: none.
	PostingsCache int64

	// LockTimeout bounds how long Open waits for the root file lock held by
	// a writer in another process. Default 2s.
	LockTimeout time.Duration
}

const (
	defaultBatchSize   = 10000
	defaultLockTimeout = 2 * time.Second
	// minPostingsCache holds every list of the full corpus.
	minPostingsCache = 256 << 20
)

// withDefaults copies o and fills the defaults.
func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.BatchSize == 0 {
		c.BatchSize = defaultBatchSize
	}
	if c.BatchSize < 0 {
		return c, fmt.Errorf("index: options: BatchSize %d < 0", c.BatchSize)
	}
	if c.Workers == 0 {
		c.Workers = min(runtime.GOMAXPROCS(0), 4)
	}
	if c.Workers < 0 {
		return c, fmt.Errorf("index: options: Workers %d < 0", c.Workers)
	}
	if c.PostingsCache == 0 {
		c.PostingsCache = max(physicalMemory()/8, minPostingsCache)
	}
	if c.LockTimeout == 0 {
		c.LockTimeout = defaultLockTimeout
	}
	if c.InMemory && c.ReadOnly {
		return c, fmt.Errorf("index: options: InMemory and ReadOnly are exclusive")
	}
	return c, nil
}
