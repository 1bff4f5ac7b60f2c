// Package fleet runs leaper serve replicas behind HAProxy on the loopback,
// for the failover test and leaper-bench's replicas mode: it starts them,
// kills one with SIGKILL, restarts it, watches HAProxy take it out and back
// in (its stats page), and loads the balancer with many clients, timing
// every request.
//
// # Concurrency
//
// A Fleet's methods are for one goroutine; Load runs its own clients.
//
// # Caveats
//
// Ports are picked by binding port 0 and closing it, so another process
// may take one in between; Start then fails and can be run again. Only
// loopback addresses are used.
package fleet

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// HAProxy returns the path of the haproxy program, or an error when it is
// not installed.
func HAProxy() (string, error) {
	p, err := exec.LookPath("haproxy")
	if err != nil {
		return "", errors.New("fleet: haproxy not found (Debian: apt-get install haproxy)")
	}
	return p, nil
}

// Options configure Start.
type Options struct {
	// Replicas is how many replicas run. Default 3.
	Replicas int
	// Replica returns the command that runs one replica on addr.
	Replica func(addr string) *exec.Cmd
	// Config writes HAProxy's configuration: clients on bind, its stats
	// page on stats, the replicas at addrs (named r1, r2, ... in backend
	// "leaper").
	Config func(bind, stats string, addrs []string) ([]byte, error)
	// Solo, when set, runs one more replica outside HAProxy (Fleet.Solo),
	// for a peer measured direct in the same run.
	Solo func(addr string) *exec.Cmd
	// Dir is where the configuration is written.
	Dir string
	// Stderr receives the replicas' and HAProxy's stderr; default discard.
	Stderr io.Writer
}

// Fleet is HAProxy in front of running replicas.
type Fleet struct {
	// Front is HAProxy's base URL ("http://127.0.0.1:PORT").
	Front string
	// Addrs are the replicas' addresses; Direct(i) is one's base URL.
	Addrs []string
	// Solo is the base URL of the replica outside HAProxy (Options.Solo),
	// or "".
	Solo  string
	solo  *exec.Cmd
	stats string
	procs []*exec.Cmd
	hap   *exec.Cmd
	o     Options
}

// FreeAddrs returns n loopback addresses with free ports.
func FreeAddrs(n int) ([]string, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	var out []string
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().String())
	}
	return out, nil
}

