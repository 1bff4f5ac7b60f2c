// Package buildbench measures leaper build at scale: Replay writes a
// corpus of any size by replaying real CSV tables with renamed pages and
// entities, and Measure builds a corpus in a leaper build child process,
// reporting its wall time, stage times, rate, peak resident memory and
// store size. It imports nothing of leaper: the build is the leaper
// binary's, read back from its --json report.
package buildbench

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// ReplayOptions configure Replay.
type ReplayOptions struct {
	// PerArchive is how many tables each output .tar.gz holds (5,000 by
	// default, as sts-csv's parts).
	PerArchive int
	// Progress, if set, is called after each archive with the tables
	// written so far.
	Progress func(written int)
}

// ReplayReport says what Replay wrote.
type ReplayReport struct {
	Tables   int           `json:"tables"`
	Replicas int           `json:"replicas"`
	Archives []string      `json:"archives"`
	Bytes    int64         `json:"bytes"`
	Took     time.Duration `json:"took_ns"`
}

// source is one CSV table of the input corpus.
type source struct {
	name string // base name, <pageid>-<tableid>.csv
	data []byte
}

// Replay writes n CSV tables into .tar.gz archives in outDir by replaying
// the CSV tables of inputs (files, directories, .tar.gz archives, read in
// sorted order) as many times as needed. Replica 0 is the corpus itself,
// byte for byte. Replica r > 0 renames, consistently across its tables:
// the page id of each file name (offset by r × 1,000,000,000, so that it
// stays an id and the table untitled), every cell written as a linked
// page title (underscores, no spaces: Chester_City_F.C. →
// Chester_City_F.C._(r3)), and every text cell of the first column
// (Hugo → Hugo (r3)). Headers, numbers, shapes and the sharing of
// entities within a replica stay as in the real tables; plain values
// (years, numbers, common words) are shared across replicas as they are
// across real tables. The output is deterministic.
func Replay(ctx context.Context, inputs []string, n int, outDir string, opts *ReplayOptions) (*ReplayReport, error) {
	var o ReplayOptions
	if opts != nil {
		o = *opts
	}
	if o.PerArchive <= 0 {
		o.PerArchive = 5000
	}
	if n < 1 {
		return nil, fmt.Errorf("buildbench: replay: %d tables < 1", n)
	}
	start := time.Now()
	srcs, err := readSources(ctx, inputs)
	if err != nil {
		return nil, err
	}
	if len(srcs) == 0 {
		return nil, fmt.Errorf("buildbench: replay: no .csv tables in %v", inputs)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("buildbench: replay: %w", err)
	}
	rep := &ReplayReport{Replicas: (n + len(srcs) - 1) / len(srcs)}
	var w *archiveWriter
	for i := 0; i < n; i++ {
		if i%o.PerArchive == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if w != nil {
				if err := w.close(); err != nil {
					return nil, err
				}
				rep.Bytes += w.size()
				if o.Progress != nil {
					o.Progress(i)
				}
			}
			path := filepath.Join(outDir, fmt.Sprintf("replay_part_%05d.tar.gz", i/o.PerArchive+1))
			if w, err = newArchiveWriter(path); err != nil {
				return nil, err
			}
			rep.Archives = append(rep.Archives, path)
		}
		r, s := i/len(srcs), srcs[i%len(srcs)]
		name, data := s.name, s.data
		if r > 0 {
			name, data = renameFile(name, r), renameTable(data, r)
		}
		if err := w.add(fmt.Sprintf("replay/r%d/%s", r, name), data); err != nil {
			return nil, err
		}
	}
	if err := w.close(); err != nil {
		return nil, err
	}
	rep.Bytes += w.size()
	rep.Tables, rep.Took = n, time.Since(start)
	if o.Progress != nil {
		o.Progress(n)
	}
	return rep, nil
}

// readSources reads every .csv table of inputs (EachCSV).
func readSources(ctx context.Context, inputs []string) ([]source, error) {
	var out []source
	err := EachCSV(ctx, inputs, func(name string, b []byte) error {
		out = append(out, source{name, b})
		return nil
	})
	return out, err
}

// EachCSV calls fn with the file name and bytes of every .csv table of
// inputs (files, directories, and .tar.gz archives of them, as sts-csv
// ships), in sorted order of paths and archive order within an archive.
func EachCSV(ctx context.Context, inputs []string, fn func(name string, b []byte) error) error {
	var files []string
	for _, in := range inputs {
		err := filepath.WalkDir(in, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".csv") || strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz")) {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("buildbench: %w", err)
		}
	}
	sort.Strings(files)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if strings.HasSuffix(f, ".csv") {
			b, err := os.ReadFile(f)
			if err != nil {
				return fmt.Errorf("buildbench: %w", err)
			}
			if err := fn(filepath.Base(f), b); err != nil {
				return err
			}
			continue
		}
		if err := readArchive(f, fn); err != nil {
			return err
		}
	}
	return nil
}

