package main

import (
	"cmp"
	"context"
	"fmt"
	"github.com/leaper-dev/leaper/bench/load"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/leaper-dev/leaper/internal/fleet"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/web/serve"
)

// BenchReplicasOptions are the flags of leaper-bench replicas.
type BenchReplicasOptions struct {
	IO         IO
	Store      string
	Replicas   int
	Clients    int
	Requests   int
	Throughput int
	Rounds     int
	KillAt     float64
	Down       time.Duration
	Tasks      string
	Seed       uint64
	Leaper     string
	Procs      int
	Switch     string
	Verbose    bool
	JSON       bool
}

func newBenchReplicasCmd(f *Factory, runF func(context.Context, *BenchReplicasOptions) error) *cobra.Command {
	opts := &BenchReplicasOptions{}
	c := &cobra.Command{
		Use:   "replicas [flags]",
		Short: "Load leaper serve replicas behind HAProxy, kill one mid-run, and compare with one replica direct",
		Long: `replicas starts --replicas leaper serve processes on one store on 127.0.0.1
and HAProxy in front of them with the configuration leaper haproxy writes
(haproxy must be installed: Debian's haproxy). It then

 1. measures throughput at --clients clients with the rollout mix (about
    70% search, 30% visit, as leaper-bench serve draws it), alternating
    one more replica direct (running alone as it would, outside HAProxy;
    idle while the others run) and the replicas through HAProxy, --rounds times
    each, --throughput requests a run; it reports each run, the medians,
    their ratio, and the CPU time per request (replicas plus HAProxy,
    from /proc), which is steadier than req/s on a shared machine;
 2. runs --requests requests through HAProxy, kills one replica with
    SIGKILL when --kill-at of them are done, restarts it --down later, and
    reports failed requests (the target is none), p99 before, during (kill
    to back UP in HAProxy) and after the loss, and how long after the
    restarted replica said ready HAProxy sent it traffic again (its
    stats page: UP);
 3. with --switch DIR, runs --throughput requests (at least 10,000)
    through HAProxy and a quarter in switches every replica to the store
    in DIR (POST /admin/store, one replica after the other), reporting
    failed requests (the target is none) and the answers by store id.

It exits 1 if any request failed. The replicas are this binary running as
leaper (or --leaper PATH).`,
		Example: `  leaper-bench replicas --store ./leaper-data
  leaper-bench replicas --store /work/stores/full --clients 64 --requests 30000 --rounds 3 --json
  leaper-bench replicas --store ./leaper-data --throughput 20000 --switch ./leaper-data-next`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Store = f.IO, f.Store
			switch {
			case opts.Replicas < 2 || opts.Replicas > 16:
				return usageErrorf("--replicas must be within 2..16")
			case opts.Clients < 1 || opts.Clients > load.MaxClients:
				return usageErrorf("--clients must be within 1..%d", load.MaxClients)
			case opts.Requests < 1000 || opts.Requests > load.MaxRequests || opts.Throughput < 0 || opts.Throughput > load.MaxRequests:
				return usageErrorf("--requests must be within 1000..%d, --throughput within 0..%d", load.MaxRequests, load.MaxRequests)
			case opts.Rounds < 1 || opts.Rounds > 100:
				return usageErrorf("--rounds must be within 1..100")
			case opts.KillAt <= 0 || opts.KillAt >= 1:
				return usageErrorf("--kill-at must be a fraction within (0, 1)")
			case opts.Procs < 0:
				return usageErrorf("--replica-procs must not be negative")
			case opts.Down < 0 || opts.Down > time.Hour:
				return usageErrorf("--down must be within 0..1h")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runBenchReplicas(c.Context(), opts)
		},
	}
	fl := c.Flags()
	fl.IntVar(&opts.Replicas, "replicas", 3, "replicas behind HAProxy")
	fl.IntVar(&opts.Clients, "clients", 64, "concurrent clients")
	fl.IntVar(&opts.Requests, "requests", 30000, "requests of the failover run")
	fl.IntVar(&opts.Throughput, "throughput", 10000, "requests of each throughput run (0: skip them)")
	fl.IntVar(&opts.Rounds, "rounds", 3, "throughput rounds, direct and through HAProxy alternating")
	fl.Float64Var(&opts.KillAt, "kill-at", 0.25, "kill a replica when this fraction of the failover run is done")
	fl.DurationVar(&opts.Down, "down", time.Second, "restart the killed replica this long after HAProxy sees it down")
	fl.StringVar(&opts.Tasks, "tasks", "", "draw the mix from these tasks (JSONL) rather than the store's trees")
	fl.Uint64Var(&opts.Seed, "seed", 1, "seed of the mix")
	fl.StringVar(&opts.Leaper, "leaper", "", "the leaper binary the replicas run (default: this binary, as leaper)")
	fl.IntVar(&opts.Procs, "replica-procs", 0, "GOMAXPROCS of each replica behind HAProxy (0: Go's default, every core); the direct one keeps Go's default")
	fl.StringVar(&opts.Switch, "switch", "", "then switch every replica to the store in DIR, one after the other, under load (--throughput requests)")
	fl.BoolVar(&opts.Verbose, "verbose", false, "pass the replicas' and HAProxy's stderr through")
	fl.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	return c
}

