package report

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromium is the path of a Chromium the tests can drive, or "".
func chromium() string {
	if p := os.Getenv("LEAPER_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// browser is a headless Chromium tab that records the page's console
// errors, uncaught exceptions and network requests.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	errors   []string
	requests []string
}

func newBrowser(tb testing.TB) *browser {
	tb.Helper()
	exe := chromium()
	if exe == "" {
		tb.Skip("no Chromium on PATH (Debian: apt-get install chromium); the report's browser test needs one")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.Flag("hide-scrollbars", true),
		// Chromium leaves its own scratch directories in TMPDIR.
		chromedp.Env("TMPDIR="+tb.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	tb.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	tb.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 2*time.Minute)
	tb.Cleanup(cancel3)
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range e.Args {
					args = append(args, a.Description)
				}
				b.errors = append(b.errors, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.errors = append(b.errors, "exception: "+msg)
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, e.Request.URL)
		}
	})
	if err == nil {
		_, err = chromedp.Call(ctx, network.Enable, network.EnableParams{})
	}
	if err != nil {
		tb.Fatalf("start Chromium %s: %v", exe, err)
	}
	return b
}

// open loads the page at path and waits until the task list is drawn; it
// returns how long that took.
func (b *browser) open(tb testing.TB, path string) time.Duration {
	tb.Helper()
	u := (&url.URL{Scheme: "file", Path: path}).String()
	t0 := time.Now()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(u), chromedp.WaitReady(chromedp.ID("shown")),
		discard(chromedp.Poll[bool](`document.getElementById("shown").textContent !== ""`))); err != nil {
		tb.Fatalf("open %s: %v (page errors: %v)", u, err, b.errs())
	}
	return time.Since(t0)
}

// offPage are the requests for anything but the page itself.
func (b *browser) offPage(page string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, r := range b.requests {
		if !strings.HasPrefix(r, "file://") || !strings.HasSuffix(r, page) {
			out = append(out, r)
		}
	}
	return out
}

// seen is how many requests the page made, its own included.
func (b *browser) seen() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.requests)
}

