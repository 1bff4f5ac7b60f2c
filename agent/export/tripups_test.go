package export

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/leaper-dev/leaper/task"
)

// asearcherF1 is ASearcher's reward (AReaL/ASearcher/utils/rewards.py
// compute_score_f1 with f1_score): the best over the ground truths of the
// token-set F1 of the last <answer>, after bool_mapping ("True" → yes,
// "False" → no, and nothing else), punctuation turned to spaces and lower
// case.
func asearcherF1(solution string, truths []string) float64 {
	m := regexp.MustCompile(`(?s)<answer>(.*?)</answer>`).FindAllStringSubmatch(solution, -1)
	if len(m) == 0 {
		return 0
	}
	boolMap := func(s string) string {
		switch s {
		case "True":
			return "yes"
		case "False":
			return "no"
		}
		return s
	}
	norm := func(s string) map[string]bool {
		s = strings.Map(func(r rune) rune {
			if r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r) {
				return ' '
			}
			return r
		}, boolMap(s))
		set := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(s)) {
			set[w] = true
		}
		return set
	}
	pred := norm(strings.TrimSpace(m[len(m)-1][1]))
	best := 0.0
	for _, gt := range truths {
		g := norm(gt)
		if len(g) == 0 || len(pred) == 0 {
			continue
		}
		common := 0
		for w := range pred {
			if g[w] {
				common++
			}
		}
		if common == 0 {
			continue
		}
		p, r := float64(common)/float64(len(pred)), float64(common)/float64(len(g))
		best = max(best, 2*p*r/(p+r))
	}
	return best
}

// memberTask is a sample task made a member question ("is X one of
// them?") with the engine's value v.
func memberTask(t *testing.T, v string) *task.Task {
	tk := *sampleSource(t).Tasks[0]
	tk.Answer.Aggregate = &task.Aggregate{Op: task.AggMember, Value: v}
	return &tk
}

// TestASearcherYesNo writes member questions as ASearcher reads them and
// scores answers with its F1: yes (or true) for a true one, no (or false)
// for a false one, each 1; the other word 0.
func TestASearcherYesNo(t *testing.T) {
	for _, c := range []struct{ value, right, wrong string }{{"true", "yes", "no"}, {"false", "no", "yes"}} {
		tk := memberTask(t, c.value)
		out := filepath.Join(t.TempDir(), "as.jsonl")
		if err := mustDataset(t, "asearcher").WriteDataset(context.Background(), &Source{Tasks: []*task.Task{tk}}, out); err != nil {
			t.Fatal(err)
		}
		it := readLines[ASearcherItem](t, out)[0]
		for _, a := range []string{c.right, c.value, strings.ToUpper(c.right[:1]) + c.right[1:]} {
			if f := asearcherF1("<answer>"+a+"</answer>", it.Answer); f != 1 {
				t.Errorf("member %s: answer %q scores %v against %q", c.value, a, f, it.Answer)
			}
		}
		if f := asearcherF1("<answer>"+c.wrong+"</answer>", it.Answer); f != 0 {
			t.Errorf("member %s: answer %q scores %v", c.value, c.wrong, f)
		}
		if !strings.Contains(it.Question, "yes or no") {
			t.Errorf("member question does not state the answer's form: %q", it.Question)
		}
	}
}

// TestExactTargetsPlainNames: the exact-match rows of Search-R1 and SkyRL
// accept a name with Wikipedia's disambiguator and without it, and the
// asearcher answer both.
func TestExactTargetsPlainNames(t *testing.T) {
	tk := &task.Task{ID: "t", Question: "Which films?", Answer: task.Answer{
		Columns: []string{"Film", "Director"},
		Rows:    [][]string{{"Hereafter (film)", "Clint Eastwood"}, {"Invictus (film)", "Clint Eastwood"}}}}
	targets := ExactTargets(tk)
	for _, a := range []string{
		"| Film | Director |\n|---|---|\n| Hereafter (film) | Clint Eastwood |\n| Invictus (film) | Clint Eastwood |",
		"| Film | Director |\n|---|---|\n| Hereafter | Clint Eastwood |\n| Invictus | Clint Eastwood |",
	} {
		if exactMatchScore("<answer>x</answer><answer>"+a+"</answer>", targets) != 1 {
			t.Errorf("%q not accepted by %q", a, targets)
		}
	}
	if exactMatchScore("<answer>x</answer><answer>| Film | Director |\n|---|---|\n| Hereafter | Clint Eastwood |</answer>", targets) != 0 {
		t.Errorf("a partial table accepted")
	}
	for in, want := range map[string]string{"Hereafter (film)": "Hereafter", "Paris": "Paris", "(1999)": "(1999)",
		"Ford (1996 (b))": "Ford (1996 (b))", "Georgia (U.S. state)": "Georgia"} {
		if got := PlainName(in); got != want {
			t.Errorf("PlainName(%q) = %q, want %q", in, got, want)
		}
	}
	tk.Targets = []task.Target{{Name: "Hereafter (film)", Layer: 2}, {Name: "Clint Eastwood", Layer: 3}}
	it := ASearcher(tk)
	if f := asearcherF1("<answer>Hereafter, Clint Eastwood</answer>", it.Answer); f != 1 {
		t.Errorf("plain names score %v against %q", f, it.Answer)
	}
}

// TestPromptsStateForm: every export's prompt states the answer's form,
// aggregates too (the asearcher question for ASearcher's F1, its prompt
// for OpenRLHF's /get_reward, which wants the table before the value).
func TestPromptsStateForm(t *testing.T) {
	tk := *sampleSource(t).Tasks[0]
	tk.Answer.Aggregate = &task.Aggregate{Op: task.AggCount, Value: "7"}
	it := ASearcher(&tk)
	if !strings.Contains(it.Question, "only the number") || !strings.Contains(it.Prompt, "after the table the value") {
		t.Errorf("aggregate asearcher item: question %q prompt %q", it.Question, it.Prompt)
	}
	if q := BCPQuery(&tk); !strings.Contains(q, "after the table the value") || strings.Contains(q, "\n") {
		t.Errorf("browsecomp-plus query %q", q)
	}
}
