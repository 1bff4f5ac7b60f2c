package eval

import (
	"github.com/leaper-dev/leaper/internal/hist"
	"github.com/leaper-dev/leaper/task"
)

// TaskStats summarise a task set: what leaper stats --tasks reports.
type TaskStats struct {
	File       string                    `json:"file"`
	Tasks      int                       `json:"tasks"`
	Variants   map[string]int            `json:"variants"`
	Aggregates map[string]int            `json:"aggregates,omitempty"`
	Expanded   int                       `json:"expanded"`
	Targets    hist.Histogram            `json:"targets"`
	ByVariant  map[string]hist.Histogram `json:"targets_by_variant"`
	// Hardness is ComputeHardness's report, when the caller has the store.
	Hardness []*Hardness `json:"hardness,omitempty"`
}

var targetBounds = []int{10, 20, 50, 100, 200, 500}

// ComputeTaskStats summarises tasks: counts per variant and |R| histograms.
func ComputeTaskStats(tasks []*task.Task) *TaskStats {
	st := &TaskStats{Tasks: len(tasks), Variants: map[string]int{}, Aggregates: map[string]int{},
		Targets: hist.NewInt(targetBounds...), ByVariant: map[string]hist.Histogram{}}
	for _, t := range tasks {
		v := string(t.Variant)
		st.Variants[v]++
		if t.Expand > 0 {
			st.Expanded++
		}
		if t.Answer.Aggregate != nil {
			st.Aggregates[t.Answer.Aggregate.Op]++
		}
		st.Targets.Add(float64(len(t.Targets)))
		h, ok := st.ByVariant[v]
		if !ok {
			h = hist.NewInt(targetBounds...)
		}
		h.Add(float64(len(t.Targets)))
		st.ByVariant[v] = h
	}
	return st
}
