package rewardhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
)

// DefaultMaxBody bounds a request body when Options.MaxBody is 0: a
// /reward body may carry a whole trajectory.
const DefaultMaxBody = 16 << 20

// Options configure the endpoints. A nil *Options means no tasks and the
// default body bound.
type Options struct {
	// Tasks are what /reward's "task_id" and /get_reward's labels
	// resolve against (leaper serve --tasks FILE).
	Tasks []*task.Task
	// MaxBody bounds a request body, in bytes. Default DefaultMaxBody.
	MaxBody int64
}

// Endpoints answers POST /reward and POST /get_reward over the tasks it
// was made with. Mount its methods on a web/serve Server:
//
//	srv.MountEndpoint("/reward", e.MaxBody(), e.Reward)
//	srv.MountEndpoint("/get_reward", e.MaxBody(), e.GetReward)
type Endpoints struct {
	tasks   map[string]*task.Task
	maxBody int64
}

// NewEndpoints returns the reward endpoints over opts.Tasks.
func NewEndpoints(opts *Options) *Endpoints {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	return &Endpoints{tasks: taskMap(o.Tasks), maxBody: o.MaxBody}
}

// MaxBody is the bound on a request body the endpoints are mounted with.
func (e *Endpoints) MaxBody() int64 { return e.maxBody }

// Run runs fn over the web of the store a request holds, in one of the
// server's worker slots: the shape of web/serve's Run, which a Server
// passes to its mounted endpoints.
type Run = func(fn func(ctx context.Context, w *web.Web) (any, error)) (any, error)

// RewardRequest is the body of POST /reward: a task by id (from the
// server's task file) or inline, the answer text (the inside of <answer>,
// or the whole final message), and optionally the trajectory.
type RewardRequest struct {
	TaskID     string            `json:"task_id,omitempty"`
	Task       *task.Task        `json:"task,omitempty"`
	Answer     *string           `json:"answer"`
	Trajectory *agent.Trajectory `json:"trajectory,omitempty"`
}

// Reward answers POST /reward: the task's scores (eval.Scores) for the
// answer, and the trajectory's metrics recomputed against the task.
func (e *Endpoints) Reward(ctx context.Context, body []byte, run Run) (any, error) {
	var a RewardRequest
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, badf("invalid request: %s", web.JSONMessage(err))
	}
	t := a.Task
	switch {
	case (a.TaskID == "") == (a.Task == nil):
		return nil, badf(`give exactly one of "task_id" and "task"`)
	case a.TaskID != "":
		t = e.tasks[a.TaskID]
		if t == nil {
			return nil, &requestError{status: http.StatusNotFound, msg: fmt.Sprintf("unknown task %q (serve --tasks FILE)", a.TaskID)}
		}
	case len(a.Task.Targets) == 0:
		return nil, badf(`"task": a task without targets (give a task as leaper synth writes it)`)
	}
	if a.Answer == nil && a.Trajectory != nil && a.Trajectory.Answer != "" {
		a.Answer = &a.Trajectory.Answer // the trajectory's own answer
	}
	if a.Answer == nil {
		return nil, badf(`missing "answer" (or a "trajectory" with one)`)
	}
	tr := a.Trajectory
	if tr != nil {
		tr = remeasure(t, tr)
	}
	return run(func(_ context.Context, w *web.Web) (any, error) {
		sc := eval.Scorer{Graph: w.Store().Graph()}
		return sc.Score(t, *a.Answer, tr), nil
	})
}

// remeasure recomputes a client's trajectory metrics against the task: only
// the task's targets count as observed, and |R| is the task's, so a client
// cannot inflate ISR or ISE by what it claims.
func remeasure(t *task.Task, tr *agent.Trajectory) *agent.Trajectory {
	target := make(map[uint32]bool, len(t.Targets))
	for _, tg := range t.Targets {
		target[tg.Entity] = true
	}
	seen := map[uint32]bool{}
	c := *tr
	c.Steps = make([]agent.Step, len(tr.Steps))
	for i, st := range tr.Steps {
		st.Observed, st.New = nil, nil
		for _, id := range tr.Steps[i].Observed {
			if target[id] {
				st.Observed = append(st.Observed, id)
				if !seen[id] {
					seen[id] = true
					st.New = append(st.New, id)
				}
			}
		}
		st.Valid = len(st.New) > 0
		c.Steps[i] = st
	}
	c.Metrics = agent.Measure(c.Steps, len(target))
	return &c
}

