package export

import (
	"context"
	"strings"

	"github.com/leaper-dev/leaper/task"
)

// The asearcher format: JSONL training data for ASearcher (AReaL), shaped
// as its ASearcher-Base-35k data and read as inclusionAI/ASearcher's
// ASearcher/utils/search_tool.py reads it: the id ("idx", "qid" or "id"),
// the question, and two lists of ground truths. The reward is the F1 (or
// EM) of the agent's <answer> against answer, blended 0.7/0.3 with the
// best of it and its F1 against aug_answer.
func init() { RegisterDataset(asearcher{}) }

// ASearcherItem is a line of the asearcher format.
type ASearcherItem struct {
	ID string `json:"id"`
	// Question is the question and the form ASearcher's reward scores
	// (ASearcherForm): ASearcher's agent puts it in its own prompt.
	Question string `json:"question"`
	// Prompt is the question and the form leaper's /get_reward scores
	// (AnswerForm: the table, and after it an aggregate's value), for
	// OpenRLHF's remote reward (--data.input_key prompt).
	Prompt string `json:"prompt"`
	// Answer is what the agent should answer: the target names joined by
	// ", " (ASearcher's prompt asks for several answers comma-separated),
	// or an aggregate's value (yes and true, or no and false, for a
	// member question); each also without Wikipedia's disambiguators.
	Answer []string `json:"answer"`
	// AugAnswer are other forms that also earn credit: for an aggregate
	// the names it was computed from, and always the answer table as
	// markdown. Never empty.
	AugAnswer []string `json:"aug_answer"`
}

type asearcher struct{}

func (asearcher) Name() string { return "asearcher" }
func (asearcher) Dir() bool    { return false }

func (asearcher) Doc() string {
	return `asearcher: JSONL for ASearcher's trainer (as ASearcher/utils/search_tool.py
reads it) and OpenRLHF's remote reward: id, question (with the answer's form
ASearcher scores), prompt (with the form /get_reward scores), answer (a
list: the target names joined by ", ", or an aggregate's value, also
without disambiguators), aug_answer (a list: for an aggregate the joined
names; then the answer table as markdown).`
}

func (asearcher) WriteDataset(ctx context.Context, src *Source, out string) error {
	return writeJSONL(ctx, src, out, func(t *task.Task) any { return ASearcher(t) })
}

// ASearcherForm is the sentence that tells an ASearcher agent the form of
// the answer its F1 reward compares with ASearcherItem.Answer.
func ASearcherForm(t *task.Task) string {
	if a := t.Answer.Aggregate; a != nil && a.Value != "" {
		return AnswerForm(t, true)
	}
	return "The answer lists every value of the answer table (the columns " + ColumnList(t.Answer.Columns) +
		", one row per entity), separated by \", \"."
}

// ASearcher converts a task to a line of the asearcher format.
func ASearcher(t *task.Task) ASearcherItem {
	names := strings.Join(targetNames(t), ", ")
	table := MarkdownTable(t.Answer)
	it := ASearcherItem{ID: t.ID, Question: t.Question + "\n\n" + ASearcherForm(t), Prompt: t.Question + "\n\n" + AnswerForm(t, false)}
	switch a := t.Answer.Aggregate; {
	case a != nil && a.Value != "":
		if yn := yesNo(t); yn != nil {
			it.Answer = yn
		} else {
			it.Answer = withPlain([]string{a.Value}, func(v string) string { return plainValues(v, "; ") })
		}
		if names != "" {
			it.AugAnswer = append(it.AugAnswer, names)
		}
	case names != "":
		it.Answer = withPlain([]string{names}, func(v string) string { return plainValues(v, ", ") })
	default:
		it.Answer = []string{table}
	}
	it.AugAnswer = append(it.AugAnswer, table)
	return it
}
