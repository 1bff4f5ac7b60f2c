package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/web"
)

// TestStoreIDOnEveryAnswer checks that answers of every kind (tool, error,
// health, stats, 404) carry the store id, and that /stats names it.
func TestStoreIDOnEveryAnswer(t *testing.T) {
	f := newFixture(t, nil)
	id, err := f.w.Store().ID()
	if err != nil || !strings.HasPrefix(id, "v") {
		t.Fatalf("store id %q, %v", id, err)
	}
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/search", `{"query": "` + f.query + `"}`},
		{"POST", "/visit", `{"url": "` + f.url + `", "goal": "g"}`},
		{"POST", "/search", `{"nope": 1}`},
		{"GET", "/healthz", ``},
		{"GET", "/livez", ``},
		{"GET", "/readyz", ``},
		{"GET", "/stats", ``},
		{"GET", "/jina/" + f.url, ``},
		{"GET", "/no/such", ``},
	} {
		req, _ := http.NewRequest(c.method, f.ts.URL+c.path, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if got := resp.Header.Get(StoreHeader); got != id && c.path != "/no/such" {
			t.Errorf("%s %s: %s %q, want %q", c.method, c.path, StoreHeader, got, id)
		}
	}
	st, err := f.c.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Store != id || st.StoreDigest != f.w.Store().Graph().Manifest().Digest || st.StoreDir == "" {
		t.Errorf("stats store %q digest %q dir %q; want %q", st.Store, st.StoreDigest, st.StoreDir, id)
	}
}

