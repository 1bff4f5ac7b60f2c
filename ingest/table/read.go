package table

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Options configure Read. A nil *Options means defaults.
type Options struct {
	// Format forces one input format; "" or FormatAuto detects it per file
	// by content (see Detect).
	Format Format
	// Titles maps a CSV file's base name ("medals.csv", or without the
	// extension) to its page [title, url] and the section its table
	// stands in ("" when unknown).
	Titles map[string][3]string
	// Logger receives debug messages (ignored files, skips); nil discards.
	Logger *slog.Logger
	// Workers bounds the goroutines that parse in parallel; 0 means
	// GOMAXPROCS. Added beside the fields above so that callers sharing
	// the CPU with other stages can hold the reader back; output order
	// does not depend on it.
	Workers int
	// Links says how CSV cells written as page titles are read; "" is
	// LinksAuto (see CSVOptions).
	Links LinkMode
	// Prepare, when not nil, is called on every item in the parsing
	// goroutines before fn sees it, for the caller's own per-item work
	// (it may set Item.Prepared); it must be safe for concurrent use.
	Prepare func(*Item)
}

// Limits that keep hostile input from exhausting memory.
const (
	maxLine   = 64 << 20  // one JSON line
	maxFile   = 512 << 20 // one HTML, CSV or whole-JSON file or archive member
	headSize  = 64 << 10  // bytes Detect sees
	batchSize = 1 << 20   // bytes of JSON lines parsed as one job
	batchMax  = 512       // lines parsed as one job
)

// Read walks each path (a file, a directory, recursively and in sorted
// order, a .gz file or a .tar.gz/.tgz archive) and calls fn for each table,
// passage or skipped record, in a deterministic order: paths in the order
// given, files in lexical order, records in file order. Parsing runs on
// several goroutines but fn is called from the caller's goroutine, one item
// at a time.
//
// A bad record or file does not stop the walk: it becomes an Item whose
// Skip names the file, the line where there is one, and a short Reason
// ("invalid json", "no table", "empty", "binary", "unknown format",
// "truncated", "open", ...). Only the cancellation of ctx (Read returns
// ctx.Err()) or an error returned by fn (returned as is) stops it.
//
// While walking a directory, README, LICENSE and *.md files and the
// WikiTableQuestions sidecars (page/20N-page/K.json, table-metadata.tsv)
// are passed over silently: they describe tables, they are not tables.
func Read(ctx context.Context, paths []string, opts *Options, fn func(Item) error) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	switch o.Format {
	case "":
		o.Format = FormatAuto
	default:
		if !o.Format.Known() {
			return fmt.Errorf("table: unknown format %q", o.Format)
		}
	}
	if o.Workers < 0 {
		return fmt.Errorf("table: Workers %d < 0", o.Workers)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &reader{
		ctx:   cctx,
		opts:  o,
		log:   o.Logger,
		order: make(chan *job, 4*o.Workers),
		work:  make(chan *job, 4*o.Workers),
	}
	var wg sync.WaitGroup
	for range o.Workers {
		wg.Go(func() {
			for j := range r.work {
				items := j.run()
				if o.Prepare != nil {
					for i := range items {
						o.Prepare(&items[i])
					}
				}
				j.out <- items
			}
		})
	}
	go func() {
		defer close(r.work)
		defer close(r.order)
		for _, p := range paths {
			if !r.walk(p) {
				return
			}
		}
	}()
	var err error
	for j := range r.order {
		if err != nil {
			continue // drain so that the producer ends
		}
		var items []Item
		select {
		case items = <-j.out:
		case <-cctx.Done():
			err = ctx.Err()
			continue
		}
		for _, it := range items {
			if err = ctx.Err(); err != nil {
				break
			}
			if it.Skip != nil {
				r.log.Debug("table: skip", "file", it.Skip.File, "line", it.Skip.Line, "reason", it.Skip.Reason, "msg", it.Skip.Msg)
			}
			if err = fn(it); err != nil {
				cancel()
				break
			}
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			cancel()
		}
	}
	wg.Wait()
	return err
}

type job struct {
	run func() []Item
	out chan []Item
}

type reader struct {
	ctx   context.Context
	opts  Options
	log   *slog.Logger
	order chan *job
	work  chan *job
	side  sidecars
}