func (b *browser) errs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// artifacts is where screenshots go: the test's artifact directory (go
// test -artifacts keeps it), or LEAPER_REPORT_SHOTS.
func artifacts(t *testing.T) string {
	if d := os.Getenv("LEAPER_REPORT_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.ArtifactDir()
}

// TestReportInChromium opens the sample store's report from a file in
// headless Chromium: it loads with no console error and no request, every
// chart draws the points the report computed, a card highlights its
// target cells, and the filter narrows the list. Each section is
// screenshotted into the test's artifacts.
func TestReportInChromium(t *testing.T) {
	b := newBrowser(t)
	s := newSample(t)
	o := s.opts.withDefaults()
	p, err := build(context.Background(), s.g, &o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render(&buf, p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	took := b.open(t, path)
	t.Logf("opened %d bytes in %s", buf.Len(), took)

	// Every chart the report computed is drawn with all its points.
	want := map[string]int{}
	for _, c := range p.Data.Charts {
		want[c.ID] = c.points()
		if c.points() == 0 {
			t.Errorf("chart %s has no data points", c.ID)
		}
	}
	for _, id := range []string{"store-rejections", "store-rows", "store-keys", "tasks-targets", "tasks-trees", "tasks-pages",
		"tasks-hardness", "tasks-refusals", "runs-isr", "runs-ise", "runs-calls", "runs-valid", "runs-coverage", "runs-ends", "runs-pair"} {
		if _, ok := want[id]; !ok {
			t.Errorf("no chart %s", id)
		}
	}
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[map[string]int](`(() => {
		const out = {};
		document.querySelectorAll("canvas").forEach(c => {
			const ch = Chart.getChart(c);
			out[c.id] = ch ? ch.data.datasets.reduce((n, d) => n + d.data.length, 0) : -1;
		});
		return out;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	for id, n := range want {
		if got[id] != n {
			t.Errorf("chart %s draws %d points, want %d", id, got[id], n)
		}
	}
	trajs := 0
	for _, r := range s.opts.Runs {
		trajs += len(r.Trajectories)
	}
	if got["runs-coverage"] != trajs {
		t.Errorf("coverage scatter: %d points, want one per trajectory (%d)", got["runs-coverage"], trajs)
	}
	if got["runs-pair"] != len(s.tasks) {
		t.Errorf("naive against oracle per task: %d points, want one per task (%d)", got["runs-pair"], len(s.tasks))
	}
	if got["tasks-hardness"] != len(s.tasks) {
		t.Errorf("hardness scatter: %d points, want one per task (%d)", got["tasks-hardness"], len(s.tasks))
	}

	// A card: the union task (two trees) shows its targets' cells.
	ti := len(s.tasks) - 1
	tk := s.tasks[ti]
	wantHits := hits(t, s.g, tk)
	if wantHits == 0 {
		t.Fatalf("task %s: no target cells in its trees", tk.ID)
	}
	row := chromedp.CSS(fmt.Sprintf(`#task-list tr[data-i="%d"]`, ti))
	if err := chromedp.Do(b.ctx, chromedp.ScrollIntoView(row), chromedp.Click(row),
		chromedp.WaitVisible(chromedp.CSS("#card .src td.hit"))); err != nil {
		t.Fatal(err)
	}
	gotHits := evalInt(t, b, `document.querySelectorAll("#card .src td.hit").length`)
	srcTables := evalInt(t, b, `document.querySelectorAll("#card .src").length`)
	cardTask, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById("card").dataset.task`))
	if err != nil {
		t.Fatal(err)
	}
	if cardTask != tk.ID || gotHits != wantHits || srcTables != len(tk.Trees) {
		t.Errorf("card %q: %d highlighted cells in %d tables, want task %s with %d in %d", cardTask, gotHits, srcTables, tk.ID, wantHits, len(tk.Trees))
	}
	steps := evalInt(t, b, `document.querySelectorAll("#card .traj li").length`)
	wantSteps := 0
	for _, r := range s.opts.Runs {
		for _, tr := range r.Trajectories {
			if tr.TaskID == tk.ID {
				wantSteps += len(tr.Steps)
			}
		}
	}
	if steps != wantSteps {
		t.Errorf("card shows %d trajectory steps, want %d", steps, wantSteps)
	}

	// The filter narrows the list to the task searched for.
	visible := `Array.from(document.querySelectorAll("#task-list tbody tr")).filter(r => !r.hidden).map(r => r.cells[0].textContent)`
	before := evalStrings(t, b, visible)
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("filter"), tk.ID)); err != nil {
		t.Fatal(err)
	}
	after := evalStrings(t, b, visible)
	if len(before) != len(s.tasks) || len(after) != 1 || after[0] != tk.ID {
		t.Errorf("filter %q: %d rows before, %v after; want %d, then only it", tk.ID, len(before), after, len(s.tasks))
	}
	// The variant menu, as a user picks it (an input event).
	if err := chromedp.Do(b.ctx, discard(chromedp.Evaluate[bool](`(() => {
		document.getElementById("filter").value = "";
		const s = document.getElementById("variant");
		s.value = "union";
		return s.dispatchEvent(new Event("input"));
	})()`))); err != nil {
		t.Fatal(err)
	}
	after = evalStrings(t, b, visible)
	if len(after) != 1 || after[0] != tk.ID {
		t.Errorf("variant union: rows %v, want only %s", after, tk.ID)
	}

	// Screenshots of each section.
	dir := artifacts(t)
	for _, sec := range []string{"store", "tasks", "rollouts", "cards"} {
		png, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.ID(sec)))
		if err != nil {
			t.Fatalf("screenshot %s: %v", sec, err)
		}
		f := filepath.Join(dir, "report-"+sec+".png")
		if err := os.WriteFile(f, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s (%d KB)", f, len(png)/1024)
	}

	// The card's first trajectory, scrolled to.
	if err := chromedp.Do(b.ctx, chromedp.ScrollIntoView(chromedp.CSS("#card .traj"))); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS("#card .traj")))
	if err != nil {
		t.Fatalf("screenshot of the steps: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "report-steps.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}

	if b.seen() == 0 {
		t.Error("no request seen, not even the page's own: the network listener is broken")
	}
	if reqs := b.offPage(filepath.Base(path)); len(reqs) > 0 {
		t.Errorf("the page made %d network requests: %v", len(reqs), reqs)
	}
	if errs := b.errs(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestReportInChromiumPartial opens reports of less than everything: the
// store alone, and trajectories without their tasks.
func TestReportInChromiumPartial(t *testing.T) {
	b := newBrowser(t)
	s := newSample(t)
	for _, c := range []struct {
		name   string
		opts   *Options
		charts int
	}{
		{"store", nil, 6},
		{"runs", &Options{Runs: s.opts.Runs}, 12},
	} {
		var buf bytes.Buffer
		if err := Write(context.Background(), &buf, s.g, c.opts); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), c.name+".html")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		b.open(t, path)
		n := evalInt(t, b, `document.querySelectorAll("canvas").length`)
		drawn := evalInt(t, b, `Array.from(document.querySelectorAll("canvas")).filter(c => Chart.getChart(c)).length`)
		if n != c.charts || drawn != n {
			t.Errorf("%s: %d charts, %d drawn, want %d", c.name, n, drawn, c.charts)
		}
	}
	if errs := b.errs(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestReportFileScreenshots screenshots each section of the report at
// $LEAPER_REPORT_FILE into $LEAPER_REPORT_SHOTS (or the test's artifacts),
// with the card of $LEAPER_REPORT_TASK open: how docs/report-*.png are
// made.
func TestReportFileScreenshots(t *testing.T) {
	path := os.Getenv("LEAPER_REPORT_FILE")
	if path == "" {
		t.Skip("set LEAPER_REPORT_FILE to a report written by leaper report")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	t.Logf("opened in %s", b.open(t, abs))
	if id := os.Getenv("LEAPER_REPORT_TASK"); id != "" {
		js := fmt.Sprintf(`(() => { const i = leaperReport.data.tasks.findIndex(t => t.id === %q); leaperReport.open(i); return i; })()`, id)
		if i := evalInt(t, b, js); i < 0 {
			t.Fatalf("no task %s in %s", id, path)
		}
	}
	// Scaled down, so that the README's copies stay small; "card" is the
	// open card alone.
	dir := artifacts(t)
	for _, sec := range []string{"store", "tasks", "rollouts", "cards", "card"} {
		png, err := chromedp.Run(b.ctx, chromedp.ScreenshotScale(chromedp.ID(sec), 0.8))
		if err != nil {
			t.Fatalf("screenshot %s: %v", sec, err)
		}
		f := filepath.Join(dir, "report-"+sec+".png")
		if err := os.WriteFile(f, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s (%d KB)", f, len(png)/1024)
	}
	if errs := b.errs(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// BenchmarkOpenInChromium opens the report at $LEAPER_REPORT_FILE (say,
// 3,000 tasks and trajectories of the curated corpus) in headless Chromium
// until its task list is drawn, and reports the time.
func BenchmarkOpenInChromium(b *testing.B) {
	path := os.Getenv("LEAPER_REPORT_FILE")
	if path == "" {
		b.Skip("set LEAPER_REPORT_FILE to a report written by leaper report")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		b.Fatal(err)
	}
	br := newBrowser(b)
	var total time.Duration
	var card float64
	for b.Loop() {
		total += br.open(b, abs)
		// The first card parses the cards' data.
		ms, err := chromedp.Run(br.ctx, chromedp.Evaluate[float64](`(() => {
			const t0 = performance.now();
			leaperReport.open(0);
			return performance.now() - t0;
		})()`))
		if err != nil {
			b.Fatal(err)
		}
		card += ms
	}
	// Where an open goes: the page's own marks (app.js) against the
	// navigation's timing, for the last open.
	marks, err := chromedp.Run(br.ctx, chromedp.Evaluate[map[string]float64](`(() => {
		const n = performance.getEntriesByType("navigation")[0], out = {responseEnd: n.responseEnd, domInteractive: n.domInteractive, loadEventEnd: n.loadEventEnd};
		performance.getEntriesByType("mark").forEach(m => { out[m.name] = m.startTime; });
		return out;
	})()`))
	if err == nil {
		b.Logf("last open, ms from navigation: %v", marks)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/open")
	b.ReportMetric(card/float64(b.N), "ms/first-card")
	if errs := br.errs(); len(errs) > 0 {
		b.Errorf("console errors: %v", errs)
	}
}

// discard makes an action of any value one of no value.
func discard[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

func evalInt(t *testing.T, b *browser, js string) int {
	t.Helper()
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return n
}

func evalStrings(t *testing.T, b *browser, js string) []string {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}
