package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/agent/eval/rewardhttp"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/webtest"
)

// fixture is a server over the sample store with a query, a page URL and a
// goal known to hit.
type fixture struct {
	w     *web.Web
	srv   *Server
	ts    *httptest.Server
	c     *Client
	query string
	url   string
	goal  string
}

// newFixture serves the sample store with /reward and /get_reward mounted
// over tasks, as leaper serve mounts them.
func newFixture(t *testing.T, opts *Options, tasks ...*task.Task) *fixture {
	t.Helper()
	w := webtest.OpenWeb(t)
	f := &fixture{w: w, srv: NewServer(w, opts)}
	re := rewardhttp.NewEndpoints(&rewardhttp.Options{Tasks: tasks})
	f.srv.MountEndpoint("/reward", re.MaxBody(), re.Reward)
	f.srv.MountEndpoint("/get_reward", re.MaxBody(), re.GetReward)
	f.ts = httptest.NewServer(f.srv)
	t.Cleanup(f.ts.Close)
	tok := ""
	if opts != nil {
		tok = opts.Token
	}
	f.c = NewClient(f.ts.URL, tok)
	err := w.Store().Graph().EachTree(context.Background(), func(tr *graph.Tree) error {
		if f.url == "" {
			f.url, f.query = tr.PageURL, tr.PageTitle
			f.goal = tr.KeyHeader + " and " + tr.Columns[0].Header
		}
		return nil
	})
	if err != nil || f.url == "" {
		t.Fatalf("no tree in the sample store: %v", err)
	}
	return f
}

// post sends a raw body and returns the status and decoded JSON object.
func (f *fixture) post(t *testing.T, path, body string, hdr ...string) (int, map[string]any, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.ts.URL+path, strings.NewReader(body))
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s %s: status %d, body not JSON: %q", path, body, resp.StatusCode, data)
	}
	return resp.StatusCode, m, resp.Header
}

// sampleTask is a small basic task over the sample store's first tree: its
// first three subtree roots.
func sampleTask(t *testing.T) *task.Task {
	t.Helper()
	g := storetest.OpenGraph(t)
	var tr *graph.Tree
	g.EachTree(context.Background(), func(x *graph.Tree) error {
		if tr == nil && len(x.Rows) >= 3 {
			tr = x
		}
		return nil
	})
	tk := &task.Task{ID: "t1", Variant: "basic", Question: "Which?", Answer: task.Answer{Columns: []string{tr.KeyHeader}}, Trees: []uint32{tr.ID}}
	for _, r := range tr.Rows[:3] {
		es, err := g.Entities([]uint32{r.Key})
		if err != nil {
			t.Fatal(err)
		}
		tk.Targets = append(tk.Targets, task.Target{Entity: r.Key, Name: es[0].Name, Layer: 2, Tree: tr.ID})
		tk.Answer.Rows = append(tk.Answer.Rows, []string{es[0].Name})
	}
	return tk
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestServeSearchMatchesWeb(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	year := 2000
	cases := []struct {
		name string
		args string
		qs   []string
		year int
	}{
		{"string", mustJSON(map[string]any{"query": f.query}), []string{f.query}, 0},
		{"list", mustJSON(map[string]any{"query": []string{f.query, "zzqx unmatched"}}), []string{f.query, "zzqx unmatched"}, 0},
		{"filter_year", mustJSON(map[string]any{"query": f.query, "filter_year": year}), []string{f.query}, year},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := f.w.Search(ctx, tc.qs, tc.year)
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.c.Call(ctx, "search", json.RawMessage(tc.args))
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != want.Text || fmt.Sprint(got.Entities) != fmt.Sprint(want.Entities) {
				t.Errorf("search %s:\n got %q %v\nwant %q %v", tc.args, got.Text, got.Entities, want.Text, want.Entities)
			}
			got2, err := f.c.Search(ctx, tc.qs, tc.year)
			if err != nil {
				t.Fatal(err)
			}
			if got2.Text != want.Text {
				t.Errorf("Client.Search differs from web.Search")
			}
		})
	}
}