// Start starts the replicas, waits until each says ready, then starts
// HAProxy and waits until it sees every replica UP.
func Start(ctx context.Context, o Options) (*Fleet, error) {
	if o.Replicas <= 0 {
		o.Replicas = 3
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	hp, err := HAProxy()
	if err != nil {
		return nil, err
	}
	addrs, err := FreeAddrs(o.Replicas + 3)
	if err != nil {
		return nil, err
	}
	f := &Fleet{Front: "http://" + addrs[0], stats: addrs[1], Addrs: addrs[3:], o: o, procs: make([]*exec.Cmd, o.Replicas)}
	if o.Solo != nil {
		f.Solo = "http://" + addrs[2]
		f.solo = o.Solo(addrs[2])
		f.solo.Stdout, f.solo.Stderr = o.Stderr, o.Stderr
		if err := f.solo.Start(); err != nil {
			return nil, fmt.Errorf("fleet: start the solo replica: %w", err)
		}
		if _, err := poll(ctx, "solo replica ready", func() bool { return ready(f.Solo) }); err != nil {
			f.Close()
			return nil, err
		}
	}
	for i := range f.Addrs {
		if err := f.Restart(i); err != nil {
			f.Close()
			return nil, err
		}
	}
	for i := range f.Addrs {
		if _, err := f.WaitReady(ctx, i); err != nil {
			f.Close()
			return nil, err
		}
	}
	cfg, err := o.Config(addrs[0], addrs[1], f.Addrs)
	if err != nil {
		f.Close()
		return nil, err
	}
	path := filepath.Join(o.Dir, "haproxy.cfg")
	if err := os.WriteFile(path, cfg, 0o644); err != nil {
		f.Close()
		return nil, err
	}
	f.hap = exec.Command(hp, "-db", "-f", path)
	f.hap.Stdout, f.hap.Stderr = o.Stderr, o.Stderr
	if err := f.hap.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("fleet: start haproxy: %w", err)
	}
	for i := range f.Addrs {
		if _, err := f.WaitState(ctx, i, true); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// Direct is replica i's base URL.
func (f *Fleet) Direct(i int) string { return "http://" + f.Addrs[i] }

// Kill kills replica i with SIGKILL and reaps it.
func (f *Fleet) Kill(i int) error {
	p := f.procs[i]
	if p == nil {
		return fmt.Errorf("fleet: replica %d is not running", i+1)
	}
	f.procs[i] = nil
	if err := p.Process.Kill(); err != nil {
		return err
	}
	p.Wait()
	return nil
}

// Restart starts replica i on its address (it must not be running); it
// does not wait for it to be ready.
func (f *Fleet) Restart(i int) error {
	if f.procs[i] != nil {
		return fmt.Errorf("fleet: replica %d is running", i+1)
	}
	c := f.o.Replica(f.Addrs[i])
	c.Stdout, c.Stderr = f.o.Stderr, f.o.Stderr
	if err := c.Start(); err != nil {
		return fmt.Errorf("fleet: start replica %d: %w", i+1, err)
	}
	f.procs[i] = c
	return nil
}

// poll calls ok every 10 ms until it says true, and returns when.
func poll(ctx context.Context, what string, ok func() bool) (time.Time, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		if ok() {
			return time.Now(), nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("fleet: %s: %w", what, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

var probe = &http.Client{Timeout: time.Second}

// WaitReady waits until replica i's GET /readyz says 200 and returns when
// it first did.
func (f *Fleet) WaitReady(ctx context.Context, i int) (time.Time, error) {
	return poll(ctx, fmt.Sprintf("replica %d ready", i+1), func() bool { return ready(f.Direct(i)) })
}

func ready(base string) bool {
	resp, err := probe.Get(base + "/readyz")
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// State is what HAProxy's stats page says of replica i in backend
// "leaper": "UP", "DOWN", or a transition such as "UP 1/2".
func (f *Fleet) State(i int) (string, error) {
	resp, err := probe.Get("http://" + f.stats + "/;csv")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("# "))))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil || len(rows) == 0 {
		return "", fmt.Errorf("fleet: stats page: %v", err)
	}
	col := map[string]int{}
	for j, h := range rows[0] {
		col[h] = j
	}
	name := fmt.Sprintf("r%d", i+1)
	for _, row := range rows[1:] {
		if len(row) > col["status"] && row[col["pxname"]] == "leaper" && row[col["svname"]] == name {
			return row[col["status"]], nil
		}
	}
	return "", fmt.Errorf("fleet: no server %s in the stats", name)
}

// WaitState waits until HAProxy sees replica i UP (up) or DOWN (!up) and
// returns when.
func (f *Fleet) WaitState(ctx context.Context, i int, up bool) (time.Time, error) {
	want := map[bool]string{true: "UP", false: "DOWN"}[up]
	return poll(ctx, fmt.Sprintf("haproxy sees replica %d %s", i+1, want), func() bool {
		st, err := f.State(i)
		return err == nil && st == want
	})
}

// Close stops HAProxy and the replicas.
func (f *Fleet) Close() error {
	var errs []error
	if f.hap != nil {
		f.hap.Process.Kill()
		f.hap.Wait()
		f.hap = nil
	}
	for i, p := range append(f.procs, f.solo) {
		if p == nil {
			continue
		}
		p.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			p.Process.Kill()
			<-done
			errs = append(errs, fmt.Errorf("fleet: replica %d did not stop on SIGINT", i+1))
		}
		if i < len(f.procs) {
			f.procs[i] = nil
		}
	}
	f.solo = nil
	return errors.Join(errs...)
}

// Request is one request of a load: a POST of Body to Path.
type Request struct {
	Path string
	Body []byte
}

// Result is one request's outcome.
type Result struct {
	Start   time.Time
	Latency time.Duration
	Err     error
	// Store is the X-Leaper-Store header of the answer.
	Store string
}

// Load sends n requests from c concurrent clients (one keep-alive
// connection each) to base, cycling through reqs, and returns every
// request's result in the order they were taken. A request fails on a
// transport error or a status other than 200. onProgress, when set, is
// called with the count of finished requests every 100.
func Load(ctx context.Context, base, token string, c, n int, reqs []Request, onProgress func(done int)) []Result {
	tr := &http.Transport{MaxIdleConns: c * 2, MaxIdleConnsPerHost: c * 2, MaxConnsPerHost: c, IdleConnTimeout: time.Minute, DisableCompression: true}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: time.Minute}
	out := make([]Result, n)
	var mu sync.Mutex
	next, done := 0, 0
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n || ctx.Err() != nil {
					return
				}
				r := reqs[i%len(reqs)]
				res := &out[i]
				res.Start = time.Now()
				res.Store, res.Err = post(ctx, hc, base+r.Path, token, r.Body)
				res.Latency = time.Since(res.Start)
				if onProgress != nil {
					mu.Lock()
					done++
					d := done
					mu.Unlock()
					if d%100 == 0 {
						onProgress(d)
					}
				}
			}
		}()
	}
	wg.Wait()
	for i := range out {
		if out[i].Start.IsZero() {
			out[i].Err = fmt.Errorf("not sent: %w", context.Cause(ctx))
		}
	}
	return out
}