// emit queues run to be done by a worker, its items to be delivered in
// queue order. It returns false when the read is cancelled.
func (r *reader) emit(run func() []Item) bool {
	j := &job{run: run, out: make(chan []Item, 1)}
	select {
	case r.order <- j:
	case <-r.ctx.Done():
		return false
	}
	select {
	case r.work <- j:
		return true
	case <-r.ctx.Done():
		return false
	}
}

func (r *reader) skip(file string, line int, reason, msg string) bool {
	it := Item{Skip: &ParseError{File: file, Line: line, Reason: reason, Msg: msg}}
	return r.emit(func() []Item { return []Item{it} })
}

func (r *reader) walk(p string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return r.skip(p, 0, "open", err.Error())
	}
	if !fi.IsDir() {
		return r.file(p)
	}
	ok := true
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			if !r.skip(q, 0, "open", err.Error()) {
				return fs.SkipAll
			}
			return nil
		}
		if r.ctx.Err() != nil {
			ok = false
			return fs.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if q != p && strings.HasPrefix(name, ".") {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || ignored(q) {
			r.log.Debug("table: ignore", "file", q)
			return nil
		}
		if !r.file(q) {
			ok = false
			return fs.SkipAll
		}
		return nil
	})
	return ok && err == nil
}

// ignored reports whether a file met while walking a directory is not data.
func ignored(p string) bool {
	base := filepath.Base(p)
	up := strings.ToUpper(base)
	switch {
	case strings.HasPrefix(base, "."),
		strings.HasPrefix(up, "README"), strings.HasPrefix(up, "LICENSE"),
		strings.HasPrefix(up, "LICENCE"), strings.HasPrefix(up, "COPYING"),
		strings.HasSuffix(up, ".MD"):
		return true
	}
	return isSidecar(p)
}

func (r *reader) file(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return r.skip(p, 0, "open", err.Error())
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return r.stream(p, p, p, f, size)
}

// stream reads one input: name is its display name (Source, File), vpath
// the path used to find sidecars (for archive members, the member path
// joined to the archive's directory), hint the name Detect sees, size its
// length in bytes if known, else -1.
func (r *reader) stream(name, vpath, hint string, rd io.Reader, size int64) bool {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(rd)
	defer func() {
		br.Reset(nil)
		readerPool.Put(br)
	}()
	head, err := br.Peek(headSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) && len(head) == 0 {
		// With some bytes read, go on: the records before a truncation
		// are still read, and the error comes back on the next read.
		return r.skip(name, 0, readReason(err), err.Error())
	}
	if len(bytes.TrimSpace(head)) == 0 && len(head) < headSize {
		return r.skip(name, 0, "empty", "nothing but white space")
	}
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return r.skip(name, 0, "truncated", "gzip: "+err.Error())
		}
		defer zr.Close()
		hint = strings.TrimSuffix(strings.TrimSuffix(hint, ".gz"), ".tgz")
		return r.stream(name, vpath, hint, zr, -1)
	}
	if len(head) >= 262 && string(head[257:262]) == "ustar" {
		return r.tar(name, vpath, br)
	}
	if isBinary(head) {
		return r.skip(name, 0, "binary", "binary content")
	}
	f := r.opts.Format
	if f == FormatAuto {
		f = Detect(hint, head)
	}
	switch f {
	case FormatWikiTables, FormatTabEL, FormatPassages, FormatFlashRAG, FormatBrowseCompPlus, FormatKILT:
		return r.jsonStream(name, f, br)
	case FormatHTML, FormatCSV:
		data, err := readWhole(br, size)
		if err != nil {
			return r.skip(name, 0, readReason(err), err.Error())
		}
		if len(data) > maxFile {
			return r.skip(name, 0, "too large", fmt.Sprintf("more than %d bytes", maxFile))
		}
		return r.emit(func() []Item { return r.parseWhole(name, vpath, hint, f, data) })
	case "":
		return r.skip(name, 0, "unknown format", "cannot tell the format from the content")
	default:
		return r.skip(name, 0, "unknown format", fmt.Sprintf("format %q", f))
	}
}