func TestServeVisitMatchesWeb(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	missing := "https://en.wikipedia.org/wiki/No_such_page_in_the_sample_zzqx"
	for _, urls := range [][]string{{f.url}, {f.url, missing}, {missing}, {"http://example.com/x"}} {
		want, err := f.w.Visit(ctx, urls, f.goal)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.c.Visit(ctx, urls, f.goal)
		if err != nil {
			t.Fatalf("visit %v: %v", urls, err)
		}
		if got.Text != want.Text || fmt.Sprint(got.Entities) != fmt.Sprint(want.Entities) {
			t.Errorf("visit %v:\n got %q\nwant %q", urls, got.Text, want.Text)
		}
		if len(urls) == 1 {
			got, err := f.c.Call(ctx, "visit", json.RawMessage(mustJSON(map[string]any{"url": urls[0], "goal": f.goal})))
			if err != nil || got.Text != want.Text {
				t.Errorf("Call visit %v: %v", urls, err)
			}
		}
	}
	// A page the store does not hold is a 200 with the tool's text.
	code, m, _ := f.post(t, "/visit", mustJSON(map[string]any{"url": missing, "goal": "x"}))
	if code != 200 || !strings.Contains(m["result"].(string), web.MsgNoAccessEvid) {
		t.Errorf("missing page: %d %v", code, m)
	}
	if e, ok := m["entities"].([]any); !ok || len(e) != 0 {
		t.Errorf("entities of a missing page = %v, want []", m["entities"])
	}
}

