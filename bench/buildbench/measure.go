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
	Pages        int           `json:"pages"`
	Entities     int           `json:"entities"`
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
	PeakRSS   int64 `json:"peak_rss_bytes"`
	StoreSize int64 `json:"store_bytes"`
	ExitCode  int   `json:"exit_code"`
}

// buildReport is the part of leaper build --json that Measure reads.
type buildReport struct {
	Tables     int `json:"tables"`
	Trees      int `json:"trees"`
	Duplicates int `json:"duplicates"`
	Skipped    int `json:"skipped"`
	Store      struct {
		Entities int `json:"entities"`
		Pages    int `json:"pages"`
	} `json:"store"`
	Read     time.Duration `json:"read_ns"`
	Finalize time.Duration `json:"finalize_ns"`
	Index    time.Duration `json:"index_ns"`
	Total    time.Duration `json:"total_ns"`
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
	res.Entities, res.Pages = rep.Store.Entities, rep.Store.Pages
	res.Read, res.Finalize, res.Index = rep.Read, rep.Finalize, rep.Index
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
