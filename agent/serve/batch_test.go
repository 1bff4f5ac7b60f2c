package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
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
