package export

import (
	"context"

	"github.com/leaper-dev/leaper/query"
)

// The widesearch format: tasks in WideSearch's shape, for its evaluator.
func init() { RegisterDataset(widesearch{}) }

// WideSearchItem is a line of the widesearch format: WideSearch's task
// with its gold table as markdown and its evaluation settings.
type WideSearchItem struct {
	InstanceID string     `json:"instance_id"`
	Query      string     `json:"query"`
	Language   string     `json:"language"`
	Answer     string     `json:"answer"`
	Evaluation Evaluation `json:"evaluation"`
}

// Evaluation is WideSearch's evaluation block: rows align on the unique
// columns; required are the columns an answer must have.
type Evaluation struct {
	UniqueColumns []string                  `json:"unique_columns"`
	Required      []string                  `json:"required"`
	EvalPipeline  map[string]ColumnPipeline `json:"eval_pipeline"`
}

// ColumnPipeline is how one column is compared.
type ColumnPipeline struct {
	Preprocess []string `json:"preprocess"`
	Metric     []string `json:"metric"`
}

type widesearch struct{}

func (widesearch) Name() string { return "widesearch" }
func (widesearch) Dir() bool    { return false }

func (widesearch) Doc() string {
	return `widesearch: JSONL in WideSearch's task shape: instance_id, query, language,
answer (markdown table), evaluation {unique_columns (the key column), required
(every column), eval_pipeline}.`
}

func (widesearch) WriteDataset(ctx context.Context, src *Source, out string) error {
	return writeJSONL(ctx, src, out, func(t *query.Task) any {
		cols := t.Answer.Columns
		unique := []string{}
		if len(cols) > 0 {
			unique = []string{cols[0]}
		}
		pipe := map[string]ColumnPipeline{}
		for _, c := range cols {
			pipe[c] = ColumnPipeline{Preprocess: []string{"norm_str"}, Metric: []string{"exact_match"}}
		}
		return WideSearchItem{InstanceID: t.ID, Query: t.Question, Language: "en", Answer: MarkdownTable(t.Answer),
			Evaluation: Evaluation{UniqueColumns: unique, Required: append([]string{}, cols...), EvalPipeline: pipe}}
	})
}
