package export

import (
	"context"
	"fmt"
	"io"

	"github.com/leaper-dev/leaper/task"
	"github.com/parquet-go/parquet-go"
)

// The verl and search-r1 formats: parquet training data for verl's
// multi-turn tool agent (system prompt, tools_kwargs) and for Search-R1's
// trainer (its <search> instruction in one user message). They differ only
// in prompt and ability, so they share this file.
func init() {
	RegisterDataset(verl{name: "verl"})
	RegisterDataset(verl{name: "search-r1"})
}

// Message is one chat message of a prompt column.
type Message struct {
	Role    string `parquet:"role" json:"role"`
	Content string `parquet:"content" json:"content"`
}

// GroundTruth is reward_model.ground_truth: Search-R1's {"target": [...]}
// (ExactTargets: the whole answers its exact match accepts), the task id
// leaper's reward endpoint scores against, and the answer as a markdown
// table.
type GroundTruth struct {
	Target []string `parquet:"target,list" json:"target"`
	TaskID string   `parquet:"task_id" json:"task_id"`
	Answer string   `parquet:"answer" json:"answer"`
}

// RewardModel is verl's reward_model column.
type RewardModel struct {
	Style       string      `parquet:"style" json:"style"`
	GroundTruth GroundTruth `parquet:"ground_truth" json:"ground_truth"`
}

// Tools are the settings of leaper's tools for the rollout: where the
// server is and how deep retrieval goes.
type Tools struct {
	BaseURL     string `parquet:"base_url" json:"base_url"`
	RetrieveURL string `parquet:"retrieve_url" json:"retrieve_url"`
	SearchURL   string `parquet:"search_url" json:"search_url"`
	VisitURL    string `parquet:"visit_url" json:"visit_url"`
	MCPURL      string `parquet:"mcp_url" json:"mcp_url"`
	TopK        int64  `parquet:"topk" json:"topk"`
}

// CreateKwargs are the create_kwargs verl's tools receive per sample.
type CreateKwargs struct {
	TaskID      string `parquet:"task_id" json:"task_id"`
	GroundTruth string `parquet:"ground_truth" json:"ground_truth"`
}

// ToolKwargs is one tool's entry of tools_kwargs.
type ToolKwargs struct {
	CreateKwargs CreateKwargs `parquet:"create_kwargs" json:"create_kwargs"`
}

// ToolsKwargs is verl's extra_info.tools_kwargs, by tool name.
type ToolsKwargs struct {
	Search ToolKwargs `parquet:"search" json:"search"`
	Visit  ToolKwargs `parquet:"visit" json:"visit"`
}

// ExtraInfo is verl's extra_info column.
type ExtraInfo struct {
	Index           int64       `parquet:"index" json:"index"`
	Split           string      `parquet:"split" json:"split"`
	TaskID          string      `parquet:"task_id" json:"task_id"`
	Variant         string      `parquet:"variant" json:"variant"`
	Question        string      `parquet:"question" json:"question"`
	NeedToolsKwargs bool        `parquet:"need_tools_kwargs" json:"need_tools_kwargs"`
	ToolsKwargs     ToolsKwargs `parquet:"tools_kwargs" json:"tools_kwargs"`
	Tools           Tools       `parquet:"tools" json:"tools"`
}

// VerlRow is one row of the verl and search-r1 parquet files.
type VerlRow struct {
	DataSource  string      `parquet:"data_source" json:"data_source"`
	Prompt      []Message   `parquet:"prompt,list" json:"prompt"`
	Ability     string      `parquet:"ability" json:"ability"`
	RewardModel RewardModel `parquet:"reward_model" json:"reward_model"`
	ExtraInfo   ExtraInfo   `parquet:"extra_info" json:"extra_info"`
}

// VerlToolRow is a row of the verl format: a VerlRow with agent_name, the
// agent loop verl runs the sample with ("tool_agent", the multi-turn loop
// that calls the tools of the tool config; without it verl falls back to
// its single-turn loop and no tool is ever called).
type VerlToolRow struct {
	DataSource  string      `parquet:"data_source" json:"data_source"`
	AgentName   string      `parquet:"agent_name" json:"agent_name"`
	Prompt      []Message   `parquet:"prompt,list" json:"prompt"`
	Ability     string      `parquet:"ability" json:"ability"`
	RewardModel RewardModel `parquet:"reward_model" json:"reward_model"`
	ExtraInfo   ExtraInfo   `parquet:"extra_info" json:"extra_info"`
}

// VerlAgent is the agent_name of the verl rows.
const VerlAgent = "tool_agent"

