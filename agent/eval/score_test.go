package eval_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web/webtest"
)

func TestEvalSimilarity(t *testing.T) {
	tests := []struct {
		a, b     string
		min, max float64
	}{
		{"Czesław Miłosz", "czeslaw milosz", 1, 1},
		{"WilliamGolding", "William Golding", 1, 1}, // lost spaces
		{"The Beatles", "Beatles", 1, 1},
		{"1,983", "1983", 1, 1},
		{"27:03.87", "27:03.87", 1, 1},
		{"100.0", "100.5", 0.9, 0.9},
		{"12 March 1983", "1983-03-12", 1, 1},
		{"12 March 1983", "1983-03-15", 0.5, 0.5},
		{"23 settembre 1981", "23 September 1981", 1, 1}, // a gold date as an Italian table writes it
		{"June 10, 2015", "10 June 2015", 1, 1},
		{"10 June, 2015", "2015-06-10", 1, 1},
		{"June 2015", "2015-06-01", 0.5, 0.5}, // a month against a day of it
		{"12/03/1983", "1983-03-12", 1, 1},
		{"52.60", "52.6", 1, 1},
		{"Golding", "William Golding", 0.6, 0.7},
		{"Paul Tergat", "Haile Gebrselassie", 0, 0},
		{"", "x", 0, 0},
	}
	for _, tc := range tests {
		if s := eval.Similarity(tc.a, tc.b); s < tc.min-1e-9 || s > tc.max+1e-9 {
			t.Errorf("s(%q, %q) = %.3f, want [%g, %g]", tc.a, tc.b, s, tc.min, tc.max)
		}
	}
}

func TestEvalScore(t *testing.T) {
	tk := &task.Task{
		Answer: task.Answer{Columns: []string{"Name", "Country", "Year"}, Rows: [][]string{
			{"Czesław Miłosz", "Poland", "1980"}, {"Elias Canetti", "Bulgaria; United Kingdom", "1981"}, {"William Golding", "United Kingdom", "1983"}}},
		Targets: []task.Target{{Entity: 1, Name: "Czesław Miłosz"}, {Entity: 2, Name: "Elias Canetti"}, {Entity: 3, Name: "William Golding"},
			{Entity: 4, Name: "Poland"}, {Entity: 5, Name: "Bulgaria"}, {Entity: 6, Name: "United Kingdom"},
			{Entity: 7, Name: "1980"}, {Entity: 8, Name: "1981"}, {Entity: 9, Name: "1983"}},
	}
	exact := "| Name | Country | Year |\n|---|---|---|\n| Czeslaw Milosz | Poland | 1980 |\n| Elias Canetti | United Kingdom; Bulgaria | 1981 |\n| WilliamGolding | United Kingdom | 1983 |"
	tests := []struct {
		name          string
		answer        string
		success       bool
		rowF1, itemF1 float64
		f             float64 // -1: only checked to be in (0,1)
	}{
		{"exact after normalisation", "<answer>\n" + exact + "\n</answer>", true, 1, 1, 1},
		{"reordered columns and rows", "| Year | Name | Country |\n|--|--|--|\n| 1983 | William Golding | United Kingdom |\n| 1980 | Czesław Miłosz | Poland |\n| 1981 | Elias Canetti | Bulgaria; United Kingdom |", true, 1, 1, 1},
		{"one row missing", "| Name | Country | Year |\n|---|---|---|\n| Czesław Miłosz | Poland | 1980 |\n| William Golding | United Kingdom | 1983 |", false, 0.8, 0.8, -1},
		{"one wrong cell", "| Name | Country | Year |\n|---|---|---|\n| Czesław Miłosz | Poland | 1980 |\n| Elias Canetti | Bulgaria; United Kingdom | 1981 |\n| William Golding | United Kingdom | 1993 |", false, 2.0 / 3, 8.0 / 9, -1},
		{"no table", "I could not find it.", false, 0, 0, 0},
		{"header only", "| Name | Country | Year |\n|---|---|---|", false, 0, 0, 0},
		{"empty", "", false, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := eval.Score(tk, tc.answer, nil)
			if _, err := json.Marshal(s); err != nil {
				t.Fatal(err) // NaN
			}
			if s.Success != tc.success || math.Abs(s.RowF1-tc.rowF1) > 1e-9 || math.Abs(s.ItemF1-tc.itemF1) > 1e-9 {
				t.Errorf("success %v rowF1 %.3f itemF1 %.3f, want %v %.3f %.3f", s.Success, s.RowF1, s.ItemF1, tc.success, tc.rowF1, tc.itemF1)
			}
			if tc.f >= 0 && math.Abs(s.F-tc.f) > 1e-9 || tc.f < 0 && (s.F <= 0 || s.F >= 1) {
				t.Errorf("F = %.3f (P %.3f R %.3f), want %g", s.F, s.Precision, s.Recall, tc.f)
			}
		})
	}
	// ω > 1 favours recall: a precise but incomplete answer scores lower.
	partial := "| Name |\n|---|\n| Czesław Miłosz |"
	f1 := (&eval.Scorer{Omega: 1}).Score(tk, partial, nil).F
	f2 := (&eval.Scorer{Omega: 2}).Score(tk, partial, nil).F
	if !(f2 < f1) {
		t.Errorf("F(ω=2) %.3f not below F(ω=1) %.3f", f2, f1)
	}
}

