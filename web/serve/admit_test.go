package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph"
)

// waitFor polls cond until it holds; the test fails if it never does
// (a deadlock, not a slow machine: the bound is generous).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("never: %s", what)
		}
	}
}

// TestGateBoundsAndCancels: the gate runs at most n at once, and a
// waiter whose context ends gives up without taking a slot.
func TestGateBoundsAndCancels(t *testing.T) {
	g := newGate(2)
	hold := make(chan struct{})
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			g.do(context.Background(), func() error { <-hold; return nil })
		})
	}
	waitFor(t, "two evaluations in the gate, four waiting", func() bool { return g.running.Load() == 2 && g.waiting() == 4 })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := g.do(ctx, func() error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("canceled waiter: err %v, ran %v; want context.Canceled, not run", err, ran)
	}
	if w := g.waiting(); w != 4 {
		t.Errorf("%d waiting after the canceled one left; want 4", w)
	}
	close(hold)
	wg.Wait()
	if p, r := g.peak.Load(), g.running.Load(); p != 2 || r != 0 {
		t.Errorf("peak %d, running %d after; want 2 and 0", p, r)
	}
	// Every slot was given back.
	if err := g.do(context.Background(), func() error { return nil }); err != nil {
		t.Error(err)
	}
}

// TestRetrieveAdmission: with Evaluations 2, a /retrieve batch and single
// calls sent at once all complete with their own answers, at most two
// queries are ever evaluated at once, and a single call sent while a
// long batch is being answered is admitted as soon as a slot comes
// free, between the batch's queries, not after them.
func TestRetrieveAdmission(t *testing.T) {
	f := newFixture(t, &Options{Evaluations: 2, Workers: 8})
	g := f.srv.eval
	var titles []string
	err := f.w.Store().Graph().EachTree(context.Background(), func(tr *graph.Tree) error {
		if len(titles) < 40 {
			titles = append(titles, tr.PageTitle)
		}
		return nil
	})
	if err != nil || len(titles) < 20 {
		t.Fatalf("%d titles: %v", len(titles), err)
	}
	// The single call's query differs from the batch's by a space: the
	// same terms, told apart here.
	singleQ := titles[3] + " "
	step := make(chan struct{})
	var unblock sync.Once
	release := func() { unblock.Do(func() { close(step) }) }
	// On failure too, before the fixture's server closes.
	t.Cleanup(release)
	var mu sync.Mutex
	var order []string
	f.srv.beforeEval = func(q string) {
		mu.Lock()
		order = append(order, q)
		mu.Unlock()
		if q != singleQ {
			<-step
		}
	}

	post := func(qs []string) (int, [][]ScoredDocument, error) {
		b, _ := json.Marshal(map[string]any{"queries": qs, "topk": 3, "return_scores": true})
		resp, err := http.Post(f.ts.URL+"/retrieve", "application/json", strings.NewReader(string(b)))
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var got struct {
			Result [][]ScoredDocument `json:"result"`
		}
		if resp.StatusCode == http.StatusOK {
			err = json.Unmarshal(data, &got)
		}
		return resp.StatusCode, got.Result, err
	}
	type answer struct {
		status int
		res    [][]ScoredDocument
		err    error
	}
	call := func(qs []string) chan answer {
		c := make(chan answer, 1)
		go func() {
			s, r, err := post(qs)
			c <- answer{s, r, err}
		}()
		return c
	}

	batch := call(titles)
	waitFor(t, "the batch's two queries in the gate", func() bool { return g.running.Load() == 2 })
	single := call([]string{singleQ})
	waitFor(t, "the single call waiting at the gate", func() bool { return g.waiting() == 1 })
	var one answer
	for done := false; !done; {
		select {
		case step <- struct{}{}:
		case one = <-single:
			done = true
		}
	}
	mu.Lock()
	at := slices.Index(order, singleQ)
	mu.Unlock()
	// Two batch queries were in the gate when it came; the first slot
	// to come free was its.
	if at != 2 {
		t.Errorf("the single call was admitted %dth, after %d of the batch's queries; want third", at+1, at)
	}
	// More single calls and a second batch at once, then let all through.
	var more []chan answer
	for i := range 8 {
		more = append(more, call([]string{titles[i]}))
	}
	more = append(more, call(titles[5:15]))
	release()
	b := <-batch
	if b.err != nil || b.status != http.StatusOK || len(b.res) != len(titles) {
		t.Fatalf("batch: status %d, %d answers, %v", b.status, len(b.res), b.err)
	}
	if one.err != nil || one.status != http.StatusOK || len(one.res) != 1 {
		t.Fatalf("single: status %d, %v", one.status, one.err)
	}
	same := func(what string, got, want []ScoredDocument) {
		if fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
			t.Errorf("%s: %v, want %v as in the batch", what, ids(got), ids(want))
		}
	}
	same("single call during the batch", one.res[0], b.res[3])
	for i, c := range more {
		a := <-c
		if a.err != nil || a.status != http.StatusOK {
			t.Fatalf("call %d: status %d, %v", i, a.status, a.err)
		}
		if i < 8 {
			same(fmt.Sprintf("single call %d", i), a.res[0], b.res[i])
		} else {
			for j, r := range a.res {
				same(fmt.Sprintf("second batch, query %d", j), r, b.res[5+j])
			}
		}
	}
	if p, r := g.peak.Load(), g.running.Load(); p != 2 || r != 0 {
		t.Errorf("peak %d evaluations at once, %d running after; want 2 and 0", p, r)
	}
}

func ids(ds []ScoredDocument) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Document.ID
	}
	return out
}
