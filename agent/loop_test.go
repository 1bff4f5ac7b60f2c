package agent_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/web/webtest"
)

const answer = "<think>done</think>\n<answer>\n| Name |\n| --- |\n| x |\n</answer>"

func TestRolloutScriptedModel(t *testing.T) {
	w := webtest.OpenWeb(t)
	b := w
	task := agenttest.Tasks(t, w.Store().Graph(), 1)[0]
	tree, err := w.Store().Graph().Tree(task.Trees[0])
	if err != nil {
		t.Fatal(err)
	}
	search := `<think>start</think>` + "\n" + `<tool_call>{"name": "search", "arguments": {"query": ["` + tree.PageTitle + `"]}}</tool_call>`
	tests := []struct {
		name     string
		protocol agent.Protocol
		timeout  time.Duration
		retries  int
		actions  []agenttest.Action
		end      agent.EndReason
		steps    int
		retried  int
		check    func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server)
	}{
		{name: "text tool call", actions: []agenttest.Action{{Content: search}, {Content: answer}}, end: agent.EndAnswer, steps: 1,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				if m := tr.Messages[3]; m.Role != agent.RoleUser || !strings.HasPrefix(m.Content, "<tool_response>\nA Google search for") {
					t.Errorf("observation message %+v", m)
				}
				if tr.Steps[0].Tool != "search" || len(tr.Steps[0].URLs) == 0 {
					t.Errorf("step %+v", tr.Steps[0])
				}
				if len(s.Requests[0].Tools) != 0 || !strings.Contains(s.Requests[0].Messages[0].Content, "<tools>") {
					t.Errorf("text protocol request carries tools natively or lacks them in the prompt")
				}
				if tr.Table == nil || tr.Table.Rows[0][0] != "x" {
					t.Errorf("table %+v", tr.Table)
				}
				if r := s.Requests[0]; r.Temperature != 0.6 || r.TopP != 0.95 {
					t.Errorf("sampling %v %v", r.Temperature, r.TopP)
				}
			}},
		{name: "native tool call", protocol: agent.ProtocolNative, actions: []agenttest.Action{
			{ToolCalls: [][2]string{{"visit", `{"url": "` + tree.PageURL + `", "goal": "rows"}`}}}, {Content: answer}},
			end: agent.EndAnswer, steps: 1,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				if m := tr.Messages[3]; m.Role != agent.RoleTool || m.ToolCallID == "" || !strings.HasPrefix(m.Content, "The useful information in") {
					t.Errorf("tool message %+v", m)
				}
				if len(s.Requests[0].Tools) != 2 || strings.Contains(s.Requests[0].Messages[0].Content, "<tools>") {
					t.Errorf("native request: %d tools", len(s.Requests[0].Tools))
				}
				if got := s.Requests[1].Messages[2].ToolCalls; len(got) != 1 || got[0].Function.Name != "visit" {
					t.Errorf("tool call not sent back: %+v", got)
				}
				if tr.Metrics.VisitFound == 0 || !tr.Steps[0].Valid {
					t.Errorf("visit of the tree page found no target: %+v", tr.Metrics)
				}
			}},
		{name: "429 then success", actions: []agenttest.Action{{Status: 429}, {Content: answer}}, end: agent.EndAnswer, retried: 1},
		{name: "no choices then success", actions: []agenttest.Action{{NoChoices: true}, {Content: answer}}, end: agent.EndAnswer, retried: 1},
		{name: "500 until retries run out", retries: 2, actions: []agenttest.Action{{Status: 500}, {Status: 500}, {Status: 500}},
			end: agent.EndError,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				if !strings.Contains(tr.Error, "500") || !strings.Contains(tr.Error, "3 attempt") || s.Count() != 3 {
					t.Errorf("error %q after %d requests", tr.Error, s.Count())
				}
			}},
		{name: "400 is not retried", actions: []agenttest.Action{{Status: 400}}, end: agent.EndError,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				if s.Count() != 1 {
					t.Errorf("%d requests", s.Count())
				}
			}},
		{name: "hang past the timeout", timeout: 300 * time.Millisecond, actions: []agenttest.Action{{Hang: 5 * time.Second}, {Content: answer}},
			end: agent.EndAnswer, retried: 1},
		{name: "invalid tool JSON", actions: []agenttest.Action{{Content: `<tool_call>{"name": "search", "arguments": {"query": [</tool_call>`}, {Content: answer}},
			end: agent.EndAnswer, steps: 1,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				if !strings.Contains(tr.Steps[0].Error, "not valid JSON") || !strings.Contains(tr.Messages[3].Content, "not valid JSON") {
					t.Errorf("step %+v", tr.Steps[0])
				}
			}},
		{name: "unknown tool", actions: []agenttest.Action{{Content: `<tool_call>{"name": "browse", "arguments": {}}</tool_call>`}, {Content: answer}},
			end: agent.EndAnswer, steps: 1,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				if !strings.Contains(tr.Steps[0].Error, `unknown tool "browse"`) {
					t.Errorf("step %+v", tr.Steps[0])
				}
			}},
		{name: "native unknown tool and bad arguments", protocol: agent.ProtocolNative,
			actions: []agenttest.Action{{ToolCalls: [][2]string{{"browse", `{}`}, {"search", `{"query": [`}}}, {Content: answer}},
			end:     agent.EndAnswer, steps: 2,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				// Errors in the native protocol's terms: no text tags.
				if m := tr.Messages[4]; m.Role != agent.RoleTool || !strings.Contains(m.Content, "arguments of the search call") || strings.Contains(m.Content, "<tool_call>") {
					t.Errorf("bad arguments message %+v", m)
				}
			}},
		{name: "native no tool call", protocol: agent.ProtocolNative,
			actions: []agenttest.Action{{Content: "I think so."}, {Content: answer}}, end: agent.EndAnswer, steps: 1,
			check: func(t *testing.T, tr *agent.Trajectory, s *agenttest.Server) {
				if m := tr.Messages[3]; m.Role != agent.RoleUser || !strings.HasPrefix(m.Content, "Error: no tool call found. Call a tool (search or visit)") || strings.Contains(m.Content, "<tool_") {
					t.Errorf("no-call message %+v", m)
				}
			}},
		{name: "no tool call", actions: []agenttest.Action{{Content: "I think so."}, {Content: answer}}, end: agent.EndAnswer, steps: 1},
		{name: "answer in the first step", actions: []agenttest.Action{{Content: answer}}, end: agent.EndAnswer, steps: 0},
		{name: "max steps", actions: []agenttest.Action{{Content: search}, {Content: search}, {Content: search}, {Content: search}},
			end: agent.EndMaxSteps, steps: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := agenttest.NewServer(t, tc.actions...)
			m := agent.NewOpenAI(&agent.OpenAIOptions{BaseURL: s.BaseURL(), APIKey: "k", Backoff: time.Millisecond,
				Timeout: tc.timeout, MaxRetries: tc.retries})
			p := &agent.ModelPolicy{Model: m, Name: "test-model"}
			tr, err := agent.Run(context.Background(), task, p, b, &agent.Options{Protocol: tc.protocol, MaxSteps: 3})
			if err != nil {
				t.Fatal(err)
			}
			if tr.End != tc.end || len(tr.Steps) != tc.steps || tr.Run.Retries != tc.retried {
				t.Fatalf("end %s steps %d retries %d (error %q), want %s %d %d", tr.End, len(tr.Steps), tr.Run.Retries, tr.Error, tc.end, tc.steps, tc.retried)
			}
			if tr.Model != "test-model" || tr.Policy != "llm" {
				t.Errorf("policy %s model %s", tr.Policy, tr.Model)
			}
			if _, err := tr.Marshal(); err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, tr, s)
			}
		})
	}
}