func TestEvalParse(t *testing.T) {
	tab := agent.ParseTable("text\n| a | b \\| c |\n| --- | :-: |\n| 1 | 2 |\n|3|4|\n\nafter")
	if tab == nil || len(tab.Columns) != 2 || tab.Columns[1] != "b | c" || len(tab.Rows) != 2 || tab.Rows[1][1] != "4" {
		t.Fatalf("table %+v", tab)
	}
	if agent.ParseTable("| not | a table |\nno separator") != nil {
		t.Errorf("table without separator parsed")
	}
	if got := agent.ParseTable(tab.Markdown()); got == nil || got.Columns[1] != "b | c" || len(got.Rows) != 2 {
		t.Errorf("markdown round trip %+v", got)
	}
}

func TestRolloutNaive(t *testing.T) {
	w := webtest.OpenWeb(t)
	b := w
	tk := agenttest.Tasks(t, w.Store().Graph(), 1)[0]
	tr, err := agent.Run(context.Background(), tk, &agent.Naive{Visits: 3}, b, &agent.Options{Deterministic: true})
	if err != nil {
		t.Fatal(err)
	}
	if tr.End != agent.EndAnswer || tr.Steps[0].Tool != "search" || len(tr.Steps) > 4 || tr.Table == nil {
		t.Fatalf("naive: end %s, %d steps, table %v", tr.End, len(tr.Steps), tr.Table)
	}
	t.Logf("naive: ISR %.3f ISE %.2f valid %.2f steps %d", tr.Metrics.ISR, tr.Metrics.ISE, tr.Metrics.ValidRate, tr.Metrics.Steps)
}

// TestEvalAggregate checks that an aggregate task's answer earns its reward
// only with the value: alone (as exact-match formats ask) it succeeds, and
// after the table (as the verl prompt asks) the table's F counts only when
// the value is right.
func TestEvalAggregate(t *testing.T) {
	tk := &task.Task{
		ID: "agg", Variant: task.Basic,
		Targets: []task.Target{{Entity: 1, Name: "Hardy Dam"}, {Entity: 2, Name: "Tippy Dam"}, {Entity: 3, Name: "Croton Dam"}},
		Answer: task.Answer{Columns: []string{"Dam"}, Rows: [][]string{{"Hardy Dam"}, {"Tippy Dam"}, {"Croton Dam"}},
			Aggregate: &task.Aggregate{Op: "count", Value: "3"}},
	}
	table := "| Dam |\n|---|\n| Hardy Dam |\n| Tippy Dam |\n| Croton Dam |"
	for _, tc := range []struct {
		answer  string
		ok      bool
		success bool
		reward  float64
	}{
		{table + "\n\n3", true, true, 1},
		{table + "\n\nThere are 3 of them.", true, true, 1},
		{"3\n\n" + table, true, true, 1},
		{table + "\n\n999", false, false, 0},
		{table, false, false, 0},
		{"3", true, true, 0}, // the value alone: success, but no entities named
		{"999", false, false, 0},
	} {
		s := eval.Score(tk, "<answer>"+tc.answer+"</answer>", nil)
		if s.ValueOK != tc.ok || s.Success != tc.success || math.Abs(s.Reward-tc.reward) > 1e-9 {
			t.Errorf("%q: value_ok %v success %v reward %v; want %v %v %v", tc.answer, s.ValueOK, s.Success, s.Reward, tc.ok, tc.success, tc.reward)
		}
	}
	member := *tk
	member.Answer.Aggregate = &task.Aggregate{Op: "member", Column: "Hardy Dam", Value: "true"}
	for answer, ok := range map[string]bool{"Yes": true, "true": true, "No": false, "yes and no": false, table + "\n\nYes, it is.": true} {
		if s := eval.Score(&member, answer, nil); s.ValueOK != ok {
			t.Errorf("member %q: value_ok %v, want %v", answer, s.ValueOK, ok)
		}
	}
}

