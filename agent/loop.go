package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
)

// Backend runs the agent's tools. Bad arguments are the tool's own error
// text in the observation; an error means the backend itself failed. The
// offline web (*web.Web) and the HTTP client (*serve.Client) are Backends.
type Backend interface {
	Call(ctx context.Context, tool string, args json.RawMessage) (*web.Observation, error)
}

var _ Backend = (*web.Web)(nil)

// Policy decides the agent's turns. A Policy is shared by concurrent runs;
// per-run state goes in State.Memo.
type Policy interface {
	// PolicyName is recorded in the trajectory: llm, oracle, naive.
	PolicyName() string
	// ModelName is the model recorded, "" for none.
	ModelName() string
	// Next returns the assistant's next message.
	Next(ctx context.Context, s *State) (*ChatResponse, error)
}

// State is what a policy sees: the task, the conversation so far, the steps
// and their observations.
type State struct {
	Task         *task.Task
	Seed         int64
	Protocol     Protocol
	Messages     []Message
	Steps        []Step
	Observations []*web.Observation // per step; nil when the step ran no tool
	// Memo is the policy's own per-run state.
	Memo any
}

// EndReason is how a run ended.
type EndReason string

// How a run ended.
const (
	EndAnswer    EndReason = "answer"
	EndMaxSteps            = "max_steps"
	EndMaxTokens           = "max_tokens"
	EndTimeout             = "timeout"
	EndError               = "error"
	EndCanceled            = "canceled"
)

// Options of a run. The zero value means defaults.
type Options struct {
	MaxSteps    int           // assistant turns before the run stops; default 60
	MaxTokens   int           // context tokens before the run stops; default 110000
	MaxDuration time.Duration // wall time; 0 means no limit
	Protocol    Protocol      // ProtocolText (default) or ProtocolNative
	Seed        int64
	// Date is the current date the system prompt states; default
	// DefaultDate, fixed so that prompts (and cache keys) are reproducible.
	Date string
	// Deterministic leaves Trajectory.Run out.
	Deterministic bool
	// Workers is the number of tasks RunAll runs at once; default 1.
	// Run ignores it.
	Workers int
}

// DefaultDate is the date the system prompt states by default.
const DefaultDate = "2025-09-01"

func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 60
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = 110000
	}
	if c.Protocol == "" {
		c.Protocol = ProtocolText
	}
	if c.Protocol != ProtocolText && c.Protocol != ProtocolNative {
		return c, fmt.Errorf("%w: %q", ErrProtocol, c.Protocol)
	}
	if c.Date == "" {
		c.Date = DefaultDate
	}
	if c.Workers < 0 {
		return c, fmt.Errorf("%w: Workers %d must not be negative", ErrOptions, c.Workers)
	}
	c.Workers = max(c.Workers, 1)
	return c, nil
}

