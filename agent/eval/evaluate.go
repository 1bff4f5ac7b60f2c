package eval

import (
	"context"
	"sort"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/internal/hist"
	"github.com/leaper-dev/leaper/task"
)

// Item is one scored trajectory.
type Item struct {
	TaskID  string          `json:"task_id"`
	Variant task.Variant    `json:"variant"`
	End     agent.EndReason `json:"end"`
	Scores  Scores          `json:"scores"`
}

// Group aggregates the trajectories of one variant (or all).
type Group struct {
	Variant       string         `json:"variant"`
	N             int            `json:"n"`
	ISR           Summary        `json:"isr"`
	ISE           Summary        `json:"ise"`
	ValidRate     Summary        `json:"valid_rate"`
	Steps         Summary        `json:"steps"`
	Precision     float64        `json:"precision"`
	Recall        float64        `json:"recall"`
	F             float64        `json:"f"`
	SuccessRate   float64        `json:"success_rate"`
	RowF1         float64        `json:"row_f1"`
	ItemF1        float64        `json:"item_f1"`
	Ends          map[string]int `json:"ends"`
	ISRHist       hist.Histogram `json:"isr_histogram"`
	ISEHist       hist.Histogram `json:"ise_histogram"`
	ValidRateHist hist.Histogram `json:"valid_rate_histogram"`
}

// Summary is the mean, median, min and max of a measure.
type Summary struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Summarize is the summary of xs.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	var sum float64
	for _, x := range s {
		sum += x
	}
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Summary{Mean: sum / float64(len(s)), Median: med, Min: s[0], Max: s[len(s)-1]}
}

// Report is the evaluation of a set of trajectories: what leaper eval
// --json prints.
type Report struct {
	Omega   float64  `json:"omega"`
	Groups  []*Group `json:"groups"` // per variant, then "all"
	Items   []Item   `json:"items"`
	Missing []string `json:"missing_tasks,omitempty"`
	// Hardness describes the tasks (ComputeHardness without policies),
	// when the caller has the store.
	Hardness []*Hardness `json:"hardness,omitempty"`
}

// Evaluate scores trajectories against tasks. Trajectories whose task is
// not among tasks are listed in Report.Missing. It stops early, with what
// it scored, when ctx is done.
func Evaluate(ctx context.Context, tasks []*task.Task, trs []*agent.Trajectory, sc *Scorer) *Report {
	byID := map[string]*task.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	rep := &Report{Omega: sc.Omega}
	groups := map[string][]Item{}
	var order []string
	for _, tr := range trs {
		if ctx.Err() != nil {
			break
		}
		t := byID[tr.TaskID]
		if t == nil {
			rep.Missing = append(rep.Missing, tr.TaskID)
			continue
		}
		it := Item{TaskID: tr.TaskID, Variant: t.Variant, End: tr.End, Scores: sc.Score(t, tr.Answer, tr)}
		rep.Items = append(rep.Items, it)
		v := string(t.Variant)
		if groups[v] == nil {
			order = append(order, v)
		}
		groups[v] = append(groups[v], it)
	}
	sort.Strings(order)
	for _, v := range order {
		rep.Groups = append(rep.Groups, group(v, groups[v]))
	}
	rep.Groups = append(rep.Groups, group("all", rep.Items))
	return rep
}

func group(name string, items []Item) *Group {
	g := &Group{Variant: name, N: len(items), Ends: map[string]int{},
		ISRHist:       hist.New(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
		ISEHist:       hist.New(0.1, 0.25, 0.5, 1, 2, 5, 10, 20),
		ValidRateHist: hist.New(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)}
	var isr, ise, vr, steps []float64
	for _, it := range items {
		s := it.Scores
		isr, ise, vr, steps = append(isr, s.ISR), append(ise, s.ISE), append(vr, s.ValidRate), append(steps, float64(s.Steps))
		g.ISRHist.Add(s.ISR)
		g.ISEHist.Add(s.ISE)
		g.ValidRateHist.Add(s.ValidRate)
		g.Precision += s.Precision
		g.Recall += s.Recall
		g.F += s.F
		if s.Success {
			g.SuccessRate++
		}
		g.RowF1 += s.RowF1
		g.ItemF1 += s.ItemF1
		g.Ends[string(it.End)]++
	}
	g.ISR, g.ISE, g.ValidRate, g.Steps = Summarize(isr), Summarize(ise), Summarize(vr), Summarize(steps)
	if n := float64(len(items)); n > 0 {
		g.Precision /= n
		g.Recall /= n
		g.F /= n
		g.SuccessRate /= n
		g.RowF1 /= n
		g.ItemF1 /= n
	}
	return g
}