// ReplicasRun is one throughput run.
type ReplicasRun struct {
	Target   string  `json:"target"` // direct or haproxy
	Round    int     `json:"round"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	RPS      float64 `json:"rps"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	// CPUms is the CPU time of the serving processes (the replicas and,
	// through HAProxy, HAProxy) over the run; CPUPerReqUS per request.
	CPUms       float64 `json:"cpu_ms"`
	CPUPerReqUS float64 `json:"cpu_per_req_us"`
	// HAProxyPerReqUS is HAProxy's share of CPUPerReqUS.
	HAProxyPerReqUS float64 `json:"haproxy_per_req_us,omitempty"`
}

// ReplicasReport is what leaper-bench replicas reports.
type ReplicasReport struct {
	Store    string        `json:"store"`
	StoreID  string        `json:"store_id"`
	Replicas int           `json:"replicas"`
	Procs    string        `json:"replica_gomaxprocs,omitempty"`
	Clients  int           `json:"clients"`
	Runs     []ReplicasRun `json:"runs,omitempty"`
	// DirectRPS and HAProxyRPS are the medians over the rounds; Ratio is
	// HAProxyRPS / DirectRPS; CPURatio the CPU per request through HAProxy
	// over direct (medians).
	DirectRPS  float64 `json:"direct_rps,omitempty"`
	HAProxyRPS float64 `json:"haproxy_rps,omitempty"`
	Ratio      float64 `json:"ratio,omitempty"`
	CPURatio   float64 `json:"cpu_ratio,omitempty"`
	// ReqPerCPUSecond: direct requests per second of one core.
	ReqPerCPUSecond float64 `json:"req_per_cpu_second,omitempty"`
	// ReplicaRSSMB is each replica's resident memory after the runs;
	// HAProxyRSSMB HAProxy's; StoreMB the store's size on disk.
	ReplicaRSSMB []float64 `json:"replica_rss_mb"`
	HAProxyRSSMB float64   `json:"haproxy_rss_mb"`
	SoloRSSMB    float64   `json:"direct_rss_mb"`
	StoreMB      float64   `json:"store_mb"`
	Failover     Failover  `json:"failover"`
	Switch       *Switch   `json:"switch,omitempty"`
}

// Switch is the run in which every replica switches stores (--switch).
type Switch struct {
	Dir        string  `json:"dir"`
	Requests   int     `json:"requests"`
	Failed     int     `json:"failed"`
	FirstError string  `json:"first_error,omitempty"`
	P99ms      float64 `json:"p99_ms"`
	// DrainedMS are each replica's drain times (new requests on the new
	// store until the last on the old one was answered); TookMS each
	// switch call's whole time (open, warm, drain).
	DrainedMS []float64 `json:"drained_ms"`
	TookMS    []float64 `json:"took_ms"`
	// StoreIDs counts the answers by the store they name; After is the
	// store each replica's /stats names at the end.
	StoreIDs map[string]int `json:"store_ids"`
	After    []string       `json:"after"`
}

