package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/agent/eval"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/webtest"
)

// parallel2 runs fn b.N times on 2 goroutines.
func parallel2(b *testing.B, fn func(i int) error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				if err := fn(i); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
}

// benchWeb opens $LEAPER_BENCH_STORE (a full store built with leaper
// build) or else the sample store.
func benchWeb(b *testing.B) *web.Web {
	dir := os.Getenv("LEAPER_BENCH_STORE")
	if dir == "" {
		return webtest.OpenWeb(b)
	}
	w, err := web.Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close() })
	return w
}

func BenchmarkRolloutEnvSearch(b *testing.B) {
	w := benchWeb(b)
	be := w
	tasks := agenttest.Tasks(b, w.Store().Graph(), 20)
	args := make([]json.RawMessage, len(tasks))
	for i, t := range tasks {
		tr, _ := w.Store().Graph().Tree(t.Trees[0])
		args[i], _ = json.Marshal(map[string]any{"query": []string{tr.PageTitle}})
	}
	parallel2(b, func(i int) error {
		_, err := be.Call(context.Background(), "search", args[i%len(args)])
		return err
	})
}

func BenchmarkRolloutEnvVisit(b *testing.B) {
	w := benchWeb(b)
	be := w
	tasks := agenttest.Tasks(b, w.Store().Graph(), 20)
	args := make([]json.RawMessage, len(tasks))
	for i, t := range tasks {
		tr, _ := w.Store().Graph().Tree(t.Trees[0])
		args[i], _ = json.Marshal(map[string]any{"url": tr.PageURL, "goal": agent.Goal(t)})
	}
	parallel2(b, func(i int) error {
		_, err := be.Call(context.Background(), "visit", args[i%len(args)])
		return err
	})
}

func median(xs []float64) float64 {
	sort.Float64s(xs)
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)/2]
}

func BenchmarkRolloutOracle(b *testing.B) {
	w := webtest.OpenWeb(b)
	be := w
	tasks := agenttest.Tasks(b, w.Store().Graph(), 1000)
	p := &agent.Oracle{Graph: w.Store().Graph(), Probe: be}
	var isr, ise []float64
	b.ResetTimer()
	start := time.Now()
	n := 0
	for range b.N {
		err := agent.RunAll(context.Background(), tasks, p, be, &agent.Options{Deterministic: true, Workers: 2}, func(_ int, t *agent.Trajectory) error {
			isr, ise = append(isr, t.Metrics.ISR), append(ise, t.Metrics.ISE)
			n++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "rollouts/s")
	b.ReportMetric(median(isr), "median-ISR")
	b.ReportMetric(median(ise), "median-ISE")
	b.ReportMetric(float64(len(tasks)), "tasks")
}

// BenchmarkRolloutLoopOverhead measures the loop's own time per model call
// (prompting, parsing, bookkeeping, JSON) over the scripted test server,
// excluding the time inside the model call and the tools.
func BenchmarkRolloutLoopOverhead(b *testing.B) {
	w := webtest.OpenWeb(b)
	be := w
	tk := agenttest.Tasks(b, w.Store().Graph(), 1)[0]
	s := agenttest.NewServer(b)
	s.Func = func(r *agenttest.Request) agenttest.Action {
		if len(r.Messages) < 22 {
			return agenttest.Action{Content: fmt.Sprintf("<think>step %d</think>\n<tool_call>{\"name\": \"search\", \"arguments\": {\"query\": [\"q%d\"]}}</tool_call>", len(r.Messages), len(r.Messages))}
		}
		return agenttest.Action{Content: answer}
	}
	p := &agent.ModelPolicy{Model: agent.NewOpenAI(&agent.OpenAIOptions{BaseURL: s.BaseURL()}), Name: "m"}
	var loop, model float64
	calls := 0
	b.ResetTimer()
	for range b.N {
		tr, err := agent.Run(context.Background(), tk, p, be, nil)
		if err != nil || tr.End != agent.EndAnswer {
			b.Fatal(err, tr.End)
		}
		loop += tr.Run.ElapsedMS - tr.Run.ModelMS - tr.Run.ToolMS
		model += tr.Run.ModelMS
		calls += tr.Run.ModelCalls
	}
	b.ReportMetric(1000*loop/float64(calls), "loop-µs/call")
	b.ReportMetric(1000*model/float64(calls), "http-µs/call")
}

// BenchmarkEvalScore scores a 200-row, 5-column answer against its 1000
// targets, as a reward endpoint would.
func BenchmarkEvalScore(b *testing.B) {
	tk := &task.Task{Answer: task.Answer{Columns: []string{"Name", "A", "B", "C", "D"}}}
	for i := range 200 {
		row := []string{fmt.Sprintf("Person Number %d", i), fmt.Sprintf("Town %d", i), fmt.Sprint(1900 + i), fmt.Sprintf("%d.5", i), "United States"}
		tk.Answer.Rows = append(tk.Answer.Rows, row)
		for j, c := range row {
			tk.Targets = append(tk.Targets, task.Target{Entity: uint32(i*5 + j), Name: c})
		}
	}
	ans := (&agent.Table{Columns: tk.Answer.Columns, Rows: tk.Answer.Rows}).Markdown()
	b.ResetTimer()
	for range b.N {
		if s := eval.Score(tk, ans, nil); !s.Success {
			b.Fatal("not a success")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scores/s")
}
