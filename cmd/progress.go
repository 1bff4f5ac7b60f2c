package cmd

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/internal/procmem"
)

// buildProgress shows a build's advance: progress bars on a terminal,
// otherwise one line per interval on a log, so that a build run under nohup
// or a scheduler says where it is.
type buildProgress struct {
	w     io.Writer
	term  bool
	every time.Duration
	start time.Time

	mu        sync.Mutex
	last      ingest.Progress
	began     map[string]time.Time // when each stage was first reported
	pages     int
	bars      map[string]*progressbar.ProgressBar
	stop, end chan struct{}
}

// newBuildProgress starts the reporter; stop it with close. every is the
// interval of log lines (10 s by default).
func newBuildProgress(w io.Writer, term bool, every time.Duration) *buildProgress {
	if every <= 0 {
		every = 10 * time.Second
	}
	now := time.Now()
	p := &buildProgress{w: w, term: term, every: every, start: now, began: map[string]time.Time{}, bars: map[string]*progressbar.ProgressBar{},
		stop: make(chan struct{}), end: make(chan struct{})}
	if !term {
		go p.loop()
	} else {
		close(p.end)
	}
	return p
}

// update records a snapshot; it is called from the build's goroutines.
func (p *buildProgress) update(s ingest.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// The index stage reports from its own goroutine while pages are
	// still rendered: each stage's rate is from its own start.
	if _, ok := p.began[s.Stage]; !ok {
		p.began[s.Stage] = time.Now()
	}
	if s.Stage == "index" || s.Stage == "compact" {
		// The index goroutine knows nothing of tables: keep the totals.
		s.Tables, s.Trees = p.last.Tables, p.last.Trees
	}
	p.pages = max(p.pages, s.Pages)
	s.Pages = p.pages
	p.last = s
	if p.term {
		p.bar(s)
	}
}

func (p *buildProgress) bar(s ingest.Progress) {
	b := p.bars[s.Stage]
	if b == nil {
		b = progressbar.NewOptions(max(s.Total, -1), progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(fmt.Sprintf("%-8s", s.Stage)), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("it"),
			progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		p.bars[s.Stage] = b
	}
	if s.Total > 0 {
		b.ChangeMax(s.Total)
	}
	b.Set(s.Done)
	if s.Total > 0 && s.Done >= s.Total {
		b.Finish()
	}
}

func (p *buildProgress) loop() {
	defer close(p.end)
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			// The last state, so that a log ends with where the build got.
			p.mu.Lock()
			line := p.line(time.Now())
			p.mu.Unlock()
			if line != "" {
				fmt.Fprintln(p.w, line)
			}
			return
		case <-t.C:
			p.mu.Lock()
			line := p.line(time.Now())
			p.mu.Unlock()
			if line != "" {
				fmt.Fprintln(p.w, line)
			}
		}
	}
}

// close stops the log lines, writing the last state once more.
func (p *buildProgress) close() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	<-p.end
}

// line renders the current state: stage, tables read, trees, pages, the
// stage's rate, resident memory and, when it can be told, the time left.
func (p *buildProgress) line(now time.Time) string {
	s := p.last
	if s.Stage == "" {
		return ""
	}
	elapsed := now.Sub(p.start).Round(time.Second)
	inStage := now.Sub(p.began[s.Stage]).Seconds()
	rate := ""
	if inStage > 0 && s.Done > 0 {
		unit := map[string]string{"read": "tables", "bitmaps": "trees", "pages": "pages", "index": "pages"}[s.Stage]
		if unit != "" {
			rate = fmt.Sprintf("  %.0f %s/s", float64(s.Done)/inStage, unit)
		}
	}
	eta := "?"
	switch {
	case s.Total > 0 && s.Done > 0 && s.Done < s.Total:
		eta = time.Duration(inStage * float64(s.Total-s.Done) / float64(s.Done) * float64(time.Second)).Round(time.Second).String()
	case s.Stage == "read" && s.TotalBytes > 0 && s.Bytes > 0 && s.Bytes < s.TotalBytes:
		eta = time.Duration(inStage * float64(s.TotalBytes-s.Bytes) / float64(s.Bytes) * float64(time.Second)).Round(time.Second).String()
	}
	m := procmem.Read()
	return fmt.Sprintf("build %s: %s  %d tables  %d trees  %d pages%s  rss %s (files %s, peak %s)  eta %s",
		elapsed, s.Stage, s.Tables, s.Trees, s.Pages, rate, humanBytes(m.RSS), humanBytes(m.File), humanBytes(m.Peak), eta)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