func readArchive(path string, fn func(name string, b []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("buildbench: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("buildbench: %s: %w", path, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("buildbench: %s: %w", path, err)
		}
		if h.Typeflag != tar.TypeReg || !strings.HasSuffix(h.Name, ".csv") {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return fmt.Errorf("buildbench: %s: %s: %w", path, h.Name, err)
		}
		if err := fn(filepath.Base(h.Name), b); err != nil {
			return err
		}
	}
}

// renameFile offsets the page id of <pageid>-<tableid>.csv by r × 10⁹; a
// name of another shape gets the suffix -r<r>.
func renameFile(name string, r int) string {
	stem := strings.TrimSuffix(name, ".csv")
	page, rest, ok := strings.Cut(stem, "-")
	if id, err := strconv.ParseInt(page, 10, 64); ok && err == nil {
		return fmt.Sprintf("%d-%s.csv", id+int64(r)*1_000_000_000, rest)
	}
	return fmt.Sprintf("%s-r%d.csv", stem, r)
}

// renameTable renames the linked titles and first-column text cells of a
// CSV table for replica r; a file encoding/csv cannot read is kept as is
// (the build skips it as it skips the original).
func renameTable(data []byte, r int) []byte {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord, cr.LazyQuotes = -1, true
	recs, err := cr.ReadAll()
	if err != nil || len(recs) == 0 {
		return data
	}
	head := strings.Join(recs[0], "\x00")
	var body [][]string
	for _, rec := range recs[1:] {
		if strings.Join(rec, "\x00") != head { // a repeated header row stays one
			body = append(body, rec)
		}
	}
	// An entity column is one whose cells are mostly title-shaped, as
	// leaper build's --links auto decides: its single words are entities
	// too, renamed as titles.
	var shaped, filled []int
	for _, rec := range body {
		for len(shaped) < len(rec) {
			shaped, filled = append(shaped, 0), append(filled, 0)
		}
		for j, c := range rec {
			if c != "" {
				filled[j]++
				if titleShaped(c) {
					shaped[j]++
				}
			}
		}
	}
	for _, rec := range body {
		for j, c := range rec {
			rec[j] = renameCell(c, j == 0, 2*shaped[j] > filled[j], r)
		}
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	if err := cw.WriteAll(recs); err != nil {
		return data
	}
	return buf.Bytes()
}

// renameCell renames a cell written as a linked title (Hugo_(film) →
// Hugo_(film)_(r3)), a title-shaped cell of an entity column (ACEMD →
// ACEMD_(r3)) and, in the first column, any cell with a letter (Some
// program → Some program (r3)); other cells are kept.
func renameCell(c string, first, entities bool, r int) string {
	switch {
	case titleShaped(c) && (entities || first || strings.Contains(c, "_")):
		return fmt.Sprintf("%s_(r%d)", c, r)
	case first && strings.IndexFunc(c, unicode.IsLetter) >= 0:
		return fmt.Sprintf("%s (r%d)", c, r)
	}
	return c
}

// titleShaped reports whether a cell could be a page title written with
// underscores: no white space, a letter.
func titleShaped(c string) bool {
	return strings.IndexFunc(c, unicode.IsSpace) < 0 && strings.IndexFunc(c, unicode.IsLetter) >= 0
}

// archiveWriter streams tables into one .tar.gz file.
type archiveWriter struct {
	f  *os.File
	zw *gzip.Writer
	tw *tar.Writer
	n  int64
}

func newArchiveWriter(path string) (*archiveWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("buildbench: replay: %w", err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	return &archiveWriter{f: f, zw: zw, tw: tar.NewWriter(zw)}, nil
}

func (w *archiveWriter) add(name string, data []byte) error {
	h := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg,
		ModTime: time.Unix(0, 0)}
	if err := w.tw.WriteHeader(h); err != nil {
		return fmt.Errorf("buildbench: replay: %s: %w", w.f.Name(), err)
	}
	if _, err := w.tw.Write(data); err != nil {
		return fmt.Errorf("buildbench: replay: %s: %w", w.f.Name(), err)
	}
	return nil
}

func (w *archiveWriter) close() error {
	err := errors.Join(w.tw.Close(), w.zw.Close())
	if fi, serr := w.f.Stat(); serr == nil {
		w.n = fi.Size()
	}
	if err = errors.Join(err, w.f.Close()); err != nil {
		return fmt.Errorf("buildbench: replay: %s: %w", w.f.Name(), err)
	}
	return nil
}

func (w *archiveWriter) size() int64 { return w.n }
