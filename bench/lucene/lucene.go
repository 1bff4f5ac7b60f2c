package lucene

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

//go:embed LuceneBench.java
var source []byte

// ErrUnavailable is wrapped by the errors of Check when java, javac or
// the Lucene jars are missing.
var ErrUnavailable = errors.New("lucene: peer unavailable")

// jars are the Lucene 8 jars the peer needs, by name prefix.
var jars = []string{"lucene-core", "lucene-analyzers-common", "lucene-highlighter", "lucene-queries", "lucene-memory"}

// Options locate the JVM, the jars and the directories of the peer.
type Options struct {
	// Java and Javac are the commands. Default: found on PATH.
	Java, Javac string
	// JarDir holds the Lucene 8 jars. Default /usr/share/java (Debian).
	JarDir string
	// CacheDir receives the compiled class. Default: the user cache
	// directory's leaper/lucene.
	CacheDir string
	// IndexDir holds the Lucene index; an existing index there is reused.
	// Default: a temporary directory removed at Close.
	IndexDir string
	// Heap is the JVM's -Xmx. Default "2g".
	Heap string
	// Log receives the peer's progress. Default: discarded.
	Log io.Writer
}

func (o *Options) withDefaults() (*Options, error) {
	c := Options{}
	if o != nil {
		c = *o
	}
	if c.JarDir == "" {
		c.JarDir = "/usr/share/java"
	}
	if c.Heap == "" {
		c.Heap = "2g"
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.CacheDir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			d = os.TempDir()
		}
		c.CacheDir = filepath.Join(d, "leaper", "lucene")
	}
	return &c, nil
}

// setup is what Check finds: the commands and the classpath.
type setup struct {
	java, javac string
	classpath   []string
}

// Check reports whether the peer can run: java and javac on PATH (or as
// given) and the Lucene 8 jars in JarDir. Its error wraps ErrUnavailable
// and says what is missing.
func Check(opts *Options) error {
	o, err := opts.withDefaults()
	if err != nil {
		return err
	}
	_, err = find(o)
	return err
}

