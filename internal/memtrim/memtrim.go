// Package memtrim bounds the resident pages of a process's memory-mapped
// store files.
//
// Badger maps its tables and value logs into the process, and Bleve its
// segments. Every page written or read through such a mapping stays in
// the process's resident memory until the kernel wants the memory back, so
// a build's resident memory grows with the store it writes, although those
// pages are the kernel's page cache and could be dropped at any time. A
// Trimmer asks the kernel to reclaim them whenever they pass a budget.
package memtrim

import (
	"sync"
	"time"

	"github.com/leaper-dev/leaper/internal/procmem"
)

// Stats say what a Trimmer did.
type Stats struct {
	// Trims is how many times the budget was passed and the mappings
	// trimmed.
	Trims int `json:"trims"`
	// Released is the resident memory of mapped files the trims released,
	// in bytes.
	Released int64 `json:"released_bytes"`
	// PeakFile is the largest resident memory of mapped files seen.
	PeakFile int64 `json:"peak_file_bytes"`
	// Err is why trimming stopped, if it did ("" if it did not).
	Err string `json:"error,omitempty"`
}

// A Trimmer checks the process's resident mapped-file memory at a fixed
// interval and trims the mappings of files under its directories when it
// is over budget. Where the system cannot (anything but Linux), it does
// nothing.
type Trimmer struct {
	dirs   []string
	budget int64
	stop   chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	stats  Stats
}

// Start starts a Trimmer that keeps the resident pages of mapped files
// within budget bytes, checking every interval, by trimming the mappings
// of the files under dirs.
func Start(budget int64, every time.Duration, dirs ...string) *Trimmer {
	t := &Trimmer{dirs: absDirs(dirs), budget: budget, stop: make(chan struct{}), done: make(chan struct{})}
	if !supported || budget <= 0 {
		close(t.done)
		return t
	}
	go t.run(every)
	return t
}

func (t *Trimmer) run(every time.Duration) {
	defer close(t.done)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case <-tick.C:
		}
		file := procmem.Read().File
		t.mu.Lock()
		t.stats.PeakFile = max(t.stats.PeakFile, file)
		t.mu.Unlock()
		if file <= t.budget {
			continue
		}
		err := Trim(t.dirs...)
		after := procmem.Read().File
		t.mu.Lock()
		t.stats.Trims++
		t.stats.Released += max(0, file-after)
		if err != nil {
			t.stats.Err = err.Error()
		}
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// Stats reports what the Trimmer has done so far.
func (t *Trimmer) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// Stop stops the Trimmer and reports what it did.
func (t *Trimmer) Stop() Stats {
	select {
	case <-t.stop:
	default:
		close(t.stop)
	}
	<-t.done
	return t.Stats()
}