// taskMap indexes tasks by id.
func taskMap(ts []*task.Task) map[string]*task.Task {
	m := make(map[string]*task.Task, len(ts))
	for _, t := range ts {
		m[t.ID] = t
	}
	return m
}

// GetRewardRequest is the body of POST /get_reward, OpenRLHF's remote
// reward model call (openrlhf/utils/remote_rm_utils.py): Query holds each
// sample's prompt and response, Prompts the prompts, Labels each sample's
// label: a task id (from the server's task file) or a task as JSON.
type GetRewardRequest struct {
	Query   []string `json:"query"`
	Prompts []string `json:"prompts,omitempty"`
	Labels  []string `json:"labels"`
}

// GetRewardResponse answers /get_reward: Rewards (what OpenRLHF reads,
// by default under "rewards") is each sample's soft F; Scores the same;
// ExtraLogs the batch means of the other scores, which OpenRLHF logs.
type GetRewardResponse struct {
	Rewards   []float64          `json:"rewards"`
	Scores    []float64          `json:"scores"`
	ExtraLogs map[string]float64 `json:"extra_logs"`
}

// maxRewardBatch bounds the samples of one /get_reward call.
const maxRewardBatch = 4096

// GetReward answers POST /get_reward: each sample's soft F
// (GetRewardResponse).
func (e *Endpoints) GetReward(ctx context.Context, body []byte, run Run) (any, error) {
	var a GetRewardRequest
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, badf("invalid request: %s", web.JSONMessage(err))
	}
	n := len(a.Query)
	switch {
	case n == 0:
		return nil, badf(`missing "query" (a list of prompt+response texts)`)
	case n > maxRewardBatch:
		return nil, badf("%d samples in one call; at most %d", n, maxRewardBatch)
	case len(a.Labels) != n:
		return nil, badf(`"labels" has %d items, "query" %d`, len(a.Labels), n)
	case a.Prompts != nil && len(a.Prompts) != n:
		return nil, badf(`"prompts" has %d items, "query" %d`, len(a.Prompts), n)
	}
	tasks := make([]*task.Task, n)
	for i, l := range a.Labels {
		t, err := e.label(l)
		if err != nil {
			return nil, badf("labels[%d]: %s", i, err.Error())
		}
		tasks[i] = t
	}
	return run(func(ctx context.Context, w *web.Web) (any, error) {
		sc := eval.Scorer{Graph: w.Store().Graph()}
		out := &GetRewardResponse{Rewards: make([]float64, n), Scores: make([]float64, n)}
		var rec, prec, item, row float64
		for i, q := range a.Query {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// The response is what follows the prompt.
			if a.Prompts != nil {
				q = strings.TrimPrefix(q, a.Prompts[i])
			}
			res := sc.Score(tasks[i], q, nil)
			out.Rewards[i], out.Scores[i] = res.Reward, res.Reward
			rec, prec, item, row = rec+res.Recall, prec+res.Precision, item+res.ItemF1, row+res.RowF1
		}
		fn := float64(n)
		out.ExtraLogs = map[string]float64{"recall": rec / fn, "precision": prec / fn, "item_f1": item / fn, "row_f1": row / fn}
		return out, nil
	})
}

// label resolves a /get_reward label: a task id, or a task as JSON.
func (e *Endpoints) label(l string) (*task.Task, error) {
	l = strings.TrimSpace(l)
	if strings.HasPrefix(l, "{") {
		var t task.Task
		if err := json.Unmarshal([]byte(l), &t); err != nil {
			return nil, fmt.Errorf("not a task: %s", web.JSONMessage(err))
		}
		if len(t.Targets) == 0 {
			return nil, errors.New("task without targets")
		}
		return &t, nil
	}
	if t := e.tasks[l]; t != nil {
		return t, nil
	}
	if l == "" {
		return nil, errors.New("empty label; give a task id or a task")
	}
	return nil, fmt.Errorf("unknown task %q (serve --tasks FILE)", l)
}

// requestError is a client's mistake: web/serve answers it with its
// status and message.
type requestError struct {
	status int
	msg    string
}

func (e *requestError) Error() string { return e.msg }

// HTTPStatus is the status the server answers the mistake with.
func (e *requestError) HTTPStatus() int { return e.status }

func badf(format string, a ...any) *requestError {
	return &requestError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, a...)}
}