func find(o *Options) (*setup, error) {
	s := &setup{}
	for _, c := range []struct {
		dst  *string
		name string
		set  string
	}{{&s.java, "java", o.Java}, {&s.javac, "javac", o.Javac}} {
		p, err := exec.LookPath(cmpOr(c.set, c.name))
		if err != nil {
			return nil, fmt.Errorf("%w: %s not found (install a JDK, e.g. apt-get install openjdk-17-jdk-headless)", ErrUnavailable, c.name)
		}
		*c.dst = p
	}
	for _, j := range jars {
		m, _ := filepath.Glob(filepath.Join(o.JarDir, j+"-8.*.jar"))
		if len(m) == 0 {
			return nil, fmt.Errorf("%w: %s-8.*.jar not in %s (apt-get install liblucene8-java)", ErrUnavailable, j, o.JarDir)
		}
		s.classpath = append(s.classpath, m[len(m)-1])
	}
	return s, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Page is one page as leaper indexes it.
type Page struct {
	URL, Title, Text string
}

// Peer is a running Lucene process serving one index and one query list.
type Peer struct {
	o       *Options
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	tmp     string // removed at Close
	queries int
	// BuildTime is how long indexing took, 0 when an index was reused.
	BuildTime time.Duration
}

// Start compiles the peer if needed, builds its index from pages unless
// IndexDir already holds one (pages is then not called), and starts it on
// queries. stopWords are the analyser's stop words.
func Start(ctx context.Context, opts *Options, pages func(yield func(Page) error) error, stopWords, queries []string) (*Peer, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s, err := find(o)
	if err != nil {
		return nil, err
	}
	classDir, err := compile(ctx, o, s)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "leaper-lucene-*")
	if err != nil {
		return nil, fmt.Errorf("lucene: %w", err)
	}
	p := &Peer{o: o, tmp: tmp, queries: len(queries)}
	ok := false
	defer func() {
		if !ok {
			p.Close()
		}
	}()
	stop := filepath.Join(tmp, "stopwords.txt")
	if err := os.WriteFile(stop, []byte(strings.Join(stopWords, "\n")+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("lucene: %w", err)
	}
	qfile := filepath.Join(tmp, "queries.txt")
	var qb strings.Builder
	for _, q := range queries {
		qb.WriteString(strings.Join(strings.FieldsFunc(q, func(r rune) bool { return r == '\n' || r == '\r' }), " "))
		qb.WriteByte('\n')
	}
	if err := os.WriteFile(qfile, []byte(qb.String()), 0o644); err != nil {
		return nil, fmt.Errorf("lucene: %w", err)
	}
	idx := o.IndexDir
	if idx == "" {
		idx = filepath.Join(tmp, "index")
	}
	cp := strings.Join(append([]string{classDir}, s.classpath...), string(os.PathListSeparator))
	if _, err := os.Stat(filepath.Join(idx, "segments_1")); err != nil {
		if err := os.RemoveAll(idx); err != nil {
			return nil, fmt.Errorf("lucene: %w", err)
		}
		start := time.Now()
		pf := filepath.Join(tmp, "pages.bin")
		n, err := writePages(pf, pages)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(o.Log, "lucene: exported %d pages, indexing\n", n)
		b := exec.CommandContext(ctx, s.java, "-Xmx"+o.Heap, "-cp", cp, "LuceneBench", "build", pf, stop, idx)
		b.Stdout, b.Stderr = o.Log, o.Log
		if err := b.Run(); err != nil {
			return nil, fmt.Errorf("lucene: build the index: %w", err)
		}
		os.Remove(pf)
		p.BuildTime = time.Since(start)
	}
	c := exec.Command(s.java, "-Xmx"+o.Heap, "-cp", cp, "LuceneBench", "serve", stop, idx, qfile)
	c.Stderr = o.Log
	if p.in, err = c.StdinPipe(); err != nil {
		return nil, fmt.Errorf("lucene: %w", err)
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("lucene: %w", err)
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("lucene: start: %w", err)
	}
	p.cmd = c
	p.out = bufio.NewReaderSize(stdout, 1<<20)
	line, err := p.line()
	if err != nil {
		return nil, err
	}
	if line != "ready" {
		return nil, fmt.Errorf("lucene: peer said %q, want ready", line)
	}
	ok = true
	return p, nil
}

// compile writes the embedded source to the cache directory and compiles
// it, unless a class compiled from the same source is there.
func compile(ctx context.Context, o *Options, s *setup) (string, error) {
	sum := fmt.Sprintf("%x", fnv64(source))
	dir := filepath.Join(o.CacheDir, sum)
	if _, err := os.Stat(filepath.Join(dir, "LuceneBench.class")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("lucene: cache: %w", err)
	}
	src := filepath.Join(dir, "LuceneBench.java")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return "", fmt.Errorf("lucene: cache: %w", err)
	}
	var msg bytes.Buffer
	c := exec.CommandContext(ctx, s.javac, "-nowarn", "-d", dir, "-cp", strings.Join(s.classpath, string(os.PathListSeparator)), src)
	c.Stdout, c.Stderr = &msg, &msg
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("lucene: javac: %w: %s", err, strings.TrimSpace(msg.String()))
	}
	return dir, nil
}