// byTurn answers by turn, so that concurrent runs see the same replies.
func byTurn(pages map[string]string) func(*agenttest.Request) agenttest.Action {
	return func(r *agenttest.Request) agenttest.Action {
		q := r.Messages[1].Content
		switch len(r.Messages) {
		case 2:
			return agenttest.Action{Content: `<think>search</think>` + "\n" + `<tool_call>{"name": "search", "arguments": {"query": ["` + pages[q+"title"] + `"]}}</tool_call>`}
		case 4:
			return agenttest.Action{Content: `<think>visit</think>` + "\n" + `<tool_call>{"name": "visit", "arguments": {"url": ["` + pages[q] + `"], "goal": "all rows"}}</tool_call>`}
		}
		return agenttest.Action{Content: answer}
	}
}

func TestRolloutCacheRecordReplayIdentical(t *testing.T) {
	w := webtest.OpenWeb(t)
	b := w
	tasks := agenttest.Tasks(t, w.Store().Graph(), 3)
	pages := map[string]string{}
	for _, task := range tasks {
		tr, err := w.Store().Graph().Tree(task.Trees[0])
		if err != nil {
			t.Fatal(err)
		}
		q := agent.UserPrompt(task.Question, task.Answer.Columns)
		pages[q], pages[q+"title"] = tr.PageURL, tr.PageTitle
	}
	s := agenttest.NewServer(t)
	s.Func = byTurn(pages)
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	run := func(mode string, inner agent.ChatModel) []byte {
		c, err := agent.OpenCache(path, mode, inner)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		p := &agent.ModelPolicy{Model: c, Name: "m"}
		var out bytes.Buffer
		err = agent.RunAll(context.Background(), tasks, p, b, &agent.Options{Deterministic: true, Seed: 7, Workers: 2}, func(i int, tr *agent.Trajectory) error {
			if tr.End != agent.EndAnswer {
				t.Errorf("%s ended %s: %s", tr.TaskID, tr.End, tr.Error)
			}
			return agent.WriteTrajectory(&out, tr)
		})
		if err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	rec := run(agent.CacheRecord, agent.NewOpenAI(&agent.OpenAIOptions{BaseURL: s.BaseURL()}))
	n := s.Count()
	if n != 3*len(tasks) {
		t.Fatalf("%d requests for %d tasks", n, len(tasks))
	}
	rep := run(agent.CacheReplay, nil)
	if s.Count() != n {
		t.Errorf("replay reached the endpoint")
	}
	if !bytes.Equal(rec, rep) {
		t.Errorf("replay differs from record:\n%s\n----\n%s", rec, rep)
	}
	// A different seed changes the requests: replay misses, clearly.
	c, err := agent.OpenCache(path, agent.CacheReplay, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := agent.Run(context.Background(), tasks[0], &agent.ModelPolicy{Model: c, Name: "m"}, b, &agent.Options{Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if tr.End != agent.EndError || !strings.Contains(tr.Error, "cache miss") {
		t.Errorf("replay miss: end %s error %q", tr.End, tr.Error)
	}
	if _, err := c.Chat(context.Background(), &agent.ChatRequest{Model: "other"}); !errors.Is(err, agent.ErrCacheMiss) {
		t.Errorf("miss error %v", err)
	}
}

func TestRolloutDeterministic(t *testing.T) {
	w := webtest.OpenWeb(t)
	b := w
	tasks := agenttest.Tasks(t, w.Store().Graph(), 4)
	for _, name := range []string{"oracle", "naive"} {
		p, err := agent.NewPolicy(name, w.Store().Graph(), b)
		if err != nil {
			t.Fatal(err)
		}
		run := func(workers int) []byte {
			var out bytes.Buffer
			err := agent.RunAll(context.Background(), tasks, p, b, &agent.Options{Deterministic: true, Workers: workers}, func(i int, tr *agent.Trajectory) error {
				if tr.TaskID != tasks[i].ID {
					t.Errorf("out of order: %s at %d", tr.TaskID, i)
				}
				return agent.WriteTrajectory(&out, tr)
			})
			if err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}
		a, c := run(1), run(2)
		if !bytes.Equal(a, c) {
			t.Errorf("%s: two runs differ", name)
		}
		trs, err := agent.DecodeTrajectories(bytes.NewReader(a), name)
		if err != nil || len(trs) != len(tasks) {
			t.Fatalf("%s: %d trajectories, %v", name, len(trs), err)
		}
		for _, tr := range trs {
			last := tr.Messages[len(tr.Messages)-1].Content
			if !strings.Contains(last, "<answer>") || !strings.Contains(tr.Messages[2].Content, "<think>") ||
				!strings.Contains(tr.Messages[2].Content, "<tool_call>") || !strings.HasPrefix(tr.Messages[3].Content, "<tool_response>") {
				t.Errorf("%s: message format: %q", name, tr.Messages[2].Content)
			}
			if !tr.Tokens.Estimated || tr.Tokens.Prompt == 0 {
				t.Errorf("%s: tokens %+v", name, tr.Tokens)
			}
		}
	}
}

func TestRunAllBadWorkers(t *testing.T) {
	err := agent.RunAll(context.Background(), nil, nil, nil, &agent.Options{Workers: -1}, nil)
	if !errors.Is(err, agent.ErrOptions) {
		t.Fatalf("err %v, want ErrOptions", err)
	}
}

func TestParseAnswerTakesTheLast(t *testing.T) {
	for in, want := range map[string]string{
		"<answer>A</answer>": "A",
		"Give the answer inside <answer> and </answer>. ... <answer>| X |\n|---|\n| a |</answer>": "| X |\n|---|\n| a |",
		"draft <answer>Germany</answer> then <answer>France</answer>":                             "France",
		"I answer in <answer></answer> tags. <answer>unclosed final":                              "unclosed final",
	} {
		if got, ok := agent.ParseAnswer(in); !ok || got != want {
			t.Errorf("ParseAnswer(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := agent.ParseAnswer("no answer here"); ok {
		t.Error("an answer found in a text without one")
	}
}

// stallFirst is the naive policy, except that on one task it waits for the
// run to be cancelled, as a slow model would; when every other task has
// answered, it cancels the run.
type stallFirst struct {
	agent.Naive
	stall   string
	others  int
	answers atomic.Int32
	cancel  func()
}

func (p *stallFirst) Next(ctx context.Context, s *agent.State) (*agent.ChatResponse, error) {
	if s.Task.ID == p.stall {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	r, err := p.Naive.Next(ctx, s)
	if _, ok := agent.ParseAnswer(r.Content); err == nil && ok && int(p.answers.Add(1)) == p.others {
		p.cancel() // the answer still ends its trajectory
	}
	return r, err
}

// TestRunAllCancelKeepsFinished: trajectories done behind a task that is
// still running are emitted when the run is cancelled, not lost.
func TestRunAllCancelKeepsFinished(t *testing.T) {
	w := webtest.OpenWeb(t)
	tasks := agenttest.Tasks(t, w.Store().Graph(), 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &stallFirst{stall: tasks[0].ID, others: len(tasks) - 1, cancel: cancel}
	var got []string
	err := agent.RunAll(ctx, tasks, p, w, &agent.Options{Deterministic: true, Workers: len(tasks)}, func(_ int, tr *agent.Trajectory) error {
		if tr.End != agent.EndAnswer {
			t.Errorf("%s ended %s", tr.TaskID, tr.End)
		}
		got = append(got, tr.TaskID)
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("RunAll: %v", err)
	}
	var want []string
	for _, tk := range tasks[1:] {
		want = append(want, tk.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("emitted %v, want %v", got, want)
	}
}