// readWhole reads r to its end, or to one byte past maxFile. With the size
// known it reads into a buffer of that size: io.ReadAll grows its buffer
// from 512 bytes, and copying and zeroing the growing buffers of the
// shared corpus's HTML pages cost 3 s of CPU in a build.
func readWhole(r io.Reader, size int64) ([]byte, error) {
	lr := io.LimitReader(r, maxFile+1)
	if size < 0 || size > maxFile {
		return io.ReadAll(lr)
	}
	var buf bytes.Buffer
	// MinRead to spare: Buffer.ReadFrom grows when less is left, and
	// the read that finds the end needs somewhere to go.
	buf.Grow(int(size) + bytes.MinRead)
	_, err := buf.ReadFrom(lr)
	return buf.Bytes(), err
}

// readerPool holds the large buffered readers: allocating (and zeroing)
// 1 MiB per small file cost more than parsing it.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 1<<20) }}

func readReason(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
		return "truncated"
	}
	return "read error"
}

func (r *reader) tar(name, vpath string, rd io.Reader) bool {
	tr := tar.NewReader(rd)
	dir := filepath.Dir(vpath)
	for {
		if r.ctx.Err() != nil {
			return false
		}
		h, err := tr.Next()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return r.skip(name, 0, "truncated", "tar: "+err.Error())
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		member := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if ignored(member) {
			continue
		}
		mname := name + "!" + member
		if h.Size > maxFile {
			if !r.skip(mname, 0, "too large", fmt.Sprintf("%d bytes", h.Size)) {
				return false
			}
			continue
		}
		if !r.stream(mname, filepath.Join(dir, filepath.FromSlash(member)), member, tr, h.Size) {
			return false
		}
	}
}

// parseWhole parses one HTML or CSV file.
func (r *reader) parseWhole(name, vpath, hint string, f Format, data []byte) []Item {
	switch f {
	case FormatHTML:
		tables, err := parseHTML(name, data, r.side.wtqMeta(vpath))
		if err != nil {
			return []Item{skipItem(name, 0, err)}
		}
		items := make([]Item, len(tables))
		for i, t := range tables {
			items[i] = withPage(Item{Table: t}, name, 0)
		}
		return items
	default:
		var meta *PageMeta
		base := path.Base(filepath.ToSlash(hint))
		for _, k := range []string{base, strings.TrimSuffix(base, path.Ext(base))} {
			if tu, ok := r.opts.Titles[k]; ok {
				// A section as OTT-QA writes it ("Filmography --
				// Television series", tokenised) reads as its own do.
				sec := Detokenize(strings.ReplaceAll(tu[2], " -- ", " | "))
				meta = &PageMeta{Title: tu[0], URL: tu[1], Index: -1, Section: sec}
				break
			}
		}
		t, err := parseCSV(name, data, meta, &CSVOptions{Links: r.opts.Links})
		if err != nil {
			return []Item{skipItem(name, 0, err)}
		}
		return []Item{{Table: t}}
	}
}

// withPage skips a table that names no page: its page could be neither
// indexed nor visited, and a whole build would fail on it at the index.
// A WikiTableQuestions fragment takes its page from its page/*.json
// sidecar; a fragment given alone has none.
func withPage(it Item, file string, line int) Item {
	if it.Table != nil && it.Table.PageURL == "" {
		return Item{Skip: &ParseError{File: file, Line: line, Reason: "no page",
			Msg: "the table names no page title or URL (a WikiTableQuestions fragment reads them from its page/*.json sidecar)"}}
	}
	return it
}

// skipItem turns a parse error into a Skip, filling File and Line.
func skipItem(file string, line int, err error) Item {
	var pe *ParseError
	if errors.As(err, &pe) {
		c := *pe
		c.File = file
		if line > 0 {
			c.Line = line
		}
		return Item{Skip: &c}
	}
	return Item{Skip: &ParseError{File: file, Line: line, Reason: "invalid", Msg: err.Error()}}
}

