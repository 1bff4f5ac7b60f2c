package export

import (
	"encoding/json"

	"github.com/leaper-dev/leaper/agent"
)

// The sft format: one {"messages": [...]} per trajectory, in Tongyi's text
// protocol, for supervised fine-tuning.
func init() {
	Register(&Lines{
		FormatName: "sft",
		Help: `sft: one {"messages":[{"role","content"}...]} per trajectory, in Tongyi's
text protocol (native tool calls are rewritten as <tool_call> text and tool
results as <tool_response> user messages).`,
		Record: func(t *agent.Trajectory) any { return map[string]any{"messages": SFTMessages(t)} },
	})
}

// SFTMessages returns a trajectory's messages in the text protocol.
func SFTMessages(t *agent.Trajectory) []agent.Message {
	out := make([]agent.Message, 0, len(t.Messages))
	for _, m := range t.Messages {
		switch {
		case m.Role == agent.RoleAssistant && len(m.ToolCalls) > 0:
			c := m.Content
			for _, tc := range m.ToolCalls {
				var args any = json.RawMessage(tc.Arguments)
				if !json.Valid([]byte(tc.Arguments)) {
					args = tc.Arguments
				}
				b, _ := json.Marshal(map[string]any{"name": tc.Name, "arguments": args})
				if c != "" {
					c += "\n"
				}
				c += "<tool_call>\n" + string(b) + "\n</tool_call>"
			}
			out = append(out, agent.Message{Role: agent.RoleAssistant, Content: c})
		case m.Role == agent.RoleTool:
			out = append(out, agent.Message{Role: agent.RoleUser, Content: agent.ToolResponse(m.Content)})
		default:
			out = append(out, agent.Message{Role: m.Role, Content: m.Content})
		}
	}
	return out
}
