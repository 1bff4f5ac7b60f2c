package serve

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/leaper-dev/leaper/agent/eval"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/query"
)

// RewardRequest is the body of POST /reward: a task by id (from the
// server's task file) or inline, the answer text (the inside of <answer>,
// or the whole final message), and optionally the trajectory.
type RewardRequest struct {
	TaskID     string            `json:"task_id,omitempty"`
	Task       *query.Task       `json:"task,omitempty"`
	Answer     *string           `json:"answer"`
	Trajectory *agent.Trajectory `json:"trajectory,omitempty"`
}

func (s *Server) reward(r *http.Request, body []byte) ([]byte, bool, error) {
	var a RewardRequest
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, badf(false, "invalid request: %s", jsonMsg(err))
	}
	t := a.Task
	switch {
	case (a.TaskID == "") == (a.Task == nil):
		return nil, false, badf(false, `give exactly one of "task_id" and "task"`)
	case a.TaskID != "":
		t = s.tasks[a.TaskID]
		if t == nil {
			return nil, false, &badRequest{status: http.StatusNotFound, msg: "unknown task " + a.TaskID}
		}
	}
	if a.Answer == nil {
		return nil, false, badf(false, `missing "answer"`)
	}
	tr := a.Trajectory
	if tr != nil {
		tr = remeasure(t, tr)
	}
	v, err := s.run(r.Context(), "reward", func(context.Context) (any, error) {
		sc := eval.Scorer{Graph: s.w.Store().Graph()}
		return sc.Score(t, *a.Answer, tr), nil
	})
	if err != nil {
		return nil, false, err
	}
	b, err := encode(v)
	return b, false, err
}

// remeasure recomputes a client's trajectory metrics against the task: only
// the task's targets count as observed, and |R| is the task's, so a client
// cannot inflate ISR or ISE by what it claims.
func remeasure(t *query.Task, tr *agent.Trajectory) *agent.Trajectory {
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
func taskMap(ts []*query.Task) map[string]*query.Task {
	m := make(map[string]*query.Task, len(ts))
	for _, t := range ts {
		m[t.ID] = t
	}
	return m
}
