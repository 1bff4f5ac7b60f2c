package buildbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// MeasureOptions configure Measure.
type MeasureOptions struct {
	// Leaper is the leaper binary to run (required).
	Leaper string
	// Args are extra flags for leaper build (e.g. --max-memory 4GiB).
	Args []string
	// Stderr receives the child's stderr (its progress lines); nil
	// discards it and passes --quiet.
	Stderr io.Writer
	// Nice, if > 0, runs the child under nice -n Nice.
	Nice int
}

// Result is one measured build.
type Result struct {
	Label        string        `json:"label"`
	Inputs       []string      `json:"inputs"`
	Tables       int           `json:"tables"`
	Trees        int           `json:"trees"`
	Duplicates   int           `json:"duplicates"`
	Skipped      int           `json:"skipped"`
	Wall         time.Duration `json:"wall_ns"`
	Read         time.Duration `json:"read_ns"`
	Finalize     time.Duration `json:"finalize_ns"`
	Index        time.Duration `json:"index_ns"`
	TablesPerSec float64       `json:"tables_per_s"`
	// CPU is the child's user+system time.
	CPU time.Duration `json:"cpu_ns"`
	// PeakRSS is the child's peak resident memory in bytes (rusage).
	PeakRSS int64 `json:"peak_rss_bytes"`
	// PeakMapped is the largest part of the child's resident memory that
	// was pages of mapped files, as the build saw it once a second, and
	// Trims how often it asked the kernel to reclaim them (see leaper
	// build --max-memory).
	PeakMapped int64 `json:"peak_mapped_bytes"`
	Trims      int   `json:"trims"`
	StoreSize  int64 `json:"store_bytes"`
	ExitCode   int   `json:"exit_code"`
	// Counts are the store's counts (entities, pages, ...).
	Counts StoreCounts `json:"counts"`
	// Resume, when checked, is the interrupted and resumed build.
	Resume *ResumeResult `json:"resume,omitempty"`
	// Earlier is true when the figures above are an earlier run's
	// (Options.Against), not measured by this one; only Resume is new.
	Earlier bool `json:"earlier,omitempty"`
}

// ResumeResult is a build killed (SIGKILL) part way, then run again with
// the same command.
type ResumeResult struct {
	KilledAfter time.Duration `json:"killed_after_ns"`
	// Stage is the last progress line the killed build printed.
	Stage string `json:"stage"`
	// Killed is false when the build finished before the kill.
	Killed bool `json:"killed"`
	// Wall is the time of the second run, which completed the store.
	Wall   time.Duration `json:"resumed_wall_ns"`
	Counts StoreCounts   `json:"counts"`
	// Same reports whether Counts equal the uninterrupted build's.
	Same bool `json:"same"`
}

// Resume builds inputs into storeDir (deleted first) as a user would,
// without --force, kills the build with SIGKILL after killAfter, then
// runs the same command again and reports the completed store's counts
// against want, the counts of an uninterrupted build.
func Resume(ctx context.Context, storeDir string, inputs []string, killAfter time.Duration, want StoreCounts, opts *MeasureOptions) (*ResumeResult, error) {
	if opts == nil || opts.Leaper == "" {
		return nil, fmt.Errorf("buildbench: resume: no leaper binary")
	}
	if err := os.RemoveAll(storeDir); err != nil {
		return nil, fmt.Errorf("buildbench: resume: %w", err)
	}
	args := append(append([]string{"build", "--store", storeDir, "--json"}, opts.Args...), inputs...)
	res := &ResumeResult{KilledAfter: killAfter}
	// The first run: a progress line every second, the last one kept.
	first := exec.CommandContext(ctx, opts.Leaper, append([]string{args[0], "--progress-every", "1s"}, args[1:]...)...)
	var stderr lastLine
	first.Stderr = &stderr
	if err := first.Start(); err != nil {
		return nil, fmt.Errorf("buildbench: resume: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- first.Wait() }()
	select {
	case <-done:
	case <-time.After(killAfter):
		res.Killed = first.Process.Kill() == nil // SIGKILL
		<-done
	case <-ctx.Done():
		first.Process.Kill()
		<-done
		return nil, ctx.Err()
	}
	res.Stage = stderr.last()
	second := exec.CommandContext(ctx, opts.Leaper, append([]string{args[0], "--quiet"}, args[1:]...)...)
	var out bytes.Buffer
	second.Stdout = &out
	start := time.Now()
	err := second.Run()
	res.Wall = time.Since(start)
	if err != nil && (second.ProcessState == nil || second.ProcessState.ExitCode() != 3) {
		return nil, fmt.Errorf("buildbench: resume: the second leaper build: %w", err)
	}
	var rep buildReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("buildbench: resume: leaper build --json: %w", err)
	}
	res.Counts = rep.Store
	res.Same = rep.Store == want
	return res, nil
}

// lastLine keeps the last complete line written to it.
type lastLine struct {
	mu   sync.Mutex
	line string
	part []byte
}

func (l *lastLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.part = append(l.part, p...)
	if i := bytes.LastIndexByte(l.part, '\n'); i >= 0 {
		lines := bytes.Split(bytes.TrimRight(l.part[:i], "\n"), []byte("\n"))
		for j := len(lines) - 1; j >= 0; j-- {
			if bytes.HasPrefix(lines[j], []byte("build ")) {
				l.line = string(lines[j])
				break
			}
		}
		l.part = append(l.part[:0], l.part[i+1:]...)
	}
	return len(p), nil
}

func (l *lastLine) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.line
}