func TestServeRetrieveAndAccess(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	docs, err := f.c.Retrieve(ctx, []string{f.query, "zzqx unmatched"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || len(docs[0]) == 0 || len(docs[0]) > 2 || len(docs[1]) != 0 {
		t.Fatalf("retrieve: %+v", docs)
	}
	hits, _ := f.w.Store().Index().Search(ctx, f.query, indexOpts(2))
	d := docs[0][0]
	if d.Document.ID != hits[0].URL || d.Document.Contents != `"`+hits[0].Title+"\"\n"+hits[0].Snippet || d.Score != hits[0].Score {
		t.Errorf("retrieve doc %+v, hit %+v", d, hits[0])
	}
	// Without scores: plain documents, Search-R1's other shape; default topk 3.
	code, m, _ := f.post(t, "/retrieve", mustJSON(map[string]any{"queries": []string{f.query}}))
	res := m["result"].([]any)[0].([]any)
	if code != 200 || len(res) == 0 || len(res) > 3 || res[0].(map[string]any)["contents"] == nil {
		t.Errorf("retrieve without scores: %d %v", code, m)
	}

	missing := "https://en.wikipedia.org/wiki/No_such_page_in_the_sample_zzqx"
	pages, err := f.c.Access(ctx, []string{f.url, missing})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.w.Store().Graph().Page(f.url)
	if len(pages) != 2 || pages[0] == nil || pages[0].URL != f.url || pages[0].Contents != graph.PageText(p) || pages[1] != nil {
		t.Errorf("access: %+v", pages)
	}
}

func TestServeBadInput(t *testing.T) {
	f := newFixture(t, &Options{MaxBody: 4096, MaxQueries: 3, MaxURLs: 2})
	long := strings.Repeat("a", 5000)
	cases := []struct {
		path, body string
		code       int
		obs        bool // the tool's own answer is attached
	}{
		{"/search", `{"query": `, 400, true},
		{"/search", `not json`, 400, true},
		{"/search", ``, 400, true},
		{"/search", `[1,2]`, 400, true},
		{"/search", `{}`, 400, true},
		{"/search", `{"query": null}`, 400, true},
		{"/search", `{"query": 7}`, 400, true},
		{"/search", `{"query": [1]}`, 400, true},
		{"/search", `{"query": []}`, 400, true},
		{"/search", `{"query": ""}`, 400, true},
		{"/search", `{"query": ["a", "  "]}`, 400, true},
		{"/search", `{"query": "a", "filter_year": "1999"}`, 400, true},
		{"/search", `{"query": "a", "filter_year": 19.5}`, 400, true},
		{"/search", `{"query": ["a","b","c","d"]}`, 400, false},
		{"/search", `{"query": "` + long[:4097] + `"}`, 413, false},
		{"/search", `{"query": "` + long + `"}`, 413, false},
		{"/visit", `{"url": "https://en.wikipedia.org/wiki/X"}`, 400, true},
		{"/visit", `{"goal": "g"}`, 400, true},
		{"/visit", `{"url": 3, "goal": "g"}`, 400, true},
		{"/visit", `{"url": "https://en.wikipedia.org/wiki/X", "goal": 3}`, 400, true},
		{"/visit", `{"url": "file:///etc/passwd", "goal": "g"}`, 400, true},
		{"/visit", `{"url": "../../etc/passwd", "goal": "g"}`, 400, true},
		{"/visit", `{"url": "/etc/passwd", "goal": "g"}`, 400, true},
		{"/visit", `{"url": "https://en.wikipedia.org/wiki/../../etc/passwd", "goal": "g"}`, 400, true},
		{"/visit", `{"url": "https://en.wikipedia.org/wiki/%2e%2e/x", "goal": "g"}`, 400, true},
		{"/visit", `{"url": "ftp://en.wikipedia.org/wiki/X", "goal": "g"}`, 400, true},
		{"/visit", `{"url": "javascript:alert(1)", "goal": "g"}`, 400, true},
		{"/visit", `{"url": ["https://a.org/1","https://a.org/2","https://a.org/3"], "goal": "g"}`, 400, false},
		{"/retrieve", `{"queries": "x", "topk": -1}`, 400, false},
		{"/retrieve", `{"queries": ["x"], "topk": 100000}`, 400, false},
		{"/retrieve", `{"queries": [""]}`, 400, false},
		{"/retrieve", `{"topk": 3}`, 400, false},
		{"/retrieve", `{"queries": ["x"], "return_scores": "yes"}`, 400, false},
		{"/access", `{"urls": ["file:///etc/passwd"]}`, 400, false},
		{"/access", `{"urls": []}`, 400, false},
		{"/access", `{"urls": {"a": 1}}`, 400, false},
		{"/nope", `{}`, 404, false},
	}
	for _, tc := range cases {
		code, m, _ := f.post(t, tc.path, tc.body)
		msg, _ := m["error"].(string)
		if code != tc.code || msg == "" {
			t.Errorf("%s %.60s: status %d error %q, want %d and a message", tc.path, tc.body, code, msg, tc.code)
		}
		if _, has := m["observation"]; has != tc.obs {
			t.Errorf("%s %.60s: observation attached = %v, want %v", tc.path, tc.body, has, tc.obs)
		}
		// A Client standing in for the tool answers as web.Web.Call does.
		if tc.obs {
			tool := strings.TrimPrefix(tc.path, "/")
			want, _ := f.w.Call(context.Background(), tool, json.RawMessage(tc.body))
			got, err := f.c.Call(context.Background(), tool, json.RawMessage(tc.body))
			if err != nil || got.Text != want.Text {
				t.Errorf("Call %s %.60s = %v, %v; want %q", tool, tc.body, got, err, want.Text)
			}
		}
	}
	// Wrong method.
	resp, err := http.Get(f.ts.URL + "/search")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Errorf("GET /search: %d", resp.StatusCode)
	}
	st := settled(f.srv)
	if st.Endpoints["search"].ServerErrors != 0 || st.Endpoints["visit"].ServerErrors != 0 || st.Endpoints["search"].ClientErrors == 0 {
		t.Errorf("stats after bad input: %+v", st.Endpoints)
	}
	// Oversize body as a client error.
	var se *Error
	_, err = f.c.Search(context.Background(), []string{long}, 0)
	if !errors.As(err, &se) || se.Status != 413 {
		t.Errorf("oversize via client: %v", err)
	}
}

func TestServeToken(t *testing.T) {
	f := newFixture(t, &Options{Token: "s3cret"})
	body := mustJSON(map[string]any{"query": f.query})
	for _, h := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "s3cret"}, {"Authorization", "Bearer s3cre"}} {
		if code, m, hdr := f.post(t, "/search", body, h...); code != 401 || m["error"] == nil || hdr.Get("WWW-Authenticate") == "" {
			t.Errorf("auth %v: %d %v", h, code, m)
		}
	}
	if code, _, _ := f.post(t, "/search", body, "Authorization", "Bearer s3cret"); code != 200 {
		t.Errorf("right token: %d", code)
	}
	if _, err := f.c.Search(context.Background(), []string{f.query}, 0); err != nil {
		t.Errorf("client with token: %v", err)
	}
	if _, err := NewClient(f.ts.URL, "").Stats(context.Background()); err == nil {
		t.Errorf("stats without token succeeded")
	}
	if err := NewClient(f.ts.URL, "").Health(context.Background()); err != nil {
		t.Errorf("healthz needs no token: %v", err)
	}
}

