package export

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/task"
)

// The exact-match reward of Search-R1 (verl/utils/reward_score/qa_em.py)
// and of skyrl-gym's search env (skyrl_gym/envs/search/utils.py), which
// score the search-r1 and skyrl rows: the last <answer> of the prompt and
// response together (the prompt's own instruction holds the first), lower
// case, without punctuation or articles, equal to one of
// ground_truth["target"].
var (
	answerRe   = regexp.MustCompile(`(?s)<answer>(.*?)</answer>`)
	articlesRe = regexp.MustCompile(`\b(a|an|the)\b`)
)

func normalizeAnswer(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r) {
			return -1
		}
		return r
	}, s)
	s = articlesRe.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(s), " ")
}

func exactMatchScore(solution string, targets []string) int {
	m := answerRe.FindAllStringSubmatch(solution, -1)
	if len(m) <= 1 {
		return 0
	}
	got := normalizeAnswer(strings.TrimSpace(m[len(m)-1][1]))
	for _, t := range targets {
		if normalizeAnswer(t) == got {
			return 1
		}
	}
	return 0
}

// TestExactTargets checks that the exported rows give the exact-match
// scorers full reward for the complete answer in the form the prompt asks
// for, and none for one entity, a partial table or the rows out of order.
func TestExactTargets(t *testing.T) {
	src := sampleSource(t)
	out := filepath.Join(t.TempDir(), "sr1.parquet")
	if err := mustDataset(t, "search-r1").WriteDataset(context.Background(), src, out); err != nil {
		t.Fatal(err)
	}
	rows, _ := readArrow(t, out)
	checked := 0
	for i, tk := range src.Tasks {
		msgs := rows[i]["prompt"].([]any)
		user := msgs[0].(map[string]any)["content"].(string)
		var targets []string
		for _, v := range nested(rows[i], "reward_model", "ground_truth")["target"].([]any) {
			targets = append(targets, v.(string))
		}
		if rows[i]["data_source"] != "nq" {
			t.Errorf("data_source %v: Search-R1's trainer scores only its own QA sets", rows[i]["data_source"])
		}
		score := func(answer string) int { return exactMatchScore(user+"<answer>"+answer+"</answer>", targets) }
		if tk.Answer.Aggregate != nil {
			if score(tk.Answer.Aggregate.Value) != 1 {
				t.Errorf("%s: the aggregate's value %q scores 0", tk.ID, tk.Answer.Aggregate.Value)
			}
			continue
		}
		// The complete answer, laid out a little differently (the scorer
		// drops punctuation without a space, so "|A|B|" would read "ab":
		// cells must stay spaced, as markdown tables usually are).
		canon := CanonicalTable(tk.Answer)
		relaid := "\n" + strings.NewReplacer(" | ", "  |  ", "---", " :--- ", "\n", " \n").Replace(canon) + "\n"
		if score(relaid) != 1 {
			t.Errorf("%s: the complete table scores 0:\n%s\ntargets %q", tk.ID, relaid, targets)
		}
		if !strings.Contains(user, AnswerForm(tk, true)) || !strings.Contains(user, "alphabetical order") {
			t.Errorf("%s: the prompt does not give the answer's form: %q", tk.ID, user)
		}
		for _, name := range targetNames(tk) {
			if score(name) != 0 {
				t.Errorf("%s: the single entity %q scores 1", tk.ID, name)
			}
		}
		if len(tk.Answer.Rows) > 1 {
			part := task.Answer{Columns: tk.Answer.Columns, Rows: tk.Answer.Rows[1:]}
			if score(CanonicalTable(part)) != 0 {
				t.Errorf("%s: a table missing a row scores 1", tk.ID)
			}
			rev := task.Answer{Columns: tk.Answer.Columns}
			for j := len(tk.Answer.Rows) - 1; j >= 0; j-- {
				rev.Rows = append(rev.Rows, tk.Answer.Rows[j])
			}
			if CanonicalTable(rev) != canon {
				t.Errorf("%s: the canonical table depends on the rows' order", tk.ID)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no table task in the sample")
	}
}

func TestCanonicalTable(t *testing.T) {
	a := task.Answer{Columns: []string{"Player", "Score"}, Rows: [][]string{
		{"darren Gough", "34; 20"}, {"Zsófia Nagy", "1"}, {"Anthony McGrath", "144; 72*; 105"}, {"Ľudmila Cervanová", "2"}, {"Azeem Rafiq", "0"}}}
	want := "| Player | Score |\n|---|---|\n| Anthony McGrath | 105; 144; 72* |\n| Azeem Rafiq | 0 |\n| darren Gough | 20; 34 |\n| Ľudmila Cervanová | 2 |\n| Zsófia Nagy | 1 |"
	if got := CanonicalTable(a); got != want {
		t.Errorf("CanonicalTable:\n%s\nwant\n%s", got, want)
	}
}

func TestAnswerForm(t *testing.T) {
	table := &task.Task{Answer: task.Answer{Columns: []string{"Player", "Score"}}}
	agg := &task.Task{Answer: task.Answer{Columns: []string{"Player"}, Aggregate: &task.Aggregate{Op: "count", Value: "12"}}}
	member := &task.Task{Answer: task.Answer{Columns: []string{"Player"}, Aggregate: &task.Aggregate{Op: "member", Column: "X", Value: "false"}}}
	if got := ExactTargets(member); strings.Join(got, ",") != "no,false" {
		t.Errorf("member targets %q, want no and false", got)
	}
	for _, tc := range []struct {
		t     *task.Task
		exact bool
		has   []string
		not   []string
	}{
		{table, true, []string{"columns Player, Score", "alphabetical order"}, nil},
		{table, false, []string{"columns Player, Score"}, []string{"alphabetical", "value"}},
		// Exact match takes the value alone; leaper's reward scores the
		// entities of the table, so it asks for the table and the value.
		{agg, true, []string{"only the number"}, []string{"table"}},
		{member, true, []string{"only yes or no"}, []string{"table"}},
		{agg, false, []string{"markdown table with the columns Player", "after the table the value"}, nil},
	} {
		got := AnswerForm(tc.t, tc.exact)
		for _, h := range tc.has {
			if !strings.Contains(got, h) {
				t.Errorf("AnswerForm(exact %v) = %q, lacks %q", tc.exact, got, h)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("AnswerForm(exact %v) = %q, has %q", tc.exact, got, n)
			}
		}
	}
}

// TestCanonicalTables checks that the orders "alphabetical" may mean each
// give a target, all of them complete answers.
func TestCanonicalTables(t *testing.T) {
	a := task.Answer{Columns: []string{"Club", "Gap"}, Rows: [][]string{
		{"Vittsjö GIK", "+10.941; +1:12.741"}, {"Víðir", "1"}, {"ängelholms FF", "2"}}}
	got := CanonicalTables(a)
	if len(got) != 3 || got[0] != CanonicalTable(a) {
		t.Fatalf("%d tables:\n%s", len(got), strings.Join(got, "\n\n"))
	}
	// Collation: ð is a d, Ä an A; "+1:" before "+10" (punctuation first).
	if !strings.Contains(got[0], "| ängelholms FF | 2 |\n| Víðir | 1 |\n| Vittsjö GIK | +1:12.741; +10.941 |") {
		t.Errorf("collation order:\n%s", got[0])
	}
	// Folded code points: ð after t, "+10" before "+1:".
	if !strings.Contains(got[1], "| Vittsjö GIK | +10.941; +1:12.741 |\n| Víðir | 1 |") {
		t.Errorf("folded order:\n%s", got[1])
	}
	for _, tb := range got {
		lines := strings.Split(tb, "\n")
		if len(lines) != 2+len(a.Rows) {
			t.Errorf("a target is not the whole table:\n%s", tb)
		}
	}
}

func TestCanonicalTablesCases(t *testing.T) {
	// Lower-cased code points put ä after z; collation and folding do not.
	a := task.Answer{Columns: []string{"Club"}, Rows: [][]string{{"Zeta"}, {"Ängelholms FF"}, {"alpha"}}}
	if got := CanonicalTables(a); !slices.Contains(got, "| Club |\n|---|\n| alpha |\n| Zeta |\n| Ängelholms FF |") {
		t.Errorf("no lower-cased code point order among:\n%s", strings.Join(got, "\n\n"))
	}
	// A value twice in a cell is written once.
	b := task.Answer{Columns: []string{"Club", "City"}, Rows: [][]string{{"IFK", "Karlstad; Gothenburg; Karlstad"}}}
	if got := CanonicalTable(b); got != "| Club | City |\n|---|---|\n| IFK | Gothenburg; Karlstad |" {
		t.Errorf("duplicate values: %q", got)
	}
	if got := ColumnList([]string{"Name, and code", "Date"}); got != `"Name, and code", "Date"` {
		t.Errorf("ColumnList with a comma: %s", got)
	}
	if got := ColumnList([]string{"Name", "Date"}); got != "Name, Date" {
		t.Errorf("ColumnList: %s", got)
	}
}