// SearchR1Template is Search-R1's instruction (search_r1's
// scripts/data_process/nq_search.py make_prefix), with the task's answer
// form (AnswerForm) and then the question.
const SearchR1Template = `Answer the given question. You must conduct reasoning inside <think> and </think> first every time you get new information. After reasoning, if you find you lack some knowledge, you can call a search engine by <search> query </search> and it will return the top searched results between <information> and </information>. You can search as many times as your want. If you find no further external knowledge needed, you can directly provide the answer inside <answer> and </answer>, without detailed illustrations. %s Question: %s
`

// SearchR1Prompt is the user message of a task in the search-r1 and skyrl
// formats.
func SearchR1Prompt(t *task.Task) string {
	return fmt.Sprintf(SearchR1Template, AnswerForm(t, true), t.Question)
}

// VerlSystem is the system prompt of the verl format, for verl's
// multi-turn tool agent loop with leaper's search and visit tools; the user
// message is the question and its answer form (AnswerForm).
const VerlSystem = "You are a research assistant. Use the search and visit tools to find every entity the question asks for, then give the final answer inside <answer> and </answer>."

type verl struct{ name string }

func (f verl) Name() string { return f.name }
func (verl) Dir() bool      { return false }

func (f verl) Doc() string {
	if f.name == "search-r1" {
		return `search-r1: parquet for Search-R1's trainer: data_source, prompt (one user
message with Search-R1's <search>/<answer> instruction), ability, reward_model
{style, ground_truth {target, task_id, answer}}, extra_info (task id, tool settings).`
	}
	return `verl: parquet for verl's tool agent: data_source, agent_name "tool_agent",
prompt (system + user messages), ability, reward_model {style, ground_truth {target, task_id, answer}},
extra_info {index, split, task_id, need_tools_kwargs, tools_kwargs, tools {base_url,
retrieve_url, search_url, visit_url, mcp_url, topk}}.`
}

func (f verl) WriteDataset(ctx context.Context, src *Source, out string) error {
	if len(src.Tasks) == 0 {
		return ErrNoTasks
	}
	rows := make([]VerlRow, 0, len(src.Tasks))
	for i, t := range src.Tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows = append(rows, f.row(src, i, t))
	}
	if f.name == "search-r1" {
		// Search-R1's loop is its own <search> text protocol.
		return writeParquet(out, rows)
	}
	tool := make([]VerlToolRow, len(rows))
	for i, r := range rows {
		tool[i] = verlToolRow(r)
	}
	return writeParquet(out, tool)
}

func verlToolRow(r VerlRow) VerlToolRow {
	return VerlToolRow{DataSource: r.DataSource, AgentName: VerlAgent, Prompt: r.Prompt, Ability: r.Ability, RewardModel: r.RewardModel, ExtraInfo: r.ExtraInfo}
}

func (f verl) row(src *Source, i int, t *task.Task) VerlRow {
	r := VerlRow{
		DataSource:  src.dataSource("leaper"),
		Ability:     "entity-dense-search",
		RewardModel: RewardModel{Style: "rule", GroundTruth: groundTruth(t)},
		ExtraInfo:   extraInfo(src, i, t),
	}
	if f.name == "search-r1" {
		r.DataSource = src.dataSource("nq")
		r.Ability = "fact-reasoning"
		r.Prompt = []Message{{Role: "user", Content: SearchR1Prompt(t)}}
		return r
	}
	r.Prompt = []Message{{Role: "system", Content: VerlSystem}, {Role: "user", Content: t.Question + "\n\n" + AnswerForm(t, false)}}
	return r
}

func groundTruth(t *task.Task) GroundTruth {
	return GroundTruth{Target: ExactTargets(t), TaskID: t.ID, Answer: MarkdownTable(t.Answer)}
}

func extraInfo(src *Source, i int, t *task.Task) ExtraInfo {
	base := src.baseURL()
	kw := ToolKwargs{CreateKwargs: CreateKwargs{TaskID: t.ID, GroundTruth: MarkdownTable(t.Answer)}}
	return ExtraInfo{
		Index: int64(i), Split: src.split(), TaskID: t.ID, Variant: string(t.Variant), Question: t.Question,
		NeedToolsKwargs: true,
		ToolsKwargs:     ToolsKwargs{Search: kw, Visit: kw},
		Tools: Tools{BaseURL: base, RetrieveURL: base + "/retrieve", SearchURL: base + "/search",
			VisitURL: base + "/visit", MCPURL: base + "/mcp", TopK: int64(src.topK())},
	}
}

// writeParquet writes rows to a parquet file, replacing it only when all
// rows are written.
func writeParquet[T any](out string, rows []T) error {
	return WriteFile(out, func(fw io.Writer) error {
		w := parquet.NewGenericWriter[T](fw, parquet.Compression(&parquet.Snappy))
		if _, err := w.Write(rows); err != nil {
			return err
		}
		return w.Close()
	})
}