// Failover is the run with a replica killed.
type Failover struct {
	Requests   int     `json:"requests"`
	Failed     int     `json:"failed"`
	FirstError string  `json:"first_error,omitempty"`
	RPS        float64 `json:"rps"`
	P99ms      float64 `json:"p99_ms"`
	// Before, During (kill to UP again) and After are the p99s and counts
	// of the requests that started in each window.
	BeforeP99ms float64 `json:"before_p99_ms"`
	DuringP99ms float64 `json:"during_p99_ms"`
	AfterP99ms  float64 `json:"after_p99_ms"`
	Before      int     `json:"before"`
	During      int     `json:"during"`
	After       int     `json:"after"`
	// Times from the kill, in ms: HAProxy saw it DOWN, it was restarted,
	// it said ready, HAProxy saw it UP; RejoinMS is UP minus ready.
	DownMS    float64 `json:"down_ms"`
	RestartMS float64 `json:"restart_ms"`
	ReadyMS   float64 `json:"ready_ms"`
	UpMS      float64 `json:"up_ms"`
	RejoinMS  float64 `json:"rejoin_ms"`
	// StoreIDs counts the answers by the store they name.
	StoreIDs map[string]int `json:"store_ids"`
}

func runBenchReplicas(ctx context.Context, o *BenchReplicasOptions) error {
	if _, err := fleet.HAProxy(); err != nil {
		return err
	}
	st, err := store.Open(o.Store, &store.Options{GraphOnly: true})
	if err != nil {
		return fmt.Errorf("open store %s: %w", o.Store, err)
	}
	id, err := st.ID()
	if err != nil {
		st.Close()
		return err
	}
	mix, err := load.Workload(ctx, st.Graph(), o.Tasks, 4000, o.Seed)
	st.Close()
	if err != nil {
		return err
	}
	reqs := make([]fleet.Request, len(mix))
	for i, r := range mix {
		reqs[i] = fleet.Request{Path: "/" + r.Endpoint, Body: r.Body}
	}
	fl, stop, err := startFleet(ctx, o, id)
	if err != nil {
		return err
	}
	defer stop()
	rep := &ReplicasReport{Store: o.Store, StoreID: id, Replicas: o.Replicas, Clients: o.Clients}
	if o.Procs > 0 {
		rep.Procs = strconv.Itoa(o.Procs)
	}
	if sz, err := dirSize(o.Store); err == nil {
		rep.StoreMB = float64(sz) / (1 << 20)
	}

	// Warm every replica and HAProxy, unmeasured.
	fleet.Load(ctx, fl.Front, "", o.Clients, min(len(reqs), 3000), reqs, nil)
	fleet.Load(ctx, fl.Solo, "", o.Clients, min(len(reqs), 1000), reqs, nil)

	if o.Throughput > 0 {
		throughput(ctx, o, fl, reqs, rep)
	}
	fo, err := failover(ctx, o, fl, reqs)
	if err != nil {
		return err
	}
	rep.Failover = fo
	if o.Switch != "" {
		if rep.Switch, err = switchRun(ctx, o, fl, reqs); err != nil {
			return err
		}
	}
	for i := range fl.Addrs {
		if u, err := fl.Usage(i); err == nil {
			rep.ReplicaRSSMB = append(rep.ReplicaRSSMB, float64(u.RSS)/(1<<20))
		}
	}
	if u, err := fl.HAProxyUsage(); err == nil {
		rep.HAProxyRSSMB = float64(u.RSS) / (1 << 20)
	}
	if u, err := fl.SoloUsage(); err == nil {
		rep.SoloRSSMB = float64(u.RSS) / (1 << 20)
	}
	if o.JSON {
		if err := writeJSON(o.IO.Out, rep); err != nil {
			return err
		}
	} else {
		printReplicas(o.IO.Out, rep)
	}
	if fo.Failed > 0 {
		return fmt.Errorf("failover: %d of %d requests failed; first: %s", fo.Failed, fo.Requests, fo.FirstError)
	}
	if sw := rep.Switch; sw != nil && sw.Failed > 0 {
		return fmt.Errorf("switch: %d of %d requests failed; first: %s", sw.Failed, sw.Requests, sw.FirstError)
	}
	return nil
}