// Run runs one task to its end. The trajectory is returned even when the
// run ended in error (End says how it ended); the error is non-nil only when
// ctx was cancelled or the options are invalid.
func Run(ctx context.Context, task *task.Task, p Policy, b Backend, opts *Options) (*Trajectory, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	tr := &Trajectory{TaskID: task.ID, Variant: task.Variant, Question: task.Question, Policy: p.PolicyName(),
		Model: p.ModelName(), Seed: o.Seed, Protocol: o.Protocol}
	run := &RunInfo{}
	s := &State{Task: task, Seed: o.Seed, Protocol: o.Protocol, Messages: []Message{
		{Role: RoleSystem, Content: SystemPrompt(o.Protocol, o.Date)},
		{Role: RoleUser, Content: UserPrompt(task.Question, task.Answer.Columns)},
	}}
	targets := make(map[uint32]bool, len(task.Targets))
	for _, t := range task.Targets {
		targets[t.Entity] = true
	}
	seen := map[uint32]bool{}
	finish := func(end EndReason, err error) (*Trajectory, error) {
		tr.End = end
		if err != nil && end == EndError {
			tr.Error = err.Error()
		}
		tr.Messages, tr.Steps = s.Messages, s.Steps
		tr.Metrics = Measure(tr.Steps, len(targets))
		run.ElapsedMS = ms(time.Since(start))
		if !o.Deterministic {
			tr.Run = run
		}
		if end == EndCanceled {
			return tr, err
		}
		return tr, nil
	}
	fail := func(err error) (*Trajectory, error) {
		if ctx.Err() != nil {
			return finish(EndCanceled, ctx.Err())
		}
		return finish(EndError, err)
	}
	// exec runs one parsed call and records its step.
	exec := func(c call) (string, error) {
		st := Step{Tool: c.name, Args: c.args, Error: c.err}
		var obs *web.Observation
		text := c.err
		if c.err == "" {
			t0 := time.Now()
			var err error
			obs, err = b.Call(ctx, c.name, c.args)
			run.ToolMS += ms(time.Since(t0))
			if err != nil {
				return "", err
			}
			text = obs.Text
			st.URLs = obs.URLs
			for _, id := range obs.Entities {
				if targets[id] {
					st.Observed = append(st.Observed, id)
					if !seen[id] {
						seen[id] = true
						st.New = append(st.New, id)
					}
				}
			}
			st.Valid = len(st.New) > 0
		}
		s.Steps = append(s.Steps, st)
		s.Observations = append(s.Observations, obs)
		return text, nil
	}
	for turn := 0; ; turn++ {
		if err := ctx.Err(); err != nil {
			return finish(EndCanceled, err)
		}
		if turn >= o.MaxSteps {
			return finish(EndMaxSteps, nil)
		}
		if o.MaxDuration > 0 && time.Since(start) > o.MaxDuration {
			return finish(EndTimeout, nil)
		}
		t0 := time.Now()
		r, err := p.Next(ctx, s)
		run.ModelMS += ms(time.Since(t0))
		run.ModelCalls++
		if err != nil {
			return fail(err)
		}
		run.Retries += r.Retries
		tr.Tokens.add(r)
		msg := Message{Role: RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls}
		s.Messages = append(s.Messages, msg)
		if ans, ok := ParseAnswer(r.Content); ok && len(r.ToolCalls) == 0 {
			tr.Answer = ans
			tr.Table = ParseTable(ans)
			return finish(EndAnswer, nil)
		}
		if len(r.ToolCalls) > 0 {
			for _, tc := range r.ToolCalls {
				text, err := exec(checkCall(tc.ID, tc.Name, json.RawMessage(tc.Arguments), true))
				if err != nil {
					return fail(err)
				}
				s.Messages = append(s.Messages, Message{Role: RoleTool, Content: text, ToolCallID: tc.ID})
			}
		} else {
			calls := parseTextCalls(r.Content)
			c, wrap := call{err: msgNoCall}, ToolResponse
			switch {
			case len(calls) > 0:
				c = calls[0] // Tongyi runs the first call of a turn
			case o.Protocol == ProtocolNative:
				// A native model told of tags it was never shown would
				// be misled: the error in its own terms, untagged.
				c, wrap = call{err: msgNoCallNative}, func(s string) string { return s }
			}
			text, err := exec(c)
			if err != nil {
				return fail(err)
			}
			s.Messages = append(s.Messages, Message{Role: RoleUser, Content: wrap(text)})
		}
		if r.PromptTokens+r.CompletionTokens > o.MaxTokens {
			return finish(EndMaxTokens, nil)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// estimateTokens is the token estimate of built-in policies: ceil(bytes/4).
func estimateTokens(s string) int { return (len(s) + 3) / 4 }

// builtinReply wraps a built-in policy's text with estimated token counts.
func builtinReply(s *State, content string) *ChatResponse {
	n := 0
	for _, m := range s.Messages {
		n += estimateTokens(m.Content)
	}
	return &ChatResponse{Content: content, PromptTokens: n, CompletionTokens: estimateTokens(content), Estimated: true}
}

// textCall renders a text-protocol turn: a thought and one tool call.
func textCall(thought, name string, args any) string {
	b, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
	return "<think>\n" + thought + "\n</think>\n<tool_call>\n" + string(b) + "\n</tool_call>"
}

// textAnswer renders a final turn: a thought and the answer.
func textAnswer(thought, answer string) string {
	return "<think>\n" + thought + "\n</think>\n<answer>\n" + answer + "\n</answer>"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
