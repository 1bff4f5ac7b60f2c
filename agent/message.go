package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Roles of messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Protocol is how tools are called: ProtocolText or ProtocolNative.
type Protocol string

// Protocols of tool calling.
const (
	// ProtocolText is Tongyi DeepResearch's: tools described in the system
	// prompt, calls as <tool_call>{json}</tool_call> in the assistant text,
	// results as <tool_response> user messages.
	ProtocolText Protocol = "text"
	// ProtocolNative uses the endpoint's tool calls and tool messages.
	ProtocolNative Protocol = "native"
)

// Message is one chat message.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a native tool call: the tool's name and its JSON arguments as
// the model wrote them.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool describes a tool to the model: name, description and JSON schema of
// the arguments.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Tools are the two tools of the offline web, as Tongyi DeepResearch
// declares them.
var Tools = []Tool{
	{
		Name:        "search",
		Description: "Perform Google web searches then returns a string of the top search results. Accepts multiple queries.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"array","items":{"type":"string","description":"The search query."},"minItems":1,"description":"The list of search queries."}},"required":["query"]}`),
	},
	{
		Name:        "visit",
		Description: "Visit webpage(s) and return the summary of the content.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"url":{"type":["string","array"],"items":{"type":"string"},"minItems":1,"description":"The URL(s) of the webpage(s) to visit. Can be a single URL or an array of URLs."},"goal":{"type":"string","description":"The goal of the visit for webpage(s)."}},"required":["url","goal"]}`),
	},
}

func knownTool(name string) bool { return name == "search" || name == "visit" }

// SystemPrompt is the system message for a protocol; date is the current
// date the agent is told (fixed, so runs are reproducible).
func SystemPrompt(protocol Protocol, date string) string {
	var b strings.Builder
	b.WriteString("You are a deep research assistant. Your core function is to conduct thorough, multi-source investigations into any topic. " +
		"You must handle both broad, open-domain inquiries and queries within specialized academic fields. " +
		"For every request, synthesize information from credible, diverse sources to deliver a comprehensive, accurate, and objective response. " +
		"When you have gathered sufficient information and are ready to provide the definitive response, you must enclose the entire final answer within <answer></answer> tags. " +
		"When the question asks for several entities with attributes, give the answer as a markdown table with the requested columns, one row per entity.\n\n")
	if protocol == ProtocolText {
		b.WriteString("# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
			"You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n")
		for _, t := range Tools {
			fmt.Fprintf(&b, `{"type": "function", "function": {"name": %q, "description": %q, "parameters": %s}}`+"\n", t.Name, t.Description, t.Parameters)
		}
		b.WriteString("</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
			"<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>\n\n")
	}
	b.WriteString("Current date: " + date)
	return b.String()
}

// UserPrompt is the first user message: the question, and the columns the
// answer table should have when the task names them.
func UserPrompt(question string, columns []string) string {
	if len(columns) == 0 {
		return question
	}
	return question + "\n\nAnswer with a markdown table inside <answer></answer> with the columns: " + strings.Join(columns, ", ") + "."
}

// ToolResponse wraps an observation as the text protocol returns it.
func ToolResponse(text string) string { return "<tool_response>\n" + text + "\n</tool_response>" }

// call is a tool call parsed from a reply, or why it could not be.
type call struct {
	id   string
	name string
	args json.RawMessage // compact JSON, when valid
	err  string          // the error observation, when not runnable
}

// Error observations. The model sees them and may try again.
const (
	msgNoCall      = "Error: no tool call found. Call a tool with <tool_call>{\"name\": ..., \"arguments\": ...}</tool_call> or give the final answer inside <answer></answer>."
	msgBadJSON     = "Error: the tool call is not valid JSON (%s). Write <tool_call>{\"name\": \"search\", \"arguments\": {\"query\": [\"...\"]}}</tool_call>."
	msgUnknownTool = "Error: unknown tool %q. The available tools are search and visit."
	// With native tool calls the model knows no tags: the same errors in
	// its terms.
	msgNoCallNative  = "Error: no tool call found. Call a tool (search or visit) or give the final answer inside <answer></answer>."
	msgBadArgsNative = "Error: the arguments of the %s call are not a JSON object. Call it again with arguments such as {\"query\": [\"...\"]} for search or {\"url\": [\"...\"], \"goal\": \"...\"} for visit."
)

// extract returns the text between the first open tag and the close tag
// after it (or the end of s when unclosed).
func extract(s, open, close string) (string, bool) {
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	rest := s[i+len(open):]
	if j := strings.Index(rest, close); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest), true
}

// ParseAnswer returns the final answer of a text (the inside of its last
// <answer>, up to the </answer> after it or the end), if it has one. The
// last, because a prompt's instruction or a draft may hold an earlier one
// ("give the answer inside <answer> and </answer>").
func ParseAnswer(content string) (string, bool) {
	i := strings.LastIndex(content, "<answer>")
	if i < 0 {
		return "", false
	}
	return extract(content[i:], "<answer>", "</answer>")
}

// parseTextCalls reads the <tool_call> blocks of a reply.
func parseTextCalls(content string) []call {
	var out []call
	for s := content; ; {
		i := strings.Index(s, "<tool_call>")
		if i < 0 {
			break
		}
		s = s[i+len("<tool_call>"):]
		body := s
		if j := strings.Index(s, "</tool_call>"); j >= 0 {
			body, s = s[:j], s[j+len("</tool_call>"):]
		} else {
			s = ""
		}
		var c struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(body)), &c); err != nil {
			out = append(out, call{err: fmt.Sprintf(msgBadJSON, err)})
			continue
		}
		out = append(out, checkCall("", c.Name, c.Arguments, false))
	}
	return out
}

// checkCall validates a tool name and arguments; string-encoded arguments
// (as native calls carry them) are decoded. native says which protocol's
// words the error uses.
func checkCall(id, name string, args json.RawMessage, native bool) call {
	c := call{id: id, name: name}
	if !knownTool(name) {
		c.err = fmt.Sprintf(msgUnknownTool, name)
		return c
	}
	var s string
	if json.Unmarshal(args, &s) == nil {
		args = json.RawMessage(s)
	}
	var buf bytes.Buffer
	if len(args) == 0 || json.Compact(&buf, args) != nil {
		if native {
			c.err = fmt.Sprintf(msgBadArgsNative, name)
		} else {
			c.err = fmt.Sprintf(msgBadJSON, "arguments are not a JSON object")
		}
		return c
	}
	c.args = buf.Bytes()
	return c
}

// Table is an answer table.
type Table struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// ParseTable reads the first markdown table of a text: a header line, a
// separator line, rows. Cells are trimmed; escaped pipes are kept.
func ParseTable(text string) *Table {
	var t *Table
	sep := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if t != nil && sep {
				break
			}
			t, sep = nil, false
			continue
		}
		cells := splitRow(line)
		switch {
		case t == nil:
			t = &Table{Columns: cells}
		case !sep:
			if !isSeparator(cells) {
				t = &Table{Columns: cells}
				continue
			}
			sep = true
		default:
			t.Rows = append(t.Rows, cells)
		}
	}
	if t == nil || !sep {
		return nil
	}
	return t
}

func splitRow(line string) []string {
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, "\\|") {
		line = line[:len(line)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" || c == "" {
			return false
		}
	}
	return true
}

// Markdown renders a table as markdown, escaping pipes.
func (t *Table) Markdown() string {
	var b strings.Builder
	esc := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + esc(c) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Columns)
	b.WriteString("|")
	for range t.Columns {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