// startFleet starts the replicas of o.Store (this binary's serve, or
// o.Leaper's), a direct peer and HAProxy in front, under a temporary
// directory; its cleanup stops them and removes it.
func startFleet(ctx context.Context, o *BenchReplicasOptions, id string) (*fleet.Fleet, func(), error) {
	var err error
	bin, binArgs, env := o.Leaper, []string(nil), []string(nil)
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return nil, nil, err
		}
		env = []string{"LEAPER_MAIN=1"}
	}
	tmp, err := os.MkdirTemp("", "leaper-replicas-*")
	if err != nil {
		return nil, nil, err
	}
	var logs io.Writer = io.Discard
	if o.Verbose {
		logs = o.IO.ErrOut
	}
	fmt.Fprintf(o.IO.ErrOut, "replicas: starting %d replicas of %s (store %s) and HAProxy\n", o.Replicas, o.Store, id)
	fl, err := fleet.Start(ctx, fleet.Options{
		Replicas: o.Replicas, Dir: tmp, Stderr: logs,
		Replica: func(addr string) *exec.Cmd {
			c := exec.Command(bin, append(binArgs, "serve", "--store", o.Store, "--addr", addr, "--drain", "2s")...)
			c.Env = append(os.Environ(), env...)
			if o.Procs > 0 {
				c.Env = append(c.Env, "GOMAXPROCS="+strconv.Itoa(o.Procs))
			}
			return c
		},
		// The direct peer: one replica as it runs alone, outside HAProxy.
		Solo: func(addr string) *exec.Cmd {
			c := exec.Command(bin, append(binArgs, "serve", "--store", o.Store, "--addr", addr)...)
			c.Env = append(os.Environ(), env...)
			return c
		},
		Config: func(bind, stats string, addrs []string) ([]byte, error) {
			return serve.HAProxyConfig(serve.HAProxyOptions{Bind: bind, Stats: stats, Replicas: addrs, Command: "leaper-bench replicas"})
		},
	})
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	return fl, func() { fl.Close(); os.RemoveAll(tmp) }, nil
}

// throughput alternates o.Rounds runs of o.Throughput requests at the
// direct peer and through HAProxy, and records each with the CPU the
// serving processes used.
func throughput(ctx context.Context, o *BenchReplicasOptions, fl *fleet.Fleet, reqs []fleet.Request, rep *ReplicasReport) {
	errOut := o.IO.ErrOut
	cpu := func(withHAProxy bool) time.Duration {
		if !withHAProxy {
			u, _ := fl.SoloUsage()
			return u.CPU
		}
		var sum time.Duration
		for i := range fl.Addrs {
			if u, err := fl.Usage(i); err == nil {
				sum += u.CPU
			}
		}
		if u, err := fl.HAProxyUsage(); err == nil {
			sum += u.CPU
		}
		return sum
	}
	{
		var direct, viaHA, cpuD, cpuH []float64
		for round := 1; round <= o.Rounds; round++ {
			for _, target := range []string{"direct", "haproxy"} {
				base := fl.Solo
				if target == "haproxy" {
					base = fl.Front
				}
				c0 := cpu(target == "haproxy")
				h0, _ := fl.HAProxyUsage()
				res := fleet.Load(ctx, base, "", o.Clients, o.Throughput, reqs, nil)
				used := cpu(target == "haproxy") - c0
				h1, _ := fl.HAProxyUsage()
				s := fleet.Summarize(res, time.Time{}, time.Time{})
				r := ReplicasRun{Target: target, Round: round, Requests: s.Requests, Errors: s.Failed, RPS: s.RPS,
					P50ms: ms(s.P50), P99ms: ms(s.P99), CPUms: ms(used), CPUPerReqUS: float64(used.Microseconds()) / float64(max(1, s.Requests))}
				if target == "haproxy" {
					r.HAProxyPerReqUS = float64((h1.CPU - h0.CPU).Microseconds()) / float64(max(1, s.Requests))
				}
				rep.Runs = append(rep.Runs, r)
				if target == "direct" {
					direct, cpuD = append(direct, r.RPS), append(cpuD, r.CPUPerReqUS)
				} else {
					viaHA, cpuH = append(viaHA, r.RPS), append(cpuH, r.CPUPerReqUS)
				}
				if !o.JSON {
					fmt.Fprintf(errOut, "round %d %-8s %6d requests, %d errors: %7.0f req/s, p50 %6.2f ms, p99 %6.2f ms, CPU %5.0f µs/request (HAProxy %.0f)\n",
						round, target, r.Requests, r.Errors, r.RPS, r.P50ms, r.P99ms, r.CPUPerReqUS, r.HAProxyPerReqUS)
				}
			}
		}
		rep.DirectRPS, rep.HAProxyRPS = median(direct), median(viaHA)
		rep.Ratio = rep.HAProxyRPS / rep.DirectRPS
		rep.CPURatio = median(cpuH) / median(cpuD)
		rep.ReqPerCPUSecond = 1e6 / median(cpuD)
	}

}

