package agent

import (
	"context"
	"fmt"
)

// Replay is a ChatModel that answers with the assistant turns recorded in
// trajectories, so that a ModelPolicy over it takes the recorded actions
// again, without the model, and its tool calls are answered anew by the
// backend. A conversation is matched to its trajectory by its first user
// message (the task's prompt); its n-th request gets the n-th recorded
// assistant turn.
type Replay struct {
	turns map[string][]Message
}

// NewReplay returns a Replay of trs. Two trajectories with the same
// prompt must record the same turns.
func NewReplay(trs []*Trajectory) (*Replay, error) {
	r := &Replay{turns: map[string][]Message{}}
	for _, t := range trs {
		prompt, turns := "", []Message(nil)
		for _, m := range t.Messages {
			switch {
			case m.Role == RoleUser && prompt == "":
				prompt = m.Content
			case m.Role == RoleAssistant:
				turns = append(turns, m)
			}
		}
		if prompt == "" {
			return nil, fmt.Errorf("agent: replay: trajectory of task %s has no user prompt", t.TaskID)
		}
		if old, ok := r.turns[prompt]; ok && len(old) != len(turns) {
			return nil, fmt.Errorf("agent: replay: task %s: two trajectories of the same prompt differ", t.TaskID)
		}
		r.turns[prompt] = turns
	}
	return r, nil
}

// Chat answers with the recorded turn the conversation is at.
func (r *Replay) Chat(_ context.Context, req *ChatRequest) (*ChatResponse, error) {
	prompt, n := "", 0
	for _, m := range req.Messages {
		switch {
		case m.Role == RoleUser && prompt == "":
			prompt = m.Content
		case m.Role == RoleAssistant:
			n++
		}
	}
	turns, ok := r.turns[prompt]
	if !ok {
		return nil, fmt.Errorf("%w: no recorded trajectory has this prompt", ErrReplayMiss)
	}
	if n >= len(turns) {
		return nil, fmt.Errorf("%w: the recorded trajectory has %d assistant turns; this is turn %d (the observations differ from the recording)", ErrReplayMiss, len(turns), n+1)
	}
	m := turns[n]
	return &ChatResponse{Content: m.Content, ToolCalls: m.ToolCalls, FinishReason: "stop", Estimated: true}, nil
}