func post(ctx context.Context, hc *http.Client, url, token string, body []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		resp.Body.Close()
		return resp.Header.Get("X-Leaper-Store"), fmt.Errorf("%s: HTTP %d: %s (request %.200s)", strings.TrimPrefix(url, "http://"), resp.StatusCode, bytes.TrimSpace(msg), body)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.Header.Get("X-Leaper-Store"), err
}

// Summary sums up the results that started in a window.
type Summary struct {
	Requests, Failed int
	// FirstErr is the first failure, in request order.
	FirstErr error
	P50, P99 time.Duration
	// RPS is requests per second over the window: from the first start
	// to the last end when the window is the whole run.
	RPS float64
}

// Summarize sums up the results that started in [from, to); zero times
// leave that side open.
func Summarize(rs []Result, from, to time.Time) Summary {
	var s Summary
	var lat []time.Duration
	var first, last time.Time
	for _, r := range rs {
		if r.Start.IsZero() || (!from.IsZero() && r.Start.Before(from)) || (!to.IsZero() && !r.Start.Before(to)) {
			if r.Start.IsZero() {
				s.Requests++
				s.Failed++
				s.FirstErr = cmpErr(s.FirstErr, r.Err)
			}
			continue
		}
		s.Requests++
		if r.Err != nil {
			s.Failed++
			s.FirstErr = cmpErr(s.FirstErr, r.Err)
		}
		lat = append(lat, r.Latency)
		if first.IsZero() || r.Start.Before(first) {
			first = r.Start
		}
		if end := r.Start.Add(r.Latency); end.After(last) {
			last = end
		}
	}
	if len(lat) == 0 {
		return s
	}
	slices.Sort(lat)
	s.P50, s.P99 = lat[(len(lat)-1)*50/100], lat[(len(lat)-1)*99/100]
	if !from.IsZero() {
		first = from
	}
	if !to.IsZero() && to.Before(last) {
		last = to
	}
	if el := last.Sub(first).Seconds(); el > 0 {
		s.RPS = float64(len(lat)) / el
	}
	return s
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Usage is a process's CPU time and resident memory, from /proc (Linux).
type Usage struct {
	CPU time.Duration
	RSS int64 // bytes
}

// usage reads /proc/PID/stat (utime and stime, in clock ticks of 1/100 s,
// Linux's USER_HZ) and /proc/PID/statm (resident pages).
func usage(pid int) (Usage, error) {
	var u Usage
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return u, err
	}
	// The command name may hold spaces: fields count from after ")".
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return u, fmt.Errorf("fleet: /proc/%d/stat: %d fields", pid, len(f))
	}
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	u.CPU = time.Duration(ut+st) * 10 * time.Millisecond
	if b, err = os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid)); err == nil {
		var size, res int64
		fmt.Sscan(string(b), &size, &res)
		u.RSS = res * int64(os.Getpagesize())
	}
	return u, nil
}

// Usage is replica i's CPU time and memory so far.
func (f *Fleet) Usage(i int) (Usage, error) {
	if f.procs[i] == nil {
		return Usage{}, fmt.Errorf("fleet: replica %d is not running", i+1)
	}
	return usage(f.procs[i].Process.Pid)
}

// SoloUsage is the solo replica's CPU time and memory so far.
func (f *Fleet) SoloUsage() (Usage, error) {
	if f.solo == nil {
		return Usage{}, errors.New("fleet: no solo replica")
	}
	return usage(f.solo.Process.Pid)
}

// HAProxyUsage is HAProxy's CPU time and memory so far.
func (f *Fleet) HAProxyUsage() (Usage, error) { return usage(f.hap.Process.Pid) }

// Outage is when one replica's loss and return happened: killed, seen
// down by HAProxy, restarted, ready (its /readyz), and seen up again; Err
// is why it stopped short.
type Outage struct {
	Kill, Down, Restart, Ready, Up time.Time
	Err                            error
}

// KillRestart kills replica i once start is closed, waits until HAProxy
// marks it down, restarts it after pause, and waits until it is ready and
// HAProxy marks it up again. It works in the background, while the caller
// loads the fleet, and sends the Outage when done.
func (f *Fleet) KillRestart(ctx context.Context, i int, start <-chan struct{}, pause time.Duration) <-chan Outage {
	done := make(chan Outage, 1)
	go func() {
		var o Outage
		defer func() { done <- o }()
		select {
		case <-start:
		case <-ctx.Done():
			o.Err = ctx.Err()
			return
		}
		o.Kill = time.Now()
		if o.Err = f.Kill(i); o.Err != nil {
			return
		}
		if o.Down, o.Err = f.WaitState(ctx, i, false); o.Err != nil {
			return
		}
		time.Sleep(pause)
		o.Restart = time.Now()
		if o.Err = f.Restart(i); o.Err != nil {
			return
		}
		if o.Ready, o.Err = f.WaitReady(ctx, i); o.Err != nil {
			return
		}
		o.Up, o.Err = f.WaitState(ctx, i, true)
	}()
	return done
}