// failover runs o.Requests requests through HAProxy and kills replica 1
// with SIGKILL after o.KillAt of them, restarting it after o.Down.
func failover(ctx context.Context, o *BenchReplicasOptions, fl *fleet.Fleet, reqs []fleet.Request) (Failover, error) {
	errOut := o.IO.ErrOut
	const victim = 1
	mark := make(chan struct{})
	var once sync.Once
	tc := fl.KillRestart(ctx, victim, mark, o.Down)
	at := int(o.KillAt * float64(o.Requests))
	fmt.Fprintf(errOut, "failover: %d requests from %d clients through HAProxy; replica %d killed after %d\n", o.Requests, o.Clients, victim+1, at)
	res := fleet.Load(ctx, fl.Front, "", o.Clients, o.Requests, reqs, func(done int) {
		if done >= at {
			once.Do(func() { close(mark) })
		}
	})
	once.Do(func() { close(mark) })
	tm := <-tc
	if tm.Err != nil {
		return Failover{}, fmt.Errorf("failover: kill and restart: %w", tm.Err)
	}
	all := fleet.Summarize(res, time.Time{}, time.Time{})
	before := fleet.Summarize(res, time.Time{}, tm.Kill)
	during := fleet.Summarize(res, tm.Kill, tm.Up)
	after := fleet.Summarize(res, tm.Up, time.Time{})
	since := func(t time.Time) float64 { return ms(t.Sub(tm.Kill)) }
	fo := Failover{Requests: all.Requests, Failed: all.Failed, RPS: all.RPS, P99ms: ms(all.P99),
		BeforeP99ms: ms(before.P99), DuringP99ms: ms(during.P99), AfterP99ms: ms(after.P99),
		Before: before.Requests, During: during.Requests, After: after.Requests,
		DownMS: since(tm.Down), RestartMS: since(tm.Restart), ReadyMS: since(tm.Ready), UpMS: since(tm.Up), RejoinMS: ms(tm.Up.Sub(tm.Ready)),
		StoreIDs: map[string]int{}}
	if all.FirstErr != nil {
		fo.FirstError = all.FirstErr.Error()
	}
	for _, r := range res {
		if r.Err == nil {
			fo.StoreIDs[r.Store]++
		}
	}
	return fo, nil
}

