package cmd

import (
	"bytes"
	"context"
	"errors"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/report"
)

// TestReportCommand synthesises tasks on the sample store, runs the naive
// policy over them and writes the report of both, then refuses bad input
// by name.
func TestReportCommand(t *testing.T) {
	store := storetest.SampleStore(t)
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks.jsonl")
	out, err := runLeaper(t, "synth", "--store", store, "--variant", "basic", "-n", "4", "--hardness=false")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(tasks, []byte(out), 0o644)
	trs := filepath.Join(dir, "naive.jsonl")
	if _, err := runLeaper(t, "rollout", "--store", store, "--tasks", tasks, "--policy", "naive", "-o", trs); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if _, err := runLeaper(t, "report", "--store", store, "--tasks", tasks, "--title", "sample", trs, "-o", page); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out, "\n")
	for _, want := range []string{"<title>sample</title>", `"runs":["naive"]`, first[:20]} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}

	// A saved evaluation is shown as its table.
	ev, err := runLeaper(t, "eval", "--store", store, "--tasks", tasks, "--json", trs)
	if err != nil {
		t.Fatal(err)
	}
	evf := filepath.Join(dir, "eval.json")
	os.WriteFile(evf, []byte(ev), 0o644)
	if _, err := runLeaper(t, "report", "--store", store, "--tasks", tasks, "--eval", evf, "-o", page); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(page); !bytes.Contains(b, []byte("Evaluation (leaper eval --json)")) || !bytes.Contains(b, []byte("<td>basic</td>")) {
		t.Error("report with --eval lacks the evaluation table")
	}
	if _, err := runLeaper(t, "report", "--store", store, "--eval", tasks, "-o", page); !errors.Is(err, report.ErrEval) {
		t.Errorf("a task file as --eval: %v", err)
	}
	if _, err := runLeaper(t, "report", "--store", store, tasks, "-o", page); err == nil || !strings.Contains(err.Error(), "tasks.jsonl:1") {
		t.Errorf("tasks as trajectories: %v", err)
	}
	if _, err := runLeaper(t, "report", "--store", store, "--synth-stats", tasks, "-o", page); !errors.Is(err, report.ErrSynthStats) || !strings.Contains(err.Error(), "tasks.jsonl") {
		t.Errorf("a task file as --synth-stats: %v", err)
	}
	if _, err := runLeaper(t, "report", "--store", store, "--tasks", trs, "-o", page); err == nil || !strings.Contains(err.Error(), "naive.jsonl") {
		t.Errorf("trajectories as --tasks: %v", err)
	}
	if _, err := runLeaper(t, "report", "--store", store, "--hardness"); !cmdutil.IsUsage(err) {
		t.Errorf("--hardness without --tasks: %v", err)
	}
}

// TestServeReport: leaper serve answers the report at /report, behind its
// token like every endpoint.
func TestServeReport(t *testing.T) {
	store := storetest.SampleStore(t)
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte("s3cret\n"), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	f := cmdutil.NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	f.Store = store
	defer f.Close()
	go func() {
		done <- runServe(ctx, &ServeOptions{IO: f.IO, Web: f.Web, Store: store, Addr: "127.0.0.1:0", TokenFile: tok,
			Grace: 5 * time.Second, Ready: func(a string) { ready <- a }})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	get := func(token string) (int, string) {
		req, _ := http.NewRequest("GET", "http://"+addr+"/report", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, _ := get(""); code != http.StatusUnauthorized {
		t.Errorf("/report without the token: %d, want 401", code)
	}
	code, body := get("s3cret")
	if code != 200 || !strings.Contains(body, "Task cards") || !strings.Contains(body, "store-rejections") {
		t.Errorf("/report with the token: %d, %d bytes", code, len(body))
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("runServe after cancel: %v", err)
	}
}
