package audit

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// maxTitlesNamed is how many page titles a question may name verbatim: a
// Basic task names its table's page, a union names its theme; a list of
// pages hands the solver the answer's path.
const maxTitlesNamed = 2

var emptyHeader = regexp.MustCompile(`\b(whose|with|their|the)\s{2,}|\s{2,}(is|as|of)\b`)

// question checks what a person reads: the question and the answer's
// values.
func (a *Auditor) question(t *task.Task, trees []*graph.Tree, r *Report) {
	q := strings.ToLower(t.Question)
	seen := map[string]bool{}
	named := 0
	var titles []string
	for _, tr := range trees {
		if IsFileTitle(tr.PageTitle) || tr.Untitled {
			r.add(FileTitle, "tree %d is on a page named by its file (%q)", tr.ID, tr.PageTitle)
		}
		titles = append(titles, tr.PageTitle)
		pt := strings.ToLower(tr.PageTitle)
		if seen[pt] || len(strings.Fields(pt)) < 2 {
			continue
		}
		seen[pt] = true
		if strings.Contains(q, pt) {
			named++
		}
	}
	if named > maxTitlesNamed {
		r.add(ListsPages, "the question names %d page titles verbatim", named)
	}
	if len(trees) > 1 {
		if _, ok := Theme(titles); !ok {
			r.add(Incoherent, "the pages share no theme: %s", clip(uniq(titles)))
		}
	}
	for _, tr := range trees {
		if rawKeys(a, tr) {
			r.add(RawClue, "the keys of tree %d (%s) are raw cells listing several names", tr.ID, tr.Title())
		}
	}
	if emptyHeader.MatchString(t.Question) {
		r.add(RawClue, "the question has an empty header")
	}
	for _, c := range t.Answer.Columns {
		if RawHeader(c) {
			r.add(RawClue, "the answer asks for %q, which is no word", c)
		}
	}
	asked := map[string]bool{}
	for _, tr := range t.Formalization {
		asked[tr.R] = true
	}
	for _, tr := range trees {
		for _, c := range tr.Columns {
			if asked[c.Name] && CountsOther(c.Header, tr.Section, tr.Caption) {
				r.add(Mismatch, "tree %d (%s) counts under %q what its title names", tr.ID, tr.Title(), c.Header)
			}
		}
	}
	for _, tr := range t.Formalization {
		if tr.S.Target || len(tr.O.Consts) == 0 || tr.R == "in_tree" || tr.R == "not_in_tree" {
			continue
		}
		if h := a.header(tr.R); RawHeader(h) {
			r.add(RawClue, "a clue is stated by %q, which is no word", h)
		}
		for _, c := range tr.O.Consts {
			if RawValue(c) {
				r.add(RawClue, "a clue is the raw cell %q", c)
			}
		}
	}
	pages := map[uint32]string{}
	for _, tr := range trees {
		pages[tr.ID] = tr.PageTitle
	}
	for _, tg := range t.Targets {
		// The title counts too: a table may write a list page as the
		// country it lists ("Ecuador" for "List of Lebanese people in
		// Ecuador"), which the answer then shows.
		if title := a.entity(tg.Entity).Name; (LinkLabel(tg.Name) || LinkLabel(title)) && r.count(LinkValue) < maxFindings {
			r.add(LinkValue, "%q (%q) is a link's label or target, not a value", tg.Name, title)
		}
		if p := pages[tg.Tree]; tg.Layer == 3 && SubPage(tg.Name, p) && r.count(LinkValue) < maxFindings {
			r.add(LinkValue, "%q is a page of the table's own %q, not a value", tg.Name, p)
		}
		// "Gilbert High School (SC)": the table's own text for Gilbert High
		// School (South Carolina), no disambiguator.
		if _, ok := Disambiguated(tg.Name); ok && a.isEntity(tg.Entity) && !graph.Writes(a.entity(tg.Entity).Name, tg.Name) && !a.writesWhole(tg) && !tellsApart(t, tg) && !a.namesake(tg) && r.count(Disambiguator) < maxFindings {
			r.add(Disambiguator, "%q carries a disambiguator", tg.Name)
		}
		if RawValue(tg.Name) && r.count(RawClue) < maxFindings {
			r.add(RawClue, "%q is a raw cell", tg.Name)
		}
	}
}

// tellsApart reports whether key target tg's disambiguator tells it from
// another key of t that its name would name too ("Fifth Third Center
// (Columbus)" beside "Fifth Third Center (Cleveland)").
func tellsApart(t *task.Task, tg task.Target) bool {
	if tg.Layer != 2 {
		return false
	}
	b, _ := Disambiguated(tg.Name)
	return slices.ContainsFunc(t.Targets, func(o task.Target) bool {
		ob, _ := Disambiguated(o.Name)
		return o.Layer == 2 && o.Entity != tg.Entity && o.Name != tg.Name && NameKey(ob) == NameKey(b)
	})
}

// namesake reports whether target tg gives its article's title whole
// where the name without its disambiguator is another article's
// (Namesake).
func (a *Auditor) namesake(tg task.Target) bool {
	e := a.entity(tg.Entity)
	if tg.Name != e.Name {
		return false
	}
	ok, err := Namesake(a.g, e)
	return err == nil && ok
}

// writesWhole reports whether the table of target tg writes its title
// whole, with a parenthesis that names ("Al-Hilal (Kadougli)"; graph.KeepsQualifier).
func (a *Auditor) writesWhole(tg task.Target) bool {
	t, err := a.tree(tg.Tree)
	if err != nil {
		return false
	}
	name := a.entity(tg.Entity).Name
	return tg.Name == name && t.Shown[tg.Entity] == name && graph.KeepsQualifier(name, name)
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// rawKeys reports whether a fifth or more of a tree's keys are unlinked
// cells that list several names: a relay's swimmers with their splits
// ("Scott Goldblatt (1:49.53) Ryan Lochte (1:47.39) ..."), a team's
// runners ("Godfrey Kiprotich Shem Kororia Andrew Masai"), a year's
// nominees ("Garbage - Stupid Girl Oasis - Wonderwall ...").
func rawKeys(a *Auditor, t *graph.Tree) bool {
	raw := 0
	for _, row := range t.Rows {
		if e := a.entity(row.Key); !strings.HasPrefix(e.Key, "w:") && listsNames(e.Name) {
			raw++
		}
	}
	return len(t.Rows) > 0 && 5*raw >= len(t.Rows)
}

var splitTime = regexp.MustCompile(`\(\d`)

func listsNames(s string) bool {
	ws := strings.Fields(s)
	if len(ws) < 5 {
		return false
	}
	if len(splitTime.FindAllString(s, -1)) >= 2 || strings.Count(s, " - ")+strings.Count(s, " – ") >= 2 {
		return true
	}
	if len(ws) < 6 {
		return false
	}
	for _, w := range ws {
		if r := []rune(w)[0]; !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}