// switchRun loads HAProxy and, a quarter in, switches each replica to the
// store in o.Switch, one after the other.
func switchRun(ctx context.Context, o *BenchReplicasOptions, fl *fleet.Fleet, reqs []fleet.Request) (*Switch, error) {
	n := max(o.Throughput, 10000)
	sw := &Switch{Dir: o.Switch, StoreIDs: map[string]int{}}
	mark := make(chan struct{})
	var once sync.Once
	errc := make(chan error, 1)
	go func() {
		select {
		case <-mark:
		case <-ctx.Done():
			errc <- ctx.Err()
			return
		}
		for i := range fl.Addrs {
			t0 := time.Now()
			res, err := serve.NewClient(fl.Direct(i), "").SwitchStore(ctx, o.Switch)
			if err != nil {
				errc <- fmt.Errorf("switch: replica %d: %w", i+1, err)
				return
			}
			sw.TookMS = append(sw.TookMS, ms(time.Since(t0)))
			sw.DrainedMS = append(sw.DrainedMS, res.DrainedMS)
		}
		errc <- nil
	}()
	fmt.Fprintf(o.IO.ErrOut, "switch: %d requests through HAProxy; every replica switched to %s after %d\n", n, o.Switch, n/4)
	res := fleet.Load(ctx, fl.Front, "", o.Clients, n, reqs, func(done int) {
		if done >= n/4 {
			once.Do(func() { close(mark) })
		}
	})
	once.Do(func() { close(mark) })
	if err := <-errc; err != nil {
		return nil, err
	}
	s := fleet.Summarize(res, time.Time{}, time.Time{})
	sw.Requests, sw.Failed, sw.P99ms = s.Requests, s.Failed, ms(s.P99)
	if s.FirstErr != nil {
		sw.FirstError = s.FirstErr.Error()
	}
	for _, r := range res {
		if r.Err == nil {
			sw.StoreIDs[r.Store]++
		}
	}
	for i := range fl.Addrs {
		st, err := serve.NewClient(fl.Direct(i), "").Stats(ctx)
		if err != nil {
			return nil, err
		}
		sw.After = append(sw.After, st.Store)
	}
	return sw, nil
}

func printReplicas(w io.Writer, r *ReplicasReport) {
	fmt.Fprintf(w, "store %s (%s, %.0f MB on disk), %d replicas (GOMAXPROCS %s), %d clients\n", r.Store, r.StoreID, r.StoreMB, r.Replicas, cmp.Or(r.Procs, "default"), r.Clients)
	if r.DirectRPS > 0 {
		fmt.Fprintf(w, "throughput (medians of %d rounds): one replica direct %.0f req/s, %d replicas through HAProxy %.0f req/s: ratio %.2f; CPU per request through HAProxy / direct %.2f; %.0f requests per CPU-second direct\n",
			len(r.Runs)/2, r.DirectRPS, r.Replicas, r.HAProxyRPS, r.Ratio, r.CPURatio, r.ReqPerCPUSecond)
	}
	f := r.Failover
	fmt.Fprintf(w, "failover: %d requests, %d failed, %.0f req/s; p99 %.1f ms; before the kill %.1f ms (%d), during the loss %.1f ms (%d), after the rejoin %.1f ms (%d)\n",
		f.Requests, f.Failed, f.RPS, f.P99ms, f.BeforeP99ms, f.Before, f.DuringP99ms, f.During, f.AfterP99ms, f.After)
	fmt.Fprintf(w, "failover: from the kill: DOWN in HAProxy %.0f ms, restarted %.0f ms, ready %.0f ms, UP %.0f ms (rejoined %.0f ms after ready)\n",
		f.DownMS, f.RestartMS, f.ReadyMS, f.UpMS, f.RejoinMS)
	if s := r.Switch; s != nil {
		fmt.Fprintf(w, "switch to %s: %d requests, %d failed, p99 %.1f ms; answers by store %v; each replica's switch took %v ms, draining %v ms; now serving %v\n",
			s.Dir, s.Requests, s.Failed, s.P99ms, s.StoreIDs, roundAll(s.TookMS), roundAll(s.DrainedMS), s.After)
	}
	ids := make([]string, 0, len(f.StoreIDs))
	for id := range f.StoreIDs {
		ids = append(ids, id+" "+strconv.Itoa(f.StoreIDs[id]))
	}
	slices.Sort(ids)
	fmt.Fprintf(w, "answers by store: %v; memory: replicas %v MB RSS, the direct one %.0f MB, HAProxy %.0f MB\n", ids, roundAll(r.ReplicaRSSMB), r.SoloRSSMB, r.HAProxyRSSMB)
}

func roundAll(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x + 0.5)
	}
	return out
}

// dirSize is the bytes of the files under dir.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			n += fi.Size()
		}
		return err
	})
	return n, err
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// median is the middle of xs (the mean of the two middle ones), 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}
