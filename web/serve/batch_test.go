package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/web"
)

// TestSearchR1Batch posts what Search-R1's trainer posts in one GRPO step,
// 512 prompts × 5 samples, in its own request shape (its fixture's body),
// and checks that every query is answered at its own place, as a call of
// its own would answer it.
func TestSearchR1Batch(t *testing.T) {
	f := newFixture(t, nil)
	fx := readFixture(t, "testdata/clients/search-r1.json")
	// Queries as a trainer's rollouts write them: the store's page
	// titles and headers, each asked five times (GRPO's samples).
	var prompts []string
	err := f.w.Store().Graph().EachTree(context.Background(), func(tr *graph.Tree) error {
		if len(prompts) < 512 {
			prompts = append(prompts, tr.PageTitle, tr.KeyHeader+" "+tr.PageTitle)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; len(prompts) < 512; i++ {
		prompts = append(prompts, fmt.Sprintf("%s %d", prompts[i], i))
	}
	prompts = prompts[:512]
	var qs []string
	for _, p := range prompts {
		for range 5 {
			qs = append(qs, p)
		}
	}
	var body map[string]any
	if err := json.Unmarshal(fx.Body, &body); err != nil {
		t.Fatal(err)
	}
	body["queries"] = qs
	b, _ := json.Marshal(body)
	resp, err := http.Post(f.ts.URL+fx.Path, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d queries: status %d: %.300s", len(qs), resp.StatusCode, data)
	}
	var v any
	json.Unmarshal(data, &v)
	for path, typ := range fx.Reads {
		if err := checkRead(v, path, typ); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	var got struct {
		Result [][]ScoredDocument `json:"result"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Result) != len(qs) {
		t.Fatalf("%d answers to %d queries", len(got.Result), len(qs))
	}
	// Each answer is the query's own: compare with single calls.
	for _, i := range []int{0, 4, 5, 1234, 2559} {
		one, _ := json.Marshal(map[string]any{"queries": []string{qs[i]}, "topk": 3, "return_scores": true})
		status, m, _ := f.post(t, "/retrieve", string(one))
		if status != http.StatusOK {
			t.Fatalf("single query %d: status %d", i, status)
		}
		want, _ := json.Marshal(m["result"].([]any)[0])
		var w []ScoredDocument
		json.Unmarshal(want, &w)
		if len(w) != len(got.Result[i]) {
			t.Fatalf("query %d %q: %d hits in the batch, %d alone", i, qs[i], len(got.Result[i]), len(w))
		}
		for j := range w {
			if w[j].Document.ID != got.Result[i][j].Document.ID {
				t.Errorf("query %d %q hit %d: %s in the batch, %s alone", i, qs[i], j, got.Result[i][j].Document.ID, w[j].Document.ID)
			}
		}
	}

	// One more than the limit is refused, naming the flag.
	body["queries"] = append(qs, "one more")
	b, _ = json.Marshal(body)
	status, m, _ := f.post(t, "/retrieve", string(b))
	if status != http.StatusBadRequest || !strings.Contains(fmt.Sprint(m["error"]), "--max-batch") {
		t.Errorf("2561 queries: status %d %v; want 400 naming --max-batch", status, m["error"])
	}
}

// TestBatchTimeout: a batch that cannot finish within BatchTimeout is
// answered 503 with the reason, not left to the connection's timeout.
func TestBatchTimeout(t *testing.T) {
	f := newFixture(t, &Options{BatchTimeout: 1})
	status, m, _ := f.post(t, "/retrieve", `{"queries": ["a", "b", "c"], "topk": 3}`)
	if status != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(m["error"]), "--batch-timeout") {
		t.Errorf("status %d %v; want 503 naming --batch-timeout", status, m["error"])
	}
}

// TestRetrieveCorpusIDs builds wiki-18 passages and a BrowseComp-Plus
// document (the corpus fixtures of ingest/table) and reads /retrieve as
// Search-R1 does (its fixture's request): each document's id is the
// corpus's, and contents is "\"Title\"\n" and the passage whole.
func TestRetrieveCorpusIDs(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join(graphtest.RepoRoot(), "ingest", "table", "testdata", "corpora")
	if _, err := ingest.Run(context.Background(), dir, []string{fx}, nil); err != nil {
		t.Fatal(err)
	}
	w, err := web.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ts := httptest.NewServer(NewServer(w, nil))
	defer ts.Close()
	body := `{"queries": ["110th United States Congress Democrats operational majority independent senators caucused", "Nobel laureates of Imperial College"], "topk": 3, "return_scores": true}`
	resp, err := http.Post(ts.URL+"/retrieve", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Result [][]ScoredDocument `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || len(got.Result) != 2 || len(got.Result[0]) == 0 || len(got.Result[1]) == 0 {
		t.Fatalf("status %d: %+v %v", resp.StatusCode, got, err)
	}
	d := got.Result[0][0].Document
	if d.ID != "1" || !strings.HasPrefix(d.Contents, "\"110th United States Congress\"\nDemocrats held fewer than 50 Senate seats") || strings.Contains(d.Contents, "...") {
		t.Errorf("wiki-18 hit: id %q contents %.100q", d.ID, d.Contents)
	}
	found := false
	for _, h := range got.Result[1] {
		found = found || h.Document.ID == "17" && h.Document.URL == "https://www.imperial.ac.uk/about/history/nobel-laureates/"
	}
	if !found {
		t.Errorf("BrowseComp-Plus document not found by its docid: %+v", got.Result[1])
	}
}