func TestServeCacheAndStats(t *testing.T) {
	f := newFixture(t, &Options{Cache: 4})
	body := mustJSON(map[string]any{"query": f.query})
	_, m1, h1 := f.post(t, "/search", body)
	_, m2, h2 := f.post(t, "/search", body)
	if h1.Get("X-Cache") != "" || h2.Get("X-Cache") != "hit" || fmt.Sprint(m1) != fmt.Sprint(m2) {
		t.Errorf("cache: %q %q", h1.Get("X-Cache"), h2.Get("X-Cache"))
	}
	// The same arguments as a one-element list share the entry.
	if _, _, h := f.post(t, "/search", mustJSON(map[string]any{"query": []string{f.query}})); h.Get("X-Cache") != "hit" {
		t.Errorf("list form missed the cache")
	}
	// Another filter year is another entry.
	if _, _, h := f.post(t, "/search", mustJSON(map[string]any{"query": f.query, "filter_year": 1990})); h.Get("X-Cache") != "" {
		t.Errorf("filter_year hit the cache")
	}
	settled(f.srv) // the last answer may be read before it is counted
	st, err := f.c.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := st.Endpoints["search"]
	if s.Requests != 4 || s.CacheHits != 2 || s.ClientErrors != 0 || s.P99ms <= 0 || st.CacheEntries != 2 {
		t.Errorf("stats: %+v %+v", st, s)
	}
}

func TestServePanicRecovered(t *testing.T) {
	f := newFixture(t, nil)
	f.srv.beforeTool = func(string) { panic("boom") }
	code, m, _ := f.post(t, "/search", mustJSON(map[string]any{"query": f.query}))
	if code != 500 || m["error"] == nil {
		t.Errorf("panic: %d %v", code, m)
	}
	f.srv.beforeTool = nil
	if code, _, _ := f.post(t, "/search", mustJSON(map[string]any{"query": f.query})); code != 200 {
		t.Errorf("after panic: %d", code)
	}
	if st := settled(f.srv); st.Endpoints["search"].ServerErrors != 1 || len(f.srv.sem) != 0 {
		t.Errorf("after panic: %+v, %d slots held", st.Endpoints["search"], len(f.srv.sem))
	}
}