// TestReadiness walks /readyz through warming, ready and stopping, while
// /livez says alive throughout.
func TestReadiness(t *testing.T) {
	f := newFixture(t, nil)
	get := func(path string) int {
		resp, err := http.Get(f.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := get("/readyz"); st != http.StatusServiceUnavailable {
		t.Errorf("/readyz before warm-up: %d, want 503", st)
	}
	if err := f.srv.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := get("/readyz"); st != http.StatusOK {
		t.Errorf("/readyz after warm-up: %d, want 200", st)
	}
	f.srv.stopping.Store(true)
	if st := get("/readyz"); st != http.StatusServiceUnavailable {
		t.Errorf("/readyz while stopping: %d, want 503", st)
	}
	if st := get("/livez"); st != http.StatusOK {
		t.Errorf("/livez: %d, want 200", st)
	}
}

// TestServeDrainsAndFinishesInFlight stops a server with requests in
// flight: /readyz turns 503 during Drain, the requests still get their
// answers, and Serve returns nil.
func TestServeDrainsAndFinishesInFlight(t *testing.T) {
	w, err := web.Open(filepath.Clean(sampleDir(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	srv := NewServer(w, &Options{Drain: 300 * time.Millisecond})
	release := make(chan struct{})
	srv.beforeTool = func(string) { <-release }
	ln := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	waitReady(t, base)
	got := make(chan int, 4)
	for range 4 {
		go func() {
			resp, err := http.Post(base+"/search", "application/json", strings.NewReader(`{"query": "award"}`))
			if err != nil {
				got <- -1
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			got <- resp.StatusCode
		}()
	}
	for srv.flight.Load() < 4 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	time.Sleep(50 * time.Millisecond)
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz while draining: %d, want 503", resp.StatusCode)
	}
	close(release)
	for range 4 {
		if st := <-got; st != http.StatusOK {
			t.Errorf("in-flight request: status %d, want 200", st)
		}
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestSwitchUnderLoad switches stores while clients search and visit:
// no request fails, every answer names one of the two stores, answers
// after the switch name the new one, and the old store is closed.
func TestSwitchUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a second store")
	}
	other := t.TempDir()
	if _, err := ingest.Run(context.Background(), other, []string{filepath.Join(graphtest.Corpus(), "wtq")}, nil); err != nil {
		t.Fatal(err)
	}
	w, err := web.Open(sampleDir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	oldID, _ := w.Store().ID()
	srv := NewServer(w, &Options{Cache: 100, Open: func(dir string) (*web.Web, error) { return web.Open(dir, nil) }})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	var mu sync.Mutex
	seen := map[string]int{}
	var failed, total atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf(`{"query": "season %d"}`, (i*7+n)%40)
				path := "/search"
				if n%3 == 2 {
					path, body = "/visit", `{"url": "https://en.wikipedia.org/wiki/United_States", "goal": "g"}`
				}
				resp, err := http.Post(ts.URL+path, "application/json", strings.NewReader(body))
				total.Add(1)
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failed.Add(1)
				}
				mu.Lock()
				seen[resp.Header.Get(StoreHeader)]++
				mu.Unlock()
			}
		}()
	}
	time.Sleep(200 * time.Millisecond)
	req, _ := http.NewRequest("POST", ts.URL+"/admin/store", strings.NewReader(`{"dir": "`+other+`"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var res SwitchResult
	json.NewDecoder(resp.Body).Decode(&res)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /admin/store: %d", resp.StatusCode)
	}
	time.Sleep(200 * time.Millisecond)
	close(stop)
	wg.Wait()
	if res.From != oldID || res.To == oldID || res.To == "" {
		t.Fatalf("switch %+v; old id %s", res, oldID)
	}
	if failed.Load() != 0 {
		t.Errorf("%d of %d requests failed during the switch", failed.Load(), total.Load())
	}
	if len(seen) != 2 || seen[oldID] == 0 || seen[res.To] == 0 {
		t.Errorf("answers by store: %v, want both %s and %s", seen, oldID, res.To)
	}
	if srv.StoreID() != res.To {
		t.Errorf("StoreID after switch %s, want %s", srv.StoreID(), res.To)
	}
	if err := w.Store().Close(); err == nil {
		t.Error("the old store is still open after the switch")
	}
	// A store that does not open leaves the current one serving.
	req, _ = http.NewRequest("POST", ts.URL+"/admin/store", strings.NewReader(`{"dir": "`+t.TempDir()+`"}`))
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict || srv.StoreID() != res.To {
		t.Errorf("switch to an empty dir: %d, serving %s", resp.StatusCode, srv.StoreID())
	}
}

// TestSwitchNeedsTokenAndOpen: the admin call is behind the bearer token,
// and a server without Options.Open says it cannot switch.
func TestSwitchNeedsTokenAndOpen(t *testing.T) {
	f := newFixture(t, &Options{Token: "s3cret"})
	st, _, _ := f.post(t, "/admin/store", `{"dir": "x"}`)
	if st != http.StatusUnauthorized {
		t.Errorf("admin without token: %d, want 401", st)
	}
	st, m, _ := f.post(t, "/admin/store", `{"dir": "x"}`, "Authorization", "Bearer s3cret")
	if st != http.StatusNotImplemented {
		t.Errorf("admin without Options.Open: %d %v, want 501", st, m)
	}
}

func sampleDir(t *testing.T) string { return storetest.SampleStore(t) }

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// waitReady polls /readyz until it says 200.
func waitReady(t *testing.T, base string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
	}
	t.Fatalf("%s never became ready", base)
}

// countConn counts its writes and their sizes.
type countConn struct {
	net.Conn
	mu     *sync.Mutex
	writes *[]int
}

func (c countConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	*c.writes = append(*c.writes, len(p))
	c.mu.Unlock()
	return c.Conn.Write(p)
}

type countListener struct {
	net.Listener
	mu     sync.Mutex
	writes []int
}

func (l *countListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countConn{Conn: c, mu: &l.mu, writes: &l.writes}, nil
}

// TestAnswerInOneWrite checks that Serve sends an answer over net/http's
// 4 KB buffer in one write, so a replica killed mid-answer leaves its
// balancer nothing rather than a cut answer.
func TestAnswerInOneWrite(t *testing.T) {
	w, err := web.Open(sampleDir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	srv := NewServer(w, nil)
	ln := &countListener{Listener: listen(t)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()
	waitReady(t, base)
	f := newFixture(t, nil)
	resp, err := http.Post(base+"/visit", "application/json", strings.NewReader(`{"url": "`+f.url+`", "goal": "all"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(body) <= 4096 {
		t.Skipf("answer of %d bytes: not over the buffer", len(body))
	}
	ln.mu.Lock()
	defer ln.mu.Unlock()
	var big []int
	for _, n := range ln.writes {
		if n > len(body) {
			big = append(big, n)
		}
	}
	if len(big) != 1 {
		t.Errorf("an answer of %d bytes went out in writes of %v; want one write holding it all", len(body), ln.writes)
	}
}