// buildReport is the part of leaper build --json that Measure reads.
type buildReport struct {
	Tables     int           `json:"tables"`
	Trees      int           `json:"trees"`
	Duplicates int           `json:"duplicates"`
	Skipped    int           `json:"skipped"`
	Store      StoreCounts   `json:"store"`
	Read       time.Duration `json:"read_ns"`
	Finalize   time.Duration `json:"finalize_ns"`
	Index      time.Duration `json:"index_ns"`
	Total      time.Duration `json:"total_ns"`
	Mapped     struct {
		PeakFile int64 `json:"peak_file_bytes"`
		Trims    int   `json:"trims"`
	} `json:"mapped"`
}

// StoreCounts are the counts of a finished store, as leaper build --json
// reports them.
type StoreCounts struct {
	Tables    int `json:"tables"`
	Trees     int `json:"trees"`
	Rejected  int `json:"rejected"`
	Skipped   int `json:"skipped"`
	Entities  int `json:"entities"`
	Relations int `json:"relations"`
	Triples   int `json:"triples"`
	Passages  int `json:"passages"`
	Documents int `json:"documents,omitempty"`
	Pages     int `json:"pages"`
}

// Measure builds inputs into storeDir (deleted first) with leaper build
// --force --json in a child process, so that the peak resident memory is
// the build's own, and reads the stage times from its report. Exit status
// 3 (records skipped) is a completed build.
func Measure(ctx context.Context, storeDir string, inputs []string, opts *MeasureOptions) (*Result, error) {
	if opts == nil || opts.Leaper == "" {
		return nil, fmt.Errorf("buildbench: measure: no leaper binary")
	}
	if err := os.RemoveAll(storeDir); err != nil {
		return nil, fmt.Errorf("buildbench: measure: %w", err)
	}
	args := []string{"build", "--store", storeDir, "--force", "--json"}
	if opts.Stderr == nil {
		args = append(args, "--quiet")
	}
	args = append(append(args, opts.Args...), inputs...)
	name := opts.Leaper
	if opts.Nice > 0 {
		args = append([]string{"-n", fmt.Sprint(opts.Nice), name}, args...)
		name = "nice"
	}
	c := exec.CommandContext(ctx, name, args...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, opts.Stderr
	start := time.Now()
	err := c.Run()
	wall := time.Since(start)
	res := &Result{Inputs: inputs, Wall: wall}
	if c.ProcessState != nil {
		res.ExitCode = c.ProcessState.ExitCode()
		res.CPU = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
		res.PeakRSS = maxRSS(c.ProcessState)
	}
	if err != nil && res.ExitCode != 3 {
		return nil, fmt.Errorf("buildbench: measure: leaper build: %w", err)
	}
	var rep buildReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("buildbench: measure: leaper build --json: %w", err)
	}
	res.Tables, res.Trees, res.Duplicates, res.Skipped = rep.Tables, rep.Trees, rep.Duplicates, rep.Skipped
	res.Counts = rep.Store
	res.Read, res.Finalize, res.Index = rep.Read, rep.Finalize, rep.Index
	res.PeakMapped, res.Trims = rep.Mapped.PeakFile, rep.Mapped.Trims
	if wall > 0 {
		res.TablesPerSec = float64(rep.Tables+rep.Duplicates) / wall.Seconds()
	}
	res.StoreSize = dirSize(storeDir)
	return res, nil
}

// dirSize is the total size of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