// jsonStream reads JSON Lines, or, when the first line is not a complete
// JSON value, one JSON value for the whole file (an object, or an array of
// objects).
func (r *reader) jsonStream(name string, f Format, br *bufio.Reader) bool {
	var buf []byte // current batch: lines back to back
	var ends []int // end offset of each line in buf
	var nums []int // line numbers
	flush := func() bool {
		if len(ends) == 0 {
			return true
		}
		b, e, n := buf, ends, nums
		buf, ends, nums = nil, nil, nil
		return r.emit(func() []Item { return parseLines(name, f, b, e, n) })
	}
	lineNo := 0
	first := true
	var long []byte
	for {
		if r.ctx.Err() != nil {
			return false
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it, up to maxLine.
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				if len(long) <= maxLine {
					long = append(long, line...)
				}
			}
			line = long
		}
		if err != nil && err != io.EOF {
			// A line cut by a truncation or a read error is not a
			// record: report the error at its line.
			line = nil
			lineNo++
		}
		if len(line) > 0 {
			lineNo++
			trimmed := bytes.TrimSpace(line)
			switch {
			case len(trimmed) == 0:
			case len(line) > maxLine:
				if !flush() || !r.skip(name, lineNo, "line too long", fmt.Sprintf("more than %d bytes", maxLine)) {
					return false
				}
			case first && !json.Valid(trimmed):
				// Not JSON Lines: one value for the whole file.
				rest, rerr := io.ReadAll(io.LimitReader(br, maxFile))
				data := append(append([]byte{}, line...), rest...)
				if rerr == nil && err == nil {
					err = io.EOF
				} else if rerr != nil {
					err = rerr
				}
				if !r.emit(func() []Item { return parseWholeJSON(name, f, data) }) {
					return false
				}
				if err != io.EOF {
					return r.skip(name, 0, readReason(err), err.Error())
				}
				return true
			default:
				buf = append(buf, trimmed...)
				ends = append(ends, len(buf))
				nums = append(nums, lineNo)
				if len(buf) >= batchSize || len(ends) >= batchMax {
					if !flush() {
						return false
					}
				}
			}
			if len(trimmed) > 0 {
				first = false
			}
		}
		if err != nil {
			if !flush() {
				return false
			}
			if err == io.EOF {
				return true
			}
			return r.skip(name, lineNo, readReason(err), err.Error())
		}
	}
}

func parseLines(name string, f Format, buf []byte, ends, nums []int) []Item {
	items := make([]Item, 0, len(ends))
	start := 0
	for i, end := range ends {
		line := buf[start:end]
		start = end
		if it, ok := parseRecord(name+"#line "+strconv.Itoa(nums[i]), name, nums[i], f, line); ok {
			items = append(items, it)
		}
	}
	return items
}

func parseRecord(source, file string, line int, f Format, rec []byte) (Item, bool) {
	switch f {
	case FormatFlashRAG, FormatBrowseCompPlus, FormatKILT:
		parse := ParseKILTLine
		switch f {
		case FormatFlashRAG:
			parse = ParseFlashRAGLine
		case FormatBrowseCompPlus:
			parse = ParseBrowseCompPlusLine
		}
		d, err := parse(rec)
		if err != nil {
			return skipItem(file, line, err), true
		}
		d.Source = source
		return Item{Document: d}, true
	case FormatPassages:
		p, err := ParsePassageLine(rec)
		if err != nil {
			return skipItem(file, line, err), true
		}
		p.Source = source
		return Item{Passage: p}, true
	case FormatTabEL:
		t, err := ParseTabELLine(rec)
		if err != nil {
			return skipItem(file, line, err), true
		}
		t.Source = source
		return withPage(Item{Table: t}, file, line), true
	default:
		t, err := ParseWikiTablesLine(rec)
		if err != nil {
			return skipItem(file, line, err), true
		}
		t.Source = source
		return withPage(Item{Table: t}, file, line), true
	}
}

func parseWholeJSON(name string, f Format, data []byte) []Item {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var elems []json.RawMessage
		if err := json.Unmarshal(data, &elems); err != nil {
			return []Item{{Skip: &ParseError{File: name, Reason: "invalid json", Msg: shortErr(err)}}}
		}
		items := make([]Item, 0, len(elems))
		for i, e := range elems {
			it, _ := parseRecord(name+"#item "+strconv.Itoa(i), name, 0, f, e)
			items = append(items, it)
		}
		return items
	}
	it, _ := parseRecord(name, name, 0, f, data)
	return []Item{it}
}