func TestServeGracefulShutdown(t *testing.T) {
	w := webtest.OpenWeb(t)
	s := NewServer(w, &Options{ShutdownGrace: 10 * time.Second})
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	s.beforeTool = func(string) {
		once.Do(func() { close(entered) })
		<-release
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	c := NewClient("http://"+ln.Addr().String(), "")
	type result struct {
		obs *web.Observation
		err error
	}
	res := make(chan result, 1)
	go func() {
		o, err := c.Search(context.Background(), []string{"Booker Prize"}, 0)
		res <- result{o, err}
	}()
	<-entered
	cancel() // SIGINT in the CLI
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Serve returned with a request in flight: %v", err)
	default:
	}
	// No new connections are accepted while draining.
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Errorf("a new connection was accepted during shutdown")
	}
	close(release)
	r := <-res
	if r.err != nil || r.obs == nil || r.obs.Text == "" {
		t.Errorf("in-flight request: %v", r.err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestServeConcurrentClients(t *testing.T) {
	f := newFixture(t, &Options{Workers: 3, Cache: 8})
	ctx := context.Background()
	var urls []string
	var queries []string
	f.w.Store().Graph().EachTree(ctx, func(tr *graph.Tree) error {
		if len(urls) < 6 {
			urls = append(urls, tr.PageURL)
			queries = append(queries, tr.PageTitle+" "+tr.KeyHeader)
		}
		return nil
	})
	want := map[string]string{}
	for i := range urls {
		o, _ := f.w.Search(ctx, []string{queries[i]}, 0)
		want["s"+queries[i]] = o.Text
		o, _ = f.w.Visit(ctx, []string{urls[i]}, f.goal)
		want["v"+urls[i]] = o.Text
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := NewClient(f.ts.URL, "")
			for i := range 12 {
				k := (g + i) % len(urls)
				var o *web.Observation
				var err error
				key := ""
				if i%3 == 2 {
					o, err = c.Visit(ctx, []string{urls[k]}, f.goal)
					key = "v" + urls[k]
				} else {
					o, err = c.Call(ctx, "search", json.RawMessage(mustJSON(map[string]any{"query": queries[k]})))
					key = "s" + queries[k]
				}
				if err != nil {
					errs <- err
					return
				}
				if o.Text != want[key] {
					errs <- fmt.Errorf("%s: answer differs", key)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := settled(f.srv)
	if n := st.Endpoints["search"].Requests + st.Endpoints["visit"].Requests; n != 16*12 {
		t.Errorf("requests counted %d, want %d", n, 16*12)
	}
	if st.InFlight != 0 || st.Queued != 0 {
		t.Errorf("after load: %+v", st)
	}
}

func TestServeUnknownTool(t *testing.T) {
	if _, err := NewClient("http://127.0.0.1:1", "").Call(context.Background(), "fetch", nil); err == nil {
		t.Error("unknown tool accepted")
	}
}

func TestServeLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:8080": true, "[::1]:80": true, "127.3.4.5:1": true,
		":8080": false, "0.0.0.0:8080": false, "[::]:80": false, "10.0.0.1:80": false, "example.com:80": false,
	} {
		if IsLoopback(addr) != want {
			t.Errorf("IsLoopback(%q) = %v", addr, !want)
		}
		if err := CheckAddr(addr, ""); (err == nil) != want {
			t.Errorf("CheckAddr(%q, no token) = %v", addr, err)
		}
		if err := CheckAddr(addr, "t"); err != nil {
			t.Errorf("CheckAddr(%q, token) = %v", addr, err)
		}
	}
	// Not an address, token or not.
	for _, addr := range []string{"bad", "127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:nope"} {
		if err := CheckAddr(addr, "t"); err == nil || !strings.Contains(err.Error(), "want HOST:PORT") {
			t.Errorf("CheckAddr(%q, token) = %v", addr, err)
		}
	}
}

func TestServeHistogram(t *testing.T) {
	var h LatencyRecorder
	for i := 1; i <= 1000; i++ {
		h.Record(time.Duration(i) * time.Millisecond)
	}
	q := h.Quantiles(0.5, 0.9, 0.99)
	for i, want := range []time.Duration{500 * time.Millisecond, 900 * time.Millisecond, 990 * time.Millisecond} {
		if d := q[i] - want; d < -want/16 || d > want/16 {
			t.Errorf("q%d = %v, want about %v", i, q[i], want)
		}
	}
	if h.Count() != 1000 {
		t.Errorf("count %d", h.Count())
	}
	var e LatencyRecorder
	if q := e.Quantiles(0.5); q[0] != 0 {
		t.Errorf("empty: %v", q)
	}
	for us := uint64(0); us < 1<<20; us = us*5/4 + 1 {
		i := histIndex(us)
		if v := histValue(i); v < float64(us)*0.93 || v > float64(us)*1.07+1 {
			t.Errorf("bucket of %d µs: %d → %v", us, i, v)
		}
	}
}

func TestServeLRU(t *testing.T) {
	c := newCache(3)
	for i := range 4 {
		c.put(fmt.Sprint(i), []byte{byte(i)})
		if i == 2 {
			c.get("0") // 1 is now the least recently used
		}
	}
	if _, ok := c.get("1"); ok {
		t.Error("LRU kept 1")
	}
	for _, k := range []string{"0", "2", "3"} {
		if _, ok := c.get(k); !ok {
			t.Errorf("LRU lost %s", k)
		}
	}
	if c.len() != 3 {
		t.Errorf("len %d", c.len())
	}
	big := newCache(1000)
	for i := range 5000 {
		big.put(fmt.Sprint(i), nil)
	}
	if n := big.len(); n > 1000 || n < 900 {
		t.Errorf("bounded cache holds %d", n)
	}
	var nilc *cache
	nilc.put("a", nil)
	if _, ok := nilc.get("a"); ok || nilc.len() != 0 {
		t.Error("nil cache stores")
	}
}

// TestServeAnswersWhole checks that answers go out with their length, not
// chunked, for the native endpoints and for a mounted handler's JSON, while a
// mounted handler's event stream still streams.
func TestServeAnswersWhole(t *testing.T) {
	f := newFixture(t, nil)
	big := strings.Repeat("x", 3000)
	f.srv.Mount("/json", http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/json")
		done := make(chan struct{})
		go func() { // the MCP SDK writes from a goroutine of its own
			defer close(done)
			io.WriteString(rw, `{"a":"`+big)
			io.WriteString(rw, `"}`)
		}()
		<-done
	}))
	first := make(chan struct{})
	f.srv.Mount("/events", http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(rw, "data: one\n\n")
		http.NewResponseController(rw).Flush()
		select { // the second event only once the client read the first
		case <-first:
		case <-time.After(10 * time.Second):
		}
		io.WriteString(rw, "data: two\n\n")
	}))
	whole := func(method, path, body string) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, f.ts.URL+path, strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.ContentLength != int64(len(data)) || len(resp.TransferEncoding) != 0 {
			t.Errorf("%s %s: %d bytes sent with length %d, transfer encoding %v", method, path, len(data), resp.ContentLength, resp.TransferEncoding)
		}
		return data
	}
	urls := []string{}
	for range 4 {
		urls = append(urls, f.url)
	}
	if b := whole(http.MethodPost, "/visit", mustJSON(map[string]any{"url": urls, "goal": f.goal})); len(b) <= 2048 {
		t.Fatalf("/visit answered %d bytes; the test needs more than 2 KB", len(b))
	}
	whole(http.MethodPost, "/visit", "{")
	if b := whole(http.MethodGet, "/json", ""); string(b) != `{"a":"`+big+`"}` {
		t.Errorf("/json: %.40q...", b)
	}

	resp, err := http.Get(f.ts.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, len("data: one\n\n"))
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "data: one\n\n" {
		t.Fatalf("first event: %q, %v", buf, err)
	}
	close(first)
	rest, _ := io.ReadAll(resp.Body)
	if string(rest) != "data: two\n\n" {
		t.Errorf("second event: %q", rest)
	}
}

// settled returns the server's stats once no request is in flight: an
// answer sent with its length reaches the client before its handler has
// returned and counted it.
func settled(s *Server) *Stats {
	st := s.Stats()
	for deadline := time.Now().Add(10 * time.Second); st.InFlight > 0 && time.Now().Before(deadline); st = s.Stats() {
		time.Sleep(time.Millisecond)
	}
	return st
}
