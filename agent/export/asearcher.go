package export

import (
	"context"
	"strings"

	"github.com/leaper-dev/leaper/query"
)

// The asearcher format: JSONL training data for ASearcher (AReaL).
func init() { RegisterDataset(asearcher{}) }

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

func (asearcher) Doc() string {
	return `asearcher: JSONL for ASearcher's trainer: id, question, answer (the answer
table as markdown), aug_answer (the target names; an aggregate's value).`
}

func (asearcher) WriteDataset(ctx context.Context, src *Source, out string) error {
	return writeJSONL(ctx, src, out, func(t *query.Task) any {
		aug := []string{strings.Join(targetNames(t), ", ")}
		if a := t.Answer.Aggregate; a != nil && a.Value != "" {
			aug = append(aug, a.Value)
		}
		return ASearcherItem{ID: t.ID, Question: t.Question, Answer: MarkdownTable(t.Answer), AugAnswer: aug}
	})
}
