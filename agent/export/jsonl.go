package export

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/leaper-dev/leaper/query"
)

func init() {
	register(asearcher{})
	register(widesearch{})
}

func sprintfTemplate(q string) string { return fmt.Sprintf(SearchR1Template, q) }

// ASearcherItem is a line of the asearcher format (ASearcher's training
// data: id, question, answer, aug_answer).
type ASearcherItem struct {
	ID        string   `json:"id"`
	Question  string   `json:"question"`
	Answer    string   `json:"answer"`
	AugAnswer []string `json:"aug_answer"`
}

type asearcher struct{}

func (asearcher) Name() string { return "asearcher" }
func (asearcher) Dir() bool    { return false }

func (asearcher) Write(ctx context.Context, src *Source, out string) error {
	return writeJSONL(ctx, src, out, func(t *query.Task) any {
		aug := []string{strings.Join(targetNames(t), ", ")}
		if a := t.Answer.Aggregate; a != nil && a.Value != "" {
			aug = append(aug, a.Value)
		}
		return ASearcherItem{ID: t.ID, Question: t.Question, Answer: MarkdownTable(t.Answer), AugAnswer: aug}
	})
}

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

func (widesearch) Write(ctx context.Context, src *Source, out string) error {
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

// writeJSONL writes one line per task to out ("-" or "": nowhere but the
// returned error; the command passes a file).
func writeJSONL(ctx context.Context, src *Source, out string, item func(*query.Task) any) error {
	if len(src.Tasks) == 0 {
		return ErrNoTasks
	}
	tmp := out + ".tmp"
	fh, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	bw := bufio.NewWriter(fh)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, t := range src.Tasks {
		if err = ctx.Err(); err != nil {
			break
		}
		if err = enc.Encode(item(t)); err != nil {
			break
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("export: %s: %w", out, err)
	}
	return os.Rename(tmp, out)
}
