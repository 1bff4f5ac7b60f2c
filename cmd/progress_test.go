package cmd

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
)

var progressLine = regexp.MustCompile(`^build \d+s: (read|bitmaps|pages|index|compact)  \d+ tables  \d+ trees  \d+ pages(  \d+ \w+/s)?  rss \S+ \w+ \(files \S+ \w+, peak \S+ \w+\)  eta \S+$`)

// TestBuildProgressLog builds with stderr not a terminal: progress comes as
// log lines of a fixed shape, the last one when the build ends.
func TestBuildProgressLog(t *testing.T) {
	_, stderr, code := run(t, "build", "--store", t.TempDir()+"/s", "--progress-every", "5ms", graphtest.Corpus())
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "build ") {
			lines = append(lines, l)
			if !progressLine.MatchString(l) {
				t.Errorf("progress line %q has not the expected shape", l)
			}
		}
	}
	if len(lines) == 0 {
		t.Fatalf("no progress line in stderr:\n%s", stderr)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, ": compact ") || strings.Contains(last, " 0 trees") {
		t.Errorf("last line %q: want the compact stage with the trees built", last)
	}
	_, stderr, _ = run(t, "build", "--quiet", "--store", t.TempDir()+"/s", "--progress-every", "5ms", graphtest.Corpus())
	if strings.Contains(stderr, "build ") {
		t.Errorf("--quiet printed progress:\n%s", stderr)
	}
}

func TestProgressLineETA(t *testing.T) {
	var buf bytes.Buffer
	p := newBuildProgress(&buf, true, time.Hour) // terminal: no loop
	p.w = &bytes.Buffer{}                        // bars go nowhere
	p.update(ingest.Progress{Stage: "pages", Done: 250, Total: 1000, Tables: 900, Trees: 400, Pages: 250})
	p.began["pages"] = time.Now().Add(-10 * time.Second)
	p.update(ingest.Progress{Stage: "index", Done: 50}) // from the index goroutine, meanwhile
	p.update(ingest.Progress{Stage: "pages", Done: 250, Total: 1000, Tables: 900, Trees: 400, Pages: 250})
	l := p.line(time.Now())
	if !progressLine.MatchString(l) {
		t.Fatalf("line %q has not the expected shape", l)
	}
	// A quarter done in 10 s: 30 s to go.
	if !strings.Contains(l, "eta 30s") || !strings.Contains(l, "900 tables  400 trees  250 pages  25 pages/s") {
		t.Errorf("line %q: want 900 tables, 400 trees, 250 pages at 25 pages/s, eta 30s", l)
	}
	p.update(ingest.Progress{Stage: "read", Done: 100, Tables: 100, Bytes: 10, TotalBytes: 40})
	p.began["read"] = time.Now().Add(-10 * time.Second)
	if l := p.line(time.Now()); !strings.Contains(l, "eta 30s") || !strings.Contains(l, "250 pages") {
		t.Errorf("read line %q: want eta 30s from bytes, pages kept", l)
	}
}
