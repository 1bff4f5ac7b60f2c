package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/internal/fleet"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/web/serve"
)

// syncBuffer is a bytes.Buffer for several writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// rolloutMix is the rollout workers' mix over the sample store: about 70%
// search (titles, "page column" queries) and 30% visit (table and entity
// pages with a goal), in a fixed order.
func rolloutMix(t *testing.T, g *graph.Store) []fleet.Request {
	t.Helper()
	var search, visit []fleet.Request
	err := g.EachTree(context.Background(), func(tr *graph.Tree) error {
		for _, q := range []string{tr.Title(), tr.PageTitle + " " + tr.KeyHeader} {
			b, _ := json.Marshal(map[string]any{"query": q})
			search = append(search, fleet.Request{Path: "/search", Body: b})
		}
		b, _ := json.Marshal(map[string]any{"url": tr.PageURL, "goal": tr.KeyHeader})
		visit = append(visit, fleet.Request{Path: "/visit", Body: b})
		return nil
	})
	if err != nil || len(search) == 0 {
		t.Fatalf("no trees in the sample store: %v", err)
	}
	var mix []fleet.Request
	for i := range 1000 {
		if i%10 < 7 {
			mix = append(mix, search[(i*7)%len(search)])
		} else {
			mix = append(mix, visit[(i*3)%len(visit)])
		}
	}
	return mix
}

// TestFailoverBehindHAProxy runs three leaper serve replicas behind the
// HAProxy configuration leaper haproxy writes, loads them with the rollout
// mix from 64 clients, kills one replica with SIGKILL a quarter of the way
// in and restarts it a second later: no client request may fail, the
// restarted replica must be back in HAProxy within 5 s of saying ready
// and take requests again, and every answer names the store.
func TestFailoverBehindHAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("a load of 20,000 requests")
	}
	if _, err := fleet.HAProxy(); err != nil {
		t.Skip(err)
	}
	dir := storetest.SampleStore(t)
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.ID()
	if err != nil {
		t.Fatal(err)
	}
	mix := rolloutMix(t, st.Graph())
	st.Close()

	ctx := context.Background()
	var logs syncBuffer
	fl, err := fleet.Start(ctx, fleet.Options{
		Replicas: 3,
		Dir:      t.TempDir(),
		Stderr:   &logs,
		Replica: func(addr string) *exec.Cmd {
			return leaper(t, "serve", "--store", dir, "--addr", addr, "--drain", "2s", "--max-memory", "0")
		},
		Config: func(bind, stats string, addrs []string) ([]byte, error) {
			return serve.HAProxyConfig(serve.HAProxyOptions{Bind: bind, Stats: stats, Replicas: addrs, Command: "TestFailoverBehindHAProxy"})
		},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	defer fl.Close()

	const n, clients, victim = 20000, 64, 1
	quarter := make(chan struct{})
	var once sync.Once
	tc := fl.KillRestart(ctx, victim, quarter, time.Second)
	res := fleet.Load(ctx, fl.Front, "", clients, n, mix, func(done int) {
		if done >= n/4 {
			once.Do(func() { close(quarter) })
		}
	})
	tm := <-tc
	if tm.Err != nil {
		t.Fatalf("kill and restart: %v\n%s", tm.Err, logs.String())
	}
	all := fleet.Summarize(res, time.Time{}, time.Time{})
	during := fleet.Summarize(res, tm.Kill, tm.Up)
	after := fleet.Summarize(res, tm.Up, time.Time{})
	t.Logf("%d requests from %d clients: %d failed, %.0f req/s, p99 %v; during the loss (%d requests): p99 %v; after the rejoin (%d): p99 %v",
		all.Requests, clients, all.Failed, all.RPS, all.P99, during.Requests, during.P99, after.Requests, after.P99)
	t.Logf("killed at +0, DOWN at +%v, restarted at +%v, ready at +%v, UP at +%v (%v after ready)",
		tm.Down.Sub(tm.Kill).Round(time.Millisecond), tm.Restart.Sub(tm.Kill).Round(time.Millisecond),
		tm.Ready.Sub(tm.Kill).Round(time.Millisecond), tm.Up.Sub(tm.Kill).Round(time.Millisecond), tm.Up.Sub(tm.Ready).Round(time.Millisecond))
	for i, r := range res {
		if r.Err != nil {
			t.Logf("request %d (%s) failed: started at %+v from the kill, after %v: %v", i, mix[i%len(mix)].Path, r.Start.Sub(tm.Kill), r.Latency, r.Err)
		}
	}
	if all.Failed != 0 {
		t.Logf("logs:\n%s", logs.String())
		t.Errorf("%d of %d requests failed; first: %v", all.Failed, all.Requests, all.FirstErr)
	}
	if all.Requests < 20000 {
		t.Errorf("%d requests, want at least 20,000", all.Requests)
	}
	if d := tm.Up.Sub(tm.Ready); d > 5*time.Second {
		t.Errorf("the restarted replica rejoined %v after it was ready, want within 5s", d)
	}
	if after.Requests == 0 {
		t.Error("the load ended before the replica rejoined: no requests after")
	}
	for i, r := range res {
		if r.Err == nil && r.Store != id {
			t.Fatalf("request %d answered by store %q, want %q", i, r.Store, id)
		}
	}
	// The restarted replica took requests again.
	c := serve.NewClient(fl.Direct(victim), "")
	s, err := c.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Endpoints["search"].Requests + s.Endpoints["visit"].Requests; got == 0 && after.Requests > 1000 {
		t.Errorf("the restarted replica answered no requests after rejoining (%d were sent after)", after.Requests)
	}
}

// TestServeSIGHUPSwitchesStore runs leaper serve on a symlinked store,
// moves the link to another store and sends SIGHUP: answers then name the
// new store, /readyz stayed 200, and the process goes on serving.
func TestServeSIGHUPSwitchesStore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a second store")
	}
	ctx := context.Background()
	other := t.TempDir()
	if _, err := ingest.Run(ctx, other, []string{filepath.Join(graphtest.Corpus(), "wtq")}, nil); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "current")
	if err := os.Symlink(storetest.SampleStore(t), link); err != nil {
		t.Fatal(err)
	}
	addrs, err := fleet.FreeAddrs(1)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	c := leaper(t, "serve", "--store", link, "--addr", addrs[0])
	c.Stderr = &logs
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { c.Process.Signal(os.Interrupt); c.Wait() }()
	base := "http://" + addrs[0]
	storeOf := func() string {
		resp, err := http.Post(base+"/search", "application/json", strings.NewReader(`{"query": "season"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("search: %d", resp.StatusCode)
		}
		return resp.Header.Get(serve.StoreHeader)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("never ready\n%s", logs.String())
		}
	}
	before := storeOf()
	tmp := link + ".new"
	if err := os.Symlink(other, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	c.Process.Signal(syscall.SIGHUP)
	var after string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if after = storeOf(); after != before && strings.Contains(logs.String(), "switched store") {
			break
		}
	}
	if after == before || !strings.Contains(logs.String(), "switched store "+before+" -> "+after) {
		t.Fatalf("after SIGHUP the store is %s (before %s)\n%s", after, before, logs.String())
	}
	resp, err := http.Get(base + "/readyz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/readyz after the switch: %v %v", resp, err)
	}
	resp.Body.Close()
}
