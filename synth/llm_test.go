package synth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/task"

	"github.com/leaper-dev/leaper/synth"
)

// chatServer is a local OpenAI-compatible endpoint: reply maps the user
// message (the template question) to the assistant's answer; status 0
// means 200.
func chatServer(t *testing.T, status int, reply func(q string) string) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		if status != 0 {
			w.WriteHeader(status)
			w.Write([]byte(`{"error":{"message":"boom","type":"server_error"}}`))
			return
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role, Content string
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		out := reply(req.Messages[1].Content)
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{
			"id": "x", "object": "chat.completion", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]string{"role": "assistant", "content": out}}},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestParaphrase(t *testing.T) {
	g := storetest.OpenGraph(t)
	base := synth.Options{Variant: "reverse-union", Cut: true, N: 6, Seed: 2}
	plain, _ := run(t, g, base)
	if len(plain) == 0 {
		t.Fatal("no tasks")
	}
	leakOf := map[string]string{} // template question → an answer entity
	for _, tk := range plain {
		leakOf[tk.Question] = tk.Targets[0].Name
	}
	cases := []struct {
		name    string
		status  int
		reply   func(string) string
		outcome string
		changed bool
	}{
		{"good", 0, func(q string) string { return "Here is my question. " + q }, synth.ParaAccepted, true},
		{"leak", 0, func(q string) string { return q + " Hint: think of " + leakOf[q] + "." }, synth.ParaLeak, false},
		{"drops-constant", 0, func(q string) string { return "Which ones share it?" }, synth.ParaMissing, false},
		{"empty", 0, func(q string) string { return " " }, synth.ParaEmpty, false},
		{"thinking", 0, func(q string) string { return "<think>Maybe 42 words.</think>\nHere is my question. " + q }, synth.ParaAccepted, true},
		{"adds-a-number", 0, func(q string) string { return q + " Give 987654 of them." }, synth.ParaNumbers, false},
		{"too-long", 0, func(q string) string { return strings.Repeat(q+" ", 4) }, synth.ParaLong, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := chatServer(t, c.status, c.reply)
			o := base
			o.Paraphraser = synth.NewLLM(srv.URL+"/v1", "test-model", "key", o.Seed)
			tasks, st := run(t, g, o)
			if len(tasks) != len(plain) {
				t.Fatalf("%d tasks, want %d", len(tasks), len(plain))
			}
			if st.Paraphrase[c.outcome] != len(tasks) {
				t.Errorf("paraphrase outcomes %v, want %d %s", st.Paraphrase, len(tasks), c.outcome)
			}
			for i, tk := range tasks {
				if changed := tk.Question != plain[i].Question; changed != c.changed {
					t.Errorf("%s: question changed %v: %q", tk.ID, changed, tk.Question)
				}
				if c.changed && !strings.HasPrefix(tk.Question, "Here is my question.") {
					t.Errorf("%s: %q", tk.ID, tk.Question)
				}
			}
		})
	}
}

// TestParaphraseEndpointFails: a transient failure is retried; a call that
// fails for good (a 401, or 5xx past the retries) stops the run with the
// endpoint's message instead of keeping every template in silence.
func TestParaphraseEndpointFails(t *testing.T) {
	g := storetest.OpenGraph(t)
	o := synth.Options{Variant: "reverse-union", Cut: true, N: 2, Seed: 2}
	for _, c := range []struct {
		name     string
		status   int
		attempts int
	}{
		{"401", http.StatusUnauthorized, 1},
		{"500", http.StatusInternalServerError, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.WriteHeader(c.status)
				w.Write([]byte(`{"error":{"message":"boom","type":"server_error"}}`))
			}))
			defer srv.Close()
			l := synth.NewLLM(srv.URL+"/v1", "m", "key", o.Seed)
			l.Retries, l.Backoff = 2, time.Millisecond
			o.Paraphraser = l
			_, err := synth.Run(context.Background(), g, &o, func(*task.Task) error { return nil })
			if !errors.Is(err, synth.ErrEndpoint) || !strings.Contains(err.Error(), "boom") || int(calls.Load()) != c.attempts {
				t.Errorf("Run: %v after %d calls, want ErrEndpoint after %d", err, calls.Load(), c.attempts)
			}
		})
	}
	// One 503, then answers: retried, and every task paraphrased.
	var calls atomic.Int32
	good := chatServer(t, 0, func(q string) string { return "Here is my question. " + q })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		resp, err := http.Post(good.URL+r.URL.Path, "application/json", r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		io.Copy(w, resp.Body)
	}))
	defer srv.Close()
	l := synth.NewLLM(srv.URL+"/v1", "m", "key", o.Seed)
	l.Backoff = time.Millisecond
	retries := 0
	l.OnRetry = func(int, time.Duration, error) { retries++ }
	o.Paraphraser = l
	tasks, st := run(t, g, o)
	if retries != 1 || st.Paraphrase[synth.ParaAccepted] != len(tasks) {
		t.Errorf("%d retries, outcomes %v for %d tasks", retries, st.Paraphrase, len(tasks))
	}
}

// TestParaphraseAggregateLeak: a rewrite that states an aggregate's value
// keeps the template.
func TestParaphraseAggregateLeak(t *testing.T) {
	g := storetest.OpenGraph(t)
	base := synth.Options{Variant: "basic", N: 4, Seed: 1, Aggregate: true}
	plain, _ := run(t, g, base)
	value := map[string]string{}
	for _, tk := range plain {
		if tk.Answer.Aggregate != nil {
			value[tk.Question] = tk.Answer.Aggregate.Value
		}
	}
	if len(value) == 0 {
		t.Skip("no aggregate task in the sample")
	}
	srv := chatServer(t, 0, func(q string) string { return q + " (The answer is " + value[q] + ".)" })
	o := base
	o.Paraphraser = synth.NewLLM(srv.URL+"/v1", "m", "key", o.Seed)
	tasks, st := run(t, g, o)
	for i, tk := range tasks {
		if tk.Answer.Aggregate != nil && tk.Question != plain[i].Question {
			t.Errorf("%s: the value %q leaked: %q", tk.ID, tk.Answer.Aggregate.Value, tk.Question)
		}
	}
	if st.Paraphrase[synth.ParaAccepted] != 0 {
		t.Errorf("outcomes %v", st.Paraphrase)
	}
}
