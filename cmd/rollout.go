package cmd

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// RolloutOptions are the flags of leaper rollout.
type RolloutOptions struct {
	IO            IO
	Web           func() (*web.Web, error)
	Store         string // the store's directory, for messages
	Tasks         string
	Policy        string
	BaseURL       string
	Model         string
	APIKey        string
	Workers       int
	MaxSteps      int
	MaxTokens     int
	MaxTime       time.Duration
	Timeout       time.Duration
	Retries       int
	Seed          int64
	Cache         string
	CacheMode     string
	Protocol      string
	Output        string
	Deterministic bool
	Temperature   float32
	TopP          float32
	// Replay is a trajectory file whose recorded turns are taken again.
	Replay string
}

func newRolloutCmd(f *Factory, runF func(context.Context, *RolloutOptions) error) *cobra.Command {
	opts := &RolloutOptions{}
	c := &cobra.Command{
		Use:   "rollout --tasks FILE --policy oracle|naive|llm",
		Short: "Run an agent on tasks over the offline web and write trajectories",
		Long: `Run an agent on every task of a JSONL task file over the store's offline
search/visit web, and write one trajectory per task (JSONL, in task order).

Policies: oracle (collects every target with as few calls as it can, then
answers with the gold table: the efficiency upper bound and gold
trajectories), naive (searches the question, visits the hits in order), llm
(a model behind any OpenAI-compatible endpoint; --base-url, --model,
--api-key or OPENAI_BASE_URL and OPENAI_API_KEY).

With --cache FILE, model responses are recorded (--cache-mode record, the
default) and can be replayed without the endpoint (--cache-mode replay).
With -o FILE, tasks already in FILE are skipped, so an interrupted run
resumes (a stopped run writes every trajectory that finished); tasks whose
trajectory there ended in error (the endpoint failed) run again in its
place. --deterministic leaves out the run's timings and retries, so two
runs give identical bytes.

Each trajectory records the id of the store that answered ("store": format
version and content digest; leaper serve sends it as X-Leaper-Store).
--replay FILE takes the recorded assistant turns of FILE's trajectories
again, without a model, over this store, for the tasks of --tasks that FILE
holds; it refuses a trajectory recorded against another store, naming both
ids, since its observations would not be the recorded ones.`,
		Example: `  leaper rollout --tasks tasks.jsonl --policy oracle -o gold.jsonl
  leaper rollout --tasks tasks.jsonl --policy llm --base-url http://localhost:8000/v1 \
      --model Tongyi-DeepResearch-30B --workers 8 --cache responses.jsonl -o traj.jsonl
  leaper rollout --tasks tasks.jsonl --replay traj.jsonl --deterministic -o again.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Web, opts.Store = f.IO, f.Web, f.Store
			if opts.BaseURL == "" {
				opts.BaseURL = os.Getenv("OPENAI_BASE_URL")
			}
			if opts.APIKey == "" {
				opts.APIKey = os.Getenv("OPENAI_API_KEY")
			}
			if err := opts.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runRollout(c.Context(), opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Tasks, "tasks", "", "task file (JSONL)")
	fl.StringVar(&opts.Policy, "policy", "oracle", "oracle, naive or llm")
	fl.StringVar(&opts.BaseURL, "base-url", "", "OpenAI-compatible endpoint (env OPENAI_BASE_URL)")
	fl.StringVar(&opts.Model, "model", "", "model name (llm policy)")
	fl.StringVar(&opts.APIKey, "api-key", "", "API key (env OPENAI_API_KEY)")
	fl.IntVar(&opts.Workers, "workers", 1, "tasks run in parallel")
	fl.IntVar(&opts.MaxSteps, "max-steps", 60, "assistant turns per task")
	fl.IntVar(&opts.MaxTokens, "max-tokens", 110000, "context tokens per task")
	cmdutil.AtLeast(fl, "max-steps", 1)
	cmdutil.AtLeast(fl, "max-tokens", 1)
	fl.DurationVar(&opts.MaxTime, "max-time", 0, "wall time per task (0: none)")
	fl.DurationVar(&opts.Timeout, "timeout", 5*time.Minute, "timeout of one model request")
	fl.IntVar(&opts.Retries, "retries", 5, "retries of a model request on 429, 5xx and timeouts")
	fl.Int64Var(&opts.Seed, "seed", 0, "seed (sent to the model, and of retry jitter)")
	fl.StringVar(&opts.Cache, "cache", "", "model response cache file (JSONL)")
	fl.StringVar(&opts.CacheMode, "cache-mode", "", "record, replay or off (default record when --cache is set)")
	fl.StringVar(&opts.Protocol, "protocol", string(agent.ProtocolText), "tool calling: text (<tool_call>) or native")
	fl.StringVarP(&opts.Output, "output", "o", "", "write to FILE, skipping tasks already in it (default stdout)")
	fl.BoolVar(&opts.Deterministic, "deterministic", false, "leave out timings and retries, for byte-identical runs")
	fl.Float32Var(&opts.Temperature, "temperature", 0.6, "sampling temperature (llm)")
	fl.Float32Var(&opts.TopP, "top-p", 0.95, "nucleus sampling (llm)")
	fl.StringVar(&opts.Replay, "replay", "", "take the recorded turns of these trajectories again (same store only)")
	return c
}

func (o *RolloutOptions) validate() error {
	switch {
	case o.Tasks == "":
		return usageErrorf("--tasks is required")
	case o.Replay != "" && (o.Cache != "" || o.BaseURL != "" && o.Policy == "llm"):
		return usageErrorf("--replay takes no model: drop --cache and --base-url")
	case o.Policy != "oracle" && o.Policy != "naive" && o.Policy != "llm":
		return usageErrorf("--policy must be oracle, naive or llm, not %q", o.Policy)
	case o.Workers < 1:
		return usageErrorf("--workers must be at least 1")
	case agent.Protocol(o.Protocol) != agent.ProtocolText && agent.Protocol(o.Protocol) != agent.ProtocolNative:
		return usageErrorf("--protocol must be text or native, not %q", o.Protocol)
	}
	if o.CacheMode == "" {
		o.CacheMode = agent.CacheOff
		if o.Cache != "" {
			o.CacheMode = agent.CacheRecord
		}
	}
	switch o.CacheMode {
	case agent.CacheOff, agent.CacheRecord, agent.CacheReplay:
	default:
		return usageErrorf("--cache-mode must be record, replay or off, not %q", o.CacheMode)
	}
	if o.CacheMode != agent.CacheOff && o.Cache == "" {
		return usageErrorf("--cache-mode %s needs --cache FILE", o.CacheMode)
	}
	if o.Policy == "llm" && o.Replay == "" {
		if o.Model == "" {
			return usageErrorf("--policy llm needs --model")
		}
		if o.BaseURL == "" && o.CacheMode != agent.CacheReplay {
			return usageErrorf("--policy llm needs --base-url or OPENAI_BASE_URL (or --cache-mode replay)")
		}
	}
	return nil
}

func runRollout(ctx context.Context, o *RolloutOptions) error {
	tasks, err := task.ReadFile(o.Tasks)
	if err != nil {
		return err
	}
	w, err := o.Web()
	if err != nil {
		return err
	}
	storeID, err := w.Store().ID()
	if err != nil {
		return err
	}
	var p agent.Policy
	if o.Replay != "" {
		// First: another store is the likeliest reason a replay fails.
		if p, tasks, err = replayPolicy(o, tasks, storeID); err != nil {
			return err
		}
	}
	if err := checkStore(tasks, w.Store().Graph(), o.Tasks, o.Store); err != nil {
		return err
	}
	b := w
	closePolicy := func() {}
	if o.Replay == "" {
		p, closePolicy, err = rolloutPolicy(o, w)
	}
	if err != nil {
		return err
	}
	defer closePolicy()
	out := o.IO.Out
	skipped := 0
	if o.Output != "" {
		resumed, err := agent.Resume(o.Output)
		if err != nil {
			return fmt.Errorf("-o %w; rollout appends trajectories to -o (and resumes from them): give a new file or one it wrote", err)
		}
		if resumed.Retried > 0 {
			fmt.Fprintf(o.IO.ErrOut, "rollout: %d trajectories in %s had ended in error; their tasks run again\n", resumed.Retried, o.Output)
		}
		var todo []*task.Task
		for _, t := range tasks {
			if resumed.Done[t.ID] {
				skipped++
			} else {
				todo = append(todo, t)
			}
		}
		tasks = todo
		f, err := os.OpenFile(o.Output, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	ends, errs := map[string]int{}, map[string]int{}
	var isr, ise float64
	n := 0
	opts := &agent.Options{MaxSteps: o.MaxSteps, MaxTokens: o.MaxTokens, MaxDuration: o.MaxTime, Protocol: agent.Protocol(o.Protocol),
		Seed: o.Seed, Deterministic: o.Deterministic, Workers: o.Workers}
	start := time.Now()
	err = agent.RunAll(ctx, tasks, p, b, opts, func(i int, t *agent.Trajectory) error {
		ends[string(t.End)]++
		if t.End == agent.EndError {
			errs[t.Error]++
		}
		isr += t.Metrics.ISR
		ise += t.Metrics.ISE
		n++
		t.Store = storeID
		return agent.WriteTrajectory(out, t)
	})
	summary := fmt.Sprintf("%d trajectories in %s", n, time.Since(start).Round(time.Millisecond))
	if skipped > 0 {
		summary += fmt.Sprintf(" (%d tasks already in %s)", skipped, o.Output)
	}
	if n > 0 {
		summary += fmt.Sprintf("; mean ISR %.3f, mean ISE %.3f; ended:", isr/float64(n), ise/float64(n))
		for _, k := range sortedStrings(ends) {
			summary += fmt.Sprintf(" %s %d", k, ends[k])
		}
	}
	fmt.Fprintln(o.IO.ErrOut, "rollout:", summary)
	if err != nil {
		return err
	}
	if ends[agent.EndError] > 0 {
		// Each distinct cause once, the commonest first.
		causes := sortedStrings(errs)
		sort.SliceStable(causes, func(i, j int) bool { return errs[causes[i]] > errs[causes[j]] })
		for i, c := range causes {
			if i == 3 {
				fmt.Fprintf(o.IO.ErrOut, "rollout: ... and %d more causes\n", len(causes)-i)
				break
			}
			fmt.Fprintf(o.IO.ErrOut, "rollout: %d ended in error: %s\n", errs[c], c)
		}
		again := `see "error"`
		if o.Output != "" {
			again = "the same command runs them again"
		}
		return cmdutil.Partial(fmt.Sprintf("%d of %d tasks ended in error (their trajectories are written; %s)", ends[agent.EndError], n, again))
	}
	return nil
}

// rolloutPolicy is the policy --policy names: a model behind an
// OpenAI-compatible endpoint, through the response cache, for llm (each
// retry said on stderr), or a built-in policy over w. The function it
// returns closes the cache.
func rolloutPolicy(o *RolloutOptions, w *web.Web) (agent.Policy, func(), error) {
	if o.Policy != "llm" {
		p, err := agent.NewPolicy(o.Policy, w.Store().Graph(), w)
		return p, func() {}, err
	}
	var m agent.ChatModel
	if o.BaseURL != "" {
		retries := o.Retries
		if retries == 0 {
			retries = -1 // the client's "none"; its 0 means the default
		}
		var mu sync.Mutex // workers retry at once
		m = agent.NewOpenAI(&agent.OpenAIOptions{BaseURL: o.BaseURL, APIKey: o.APIKey, Timeout: o.Timeout,
			MaxRetries: retries, Seed: o.Seed,
			OnRetry: func(n int, wait time.Duration, err error) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(o.IO.ErrOut, "rollout: model request failed (%v); retry %d of %d in %s\n", err, n, retries, wait.Round(100*time.Millisecond))
			}})
	}
	closeCache := func() {}
	if o.CacheMode != agent.CacheOff {
		c, err := agent.OpenCache(o.Cache, o.CacheMode, m)
		if err != nil {
			return nil, nil, err
		}
		closeCache = func() { c.Close() }
		m = c
	}
	return &agent.ModelPolicy{Model: m, Name: o.Model, Temperature: o.Temperature, TopP: o.TopP}, closeCache, nil
}

// replayPolicy reads --replay's trajectories, refuses any recorded against
// another store than storeID (naming both), and returns the policy that
// takes their turns again and the tasks of --tasks they are of, in the
// file's order.
func replayPolicy(o *RolloutOptions, tasks []*task.Task, storeID string) (agent.Policy, []*task.Task, error) {
	trs, err := agent.ReadTrajectories(o.Replay)
	if err != nil {
		return nil, nil, fmt.Errorf("--replay: %w", err)
	}
	byID := make(map[string]*task.Task, len(tasks))
	for _, t := range tasks {
		byID[t.ID] = t
	}
	var todo []*task.Task
	seen := map[string]bool{}
	model, protocol := "", agent.Protocol("")
	for i, tr := range trs {
		switch {
		case tr.Store == "":
			return nil, nil, fmt.Errorf("--replay %s:%d: the trajectory of task %s records no store id (it was recorded before leaper recorded one), so it cannot be checked against this store (%s, id %s)",
				o.Replay, i+1, tr.TaskID, o.Store, storeID)
		case tr.Store != storeID:
			return nil, nil, fmt.Errorf("--replay %s:%d: the trajectory of task %s was recorded against store %s, but this store (%s) is %s: replay it over the store it was recorded against",
				o.Replay, i+1, tr.TaskID, tr.Store, o.Store, storeID)
		case byID[tr.TaskID] == nil:
			return nil, nil, fmt.Errorf("--replay %s:%d: task %s is not in --tasks %s", o.Replay, i+1, tr.TaskID, o.Tasks)
		case protocol != "" && tr.Protocol != protocol:
			return nil, nil, fmt.Errorf("--replay %s:%d: protocol %s, but earlier trajectories use %s: replay them apart", o.Replay, i+1, tr.Protocol, protocol)
		}
		if model == "" {
			model = tr.Model
		}
		protocol = tr.Protocol
		if !seen[tr.TaskID] {
			seen[tr.TaskID] = true
			todo = append(todo, byID[tr.TaskID])
		}
	}
	rp, err := agent.NewReplay(trs)
	if err != nil {
		return nil, nil, err
	}
	if protocol != "" {
		o.Protocol = string(protocol)
	}
	if o.Seed == 0 && len(trs) > 0 {
		o.Seed = trs[0].Seed // the recorded run's, so the bytes can agree
	}
	return &agent.ModelPolicy{Model: rp, Name: model, Temperature: o.Temperature, TopP: o.TopP}, todo, nil
}