func fnv64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// writePages writes the pages in the peer's input format: per page URL,
// title and text, each a 4-byte big-endian length and the bytes.
func writePages(path string, pages func(yield func(Page) error) error) (int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("lucene: export: %w", err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	n := 0
	var hdr [4]byte
	put := func(s string) error {
		binary.BigEndian.PutUint32(hdr[:], uint32(len(s)))
		if _, err := w.Write(hdr[:]); err != nil {
			return err
		}
		_, err := w.WriteString(s)
		return err
	}
	err = pages(func(p Page) error {
		n++
		for _, s := range [...]string{p.URL, p.Title, p.Text} {
			if err := put(strings.ToValidUTF8(s, "\uFFFD")); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return n, fmt.Errorf("lucene: export: %w", err)
	}
	return n, nil
}

func (p *Peer) line() (string, error) {
	s, err := p.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("lucene: read from the peer: %w", err)
	}
	return strings.TrimSuffix(s, "\n"), nil
}

func (p *Peer) send(cmd string) error {
	if _, err := io.WriteString(p.in, cmd+"\n"); err != nil {
		return fmt.Errorf("lucene: %s: %w", cmd, err)
	}
	return nil
}

// Run is one pass of the peer over all queries.
type Run struct {
	Wall      time.Duration
	Latencies []time.Duration // in query order
}

// Run answers every query once, threads at a time, with a snippet per
// hit or without.
func (p *Peer) Run(threads int, snippets bool) (Run, error) {
	cmd := "run " + strconv.Itoa(threads)
	if !snippets {
		cmd += " nosnippets"
	}
	if err := p.send(cmd); err != nil {
		return Run{}, err
	}
	line, err := p.line()
	if err != nil {
		return Run{}, err
	}
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "ok" {
		return Run{}, fmt.Errorf("lucene: run: %s", line)
	}
	wall, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return Run{}, fmt.Errorf("lucene: run: %q: %w", f[1], err)
	}
	r := Run{Wall: time.Duration(wall)}
	for _, s := range f[3:] {
		ns, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return Run{}, fmt.Errorf("lucene: run: %q: %w", s, err)
		}
		r.Latencies = append(r.Latencies, time.Duration(ns))
	}
	if len(r.Latencies) != p.queries {
		return Run{}, fmt.Errorf("lucene: run: %d latencies for %d queries", len(r.Latencies), p.queries)
	}
	return r, nil
}

// Hits returns each query's top-10 URLs, best first.
func (p *Peer) Hits() ([][]string, error) {
	if err := p.send("hits"); err != nil {
		return nil, err
	}
	out := make([][]string, 0, p.queries)
	for {
		line, err := p.line()
		if err != nil {
			return nil, err
		}
		if line == "end" {
			break
		}
		if line == "" {
			out = append(out, nil)
		} else {
			out = append(out, strings.Split(line, "\t"))
		}
	}
	if len(out) != p.queries {
		return nil, fmt.Errorf("lucene: hits: %d lists for %d queries", len(out), p.queries)
	}
	return out, nil
}

// Close stops the peer and removes its temporary files (not IndexDir).
func (p *Peer) Close() error {
	var err error
	if p.cmd != nil {
		_ = p.send("quit")
		p.in.Close()
		done := make(chan error, 1)
		go func() { done <- p.cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			err = <-done
		}
		p.cmd = nil
	}
	if p.tmp != "" {
		os.RemoveAll(p.tmp)
		p.tmp = ""
	}
	return err
}

// StopWords are the stop words leaper's analyser drops (Bleve's English
// list), for the peer's analyser.
func StopWords() []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(en.EnglishStopWords))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "|")
		out = append(out, strings.Fields(line)...)
	}
	return out
}

// Listen makes the peer serve POST /search over HTTP on the loopback,
// workers requests at a time, and returns its address (host:port). The
// request body is the query text; the answer is JSON, {"hits": [{"url",
// "title", "snippet"}...]}. The server stops at Close.
func (p *Peer) Listen(workers int) (string, error) {
	if err := p.send("http " + strconv.Itoa(max(workers, 1))); err != nil {
		return "", err
	}
	line, err := p.line()
	if err != nil {
		return "", err
	}
	port, ok := strings.CutPrefix(line, "listening ")
	if !ok {
		return "", fmt.Errorf("lucene: http: %s", line)
	}
	return "127.0.0.1:" + port, nil
}
