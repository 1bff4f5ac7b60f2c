package export

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/leaper-dev/leaper/task"
)

// The widesearch format: tasks in WideSearch's shape, as its evaluator's
// local loader reads them (ByteDance-Seed/WideSearch
// src/evaluation/data_loader.py, WideSearchDataLoader(data_path,
// answer_root)): a JSONL of queries whose evaluation names the answer's
// columns, and the gold table of each query as <answer_root>/<id>.csv. The
// loader ignores the JSONL's answer and drops a query whose CSV is missing
// or lacks a required column.
func init() { RegisterDataset(widesearch{}) }

// Files of the widesearch directory.
const (
	WideSearchTasks = "widesearch.jsonl"
	// WideSearchGold holds <instance_id>.csv, one gold table per task; the
	// name is the one of WideSearch's Hugging Face dataset.
	WideSearchGold = "widesearch_gold"
)

// WideSearchItem is a line of widesearch.jsonl: exactly the fields of
// WideSearch's WideSearchQuery (the loader builds it with **item, so any
// other field fails), with the gold table as markdown in Answer.
type WideSearchItem struct {
	InstanceID string     `json:"instance_id"`
	Query      string     `json:"query"`
	Language   string     `json:"language"`
	Answer     string     `json:"answer"`
	Evaluation Evaluation `json:"evaluation"`
}

// Evaluation is WideSearch's evaluation block: rows align on the unique
// columns; required are the columns an answer must have. Column names are
// normalised as WideSearchColumn does: the evaluator compares them with
// the gold CSV's and the answer table's normalised headers.
type Evaluation struct {
	UniqueColumns []string                  `json:"unique_columns"`
	Required      []string                  `json:"required"`
	EvalPipeline  map[string]ColumnPipeline `json:"eval_pipeline"`
}

// ColumnPipeline is how one column is compared: names from WideSearch's
// preprocess and metric registries (src/evaluation/metric_utils.py).
type ColumnPipeline struct {
	Preprocess []string `json:"preprocess"`
	Metric     []string `json:"metric"`
}

// WideSearchColumn is WideSearch's norm_column: the header trimmed,
// lower-cased and without spaces.
func WideSearchColumn(c string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(c)), " ", "")
}

type widesearch struct{}

func (widesearch) Name() string { return "widesearch" }
func (widesearch) Dir() bool    { return true }

func (widesearch) Doc() string {
	return `widesearch with --out DIR: what WideSearch's evaluator loads
(WideSearchDataLoader(DIR/widesearch.jsonl, DIR/widesearch_gold)):
widesearch.jsonl (instance_id, query (the question and the markdown table to
answer in), language, answer as a markdown table,
evaluation {unique_columns (the key column), required (every column),
eval_pipeline}, column names normalised as WideSearch's norm_column) and
widesearch_gold/<instance_id>.csv, the gold table.`
}

func (widesearch) WriteDataset(ctx context.Context, src *Source, out string) error {
	if len(src.Tasks) == 0 {
		return ErrNoTasks
	}
	gold := filepath.Join(out, WideSearchGold)
	if err := os.MkdirAll(gold, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	items := make([]any, 0, len(src.Tasks))
	for _, t := range src.Tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		it, err := wideSearchItem(t)
		if err != nil {
			return err
		}
		if err := writeGoldCSV(filepath.Join(gold, t.ID+".csv"), t.Answer); err != nil {
			return err
		}
		items = append(items, it)
	}
	return writeLines(filepath.Join(out, WideSearchTasks), items)
}

// WideSearchQuery is the query of a task as WideSearch's own queries are
// written: the question, then the table the evaluator will read, with the
// answer's columns by name (its judge matches the response table's
// headers against the required columns once normalised).
func WideSearchQuery(t *task.Task) string {
	return t.Question + "\n\nPresent the results in one Markdown table with the columns " +
		ColumnList(t.Answer.Columns) + ", one row per entity, and give no other table."
}

func wideSearchItem(t *task.Task) (*WideSearchItem, error) {
	if t.ID == "" || strings.ContainsAny(t.ID, `/\`) || t.ID == "." || t.ID == ".." {
		return nil, fmt.Errorf("export: task id %q cannot name a WideSearch gold file", t.ID)
	}
	if len(t.Answer.Columns) == 0 {
		return nil, fmt.Errorf("export: task %s: no answer columns for WideSearch", t.ID)
	}
	required := make([]string, 0, len(t.Answer.Columns))
	pipe := map[string]ColumnPipeline{}
	for _, c := range t.Answer.Columns {
		n := WideSearchColumn(c)
		if _, dup := pipe[n]; dup || n == "" {
			return nil, fmt.Errorf("export: task %s: column %q is empty or the same as another once normalised (%q), which WideSearch cannot tell apart", t.ID, c, n)
		}
		pipe[n] = ColumnPipeline{Preprocess: []string{"norm_str"}, Metric: []string{"exact_match"}}
		required = append(required, n)
	}
	return &WideSearchItem{InstanceID: t.ID, Query: WideSearchQuery(t), Language: "en", Answer: MarkdownTable(t.Answer),
		Evaluation: Evaluation{UniqueColumns: []string{required[0]}, Required: required, EvalPipeline: pipe}}, nil
}

// writeGoldCSV writes an answer table as CSV (RFC 4180, as pandas reads
// it), with the columns' own names in the header.
func writeGoldCSV(path string, a task.Answer) error {
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	w := csv.NewWriter(fh)
	w.Write(a.Columns)
	for _, r := range a.Rows {
		w.Write(r)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		fh.Close()
		return fmt.Errorf("export: %s: %w", path, err)
	}
	return fh.Close()
}