// TestEvalAggregateStrict holds the value check to what the question asks:
// an exact number, the listed entities and no other, yes or no.
func TestEvalAggregateStrict(t *testing.T) {
	rows := [][]string{{"Hardy Dam", "30"}, {"Tippy Dam", "20"}, {"Hodenpyl Hydro", "18"}, {"Cooke Dam", "9"}, {"Foote Dam", "9"}}
	tk := func(op, col, value string) *task.Task {
		return &task.Task{Answer: task.Answer{Columns: []string{"Dam", "Power"}, Rows: rows,
			Aggregate: &task.Aggregate{Op: op, Column: col, Value: value}}}
	}
	for _, tc := range []struct {
		tk     *task.Task
		answer string
		ok     bool
	}{
		{tk("count", "?", "156"), "157", false},
		{tk("count", "?", "156"), "155", false},
		{tk("count", "?", "156"), "156", true},
		{tk("count", "?", "1560"), "1,560", true},
		{tk("countdiff", "1-2", "9"), "-9", false},
		{tk("countdiff", "1-2", "9"), "Hiroshima, by 9", true},
		{tk("top", "Y", "Hardy Dam; Tippy Dam; Hodenpyl Hydro"), "Hardy Dam; Tippy Dam; Hodenpyl Hydro; Cooke Dam; Foote Dam", false},
		{tk("top", "Y", "Hardy Dam; Tippy Dam; Hodenpyl Hydro"), "Hardy Dam (30 MW), Tippy Dam (20 MW), Hodenpyl Hydro (18 MW)", true},
		{tk("top", "Y", "Hardy Dam; Tippy Dam; Hodenpyl Hydro"), "1. Hardy Dam\n2. Tippy Dam\n3. Hodenpyl Hydro", true},
		{tk("bottom", "Y", "Foote Dam"), "Not Cooke Dam but Foote Dam", false},
		{tk("bottom", "Y", "Foote Dam"), "Foote Dam", true},
		{tk("member", "No Doubt", "true"), "Yes, No Doubt is one of them.", true},
		{tk("member", "No Doubt", "true"), "No Doubt: yes", true},
		{tk("member", "Yes (band)", "false"), "No, Yes (band) is not one of them.", true},
		{tk("member", "Yes (band)", "false"), "Not among them.", true},
		{tk("member", "Yes (band)", "false"), "Yes", false},
	} {
		if s := eval.Score(tc.tk, tc.answer, nil); s.ValueOK != tc.ok {
			t.Errorf("%s %s, answer %q: value_ok %v, want %v", tc.tk.Answer.Aggregate.Op, tc.tk.Answer.Aggregate.Value, tc.answer, s.ValueOK, tc.ok)
		}
	}
}

func TestEvalAggregateNumbers(t *testing.T) {
	tk := &task.Task{Answer: task.Answer{Columns: []string{"Driver", "Q1 pos"}, Rows: [][]string{{"Jarno Trulli", "1"}, {"Fernando Alonso", "4"}},
		Aggregate: &task.Aggregate{Op: "min", Column: "Y", Value: "1"}}}
	count := &task.Task{Answer: task.Answer{Columns: []string{"Name"}, Rows: [][]string{{"A"}},
		Aggregate: &task.Aggregate{Op: "count", Column: "?", Value: "156"}}}
	table := "| Driver | Q1 pos |\n|---|---|\n| Jarno Trulli | 1 |\n| Fernando Alonso | 4 |"
	for _, tc := range []struct {
		tk     *task.Task
		answer string
		ok     bool
	}{
		{tk, table + "\n\nThe smallest Q1 pos is 4.", false},
		{tk, table + "\n\nThe smallest Q1 pos is 1.", true},
		{tk, "Driver | Q1 pos\n---|---\nJarno Trulli | 1\nFernando Alonso | 4\n\nThe smallest is 4.", false},
		{count, "155 or 156 or 157", false},
		{count, "The total is 157 (not 156).", false},
		{count, "There are 156.", true},
	} {
		if s := eval.Score(tc.tk, tc.answer, nil); s.ValueOK != tc.ok {
			t.Errorf("%q: value_ok %v, want %v", tc.answer, s.ValueOK, tc.ok)
		}
	}
}

// TestEvalNameWithSeparator: a target whose name holds the cell separator
// scores in full beside other values of its cell.
func TestEvalNameWithSeparator(t *testing.T) {
	name := "Department of Chemistry, 1955– ; Blanchard Professor of Chemistry, 1988–"
	tk := &task.Task{
		Targets: []task.Target{{Entity: 1, Name: "Alan MacDiarmid"}, {Entity: 2, Name: name}, {Entity: 3, Name: "Chemistry"}},
		Answer:  task.Answer{Columns: []string{"Laureate", "Relation"}, Rows: [][]string{{"Alan MacDiarmid", name + "; Chemistry"}}},
	}
	answer := "| Laureate | Relation |\n|---|---|\n| Alan MacDiarmid | " + name + "; Chemistry |"
	if s := eval.Score(tk, answer, nil); s.Precision < 0.999 || s.Recall < 0.999 {
		t.Errorf("P %v R %v, want 1 and 1", s.Precision, s.Recall)
	}
	// Five parts, twice in one cell (two tables' spellings).
	long := "Research Fellow in Biophysics, 1931-1936; Assistant Professor, 1936-1942; Associate Professor, 1943-1948; Professor, 1948-1949; Sc.D., 1971"
	tk.Targets[1].Name = long
	answer = "| Laureate | Relation |\n|---|---|\n| Alan MacDiarmid | " + strings.ReplaceAll(long, "-", "–") + "; " + long + "; Chemistry |"
	if s := eval.Score(tk, answer, nil); s.Precision < 0.999 || s.Recall < 0.999 {
		t.Errorf("five parts: P %v R %v, want 1 and 1", s.Precision, s.Recall)
	}
}
