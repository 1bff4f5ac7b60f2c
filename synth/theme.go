package synth

import (
	"slices"
	"strings"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
)

// A union's trees must share one theme that a question can name as a
// concept (the 1962 to 1965 International Cross Country Championships,
// the National Register of Historic Places listings in three counties),
// not be a list of pages that merely share a key class and two relations.
// Themes come in two kinds: editions of one recurring page ("1962
// International Cross Country Championships", "1963 ..."), whose titles
// differ only in a year, a season or an ordinal; and pages of one series
// whose titles differ in one slot ("... listings in Wayne County,
// Michigan", "... in Alger County, Michigan"). Trees of a theme also share
// their section (or caption), so the union is of one kind of table.

// themed is a tree's place in its theme.
type themed struct {
	stem  string // the title without its edition
	label string // the edition, or the slot's text
	at    int    // where the edition starts in the title, -1 for a slot
}

func editionOf(t *graph.Tree) (themed, bool) {
	locs := audit.Editions(t.PageTitle)
	if len(locs) != 1 {
		return themed{}, false
	}
	l := locs[0]
	stem := strings.Join(strings.Fields(t.PageTitle[:l[0]]+" # "+t.PageTitle[l[1]:]), " ")
	return themed{stem: stem, label: t.PageTitle[l[0]:l[1]], at: l[0]}, true
}

func sectionKey(t *graph.Tree) string {
	s := t.Section
	if s == "" {
		s = t.Caption
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// themes splits a group's trees (positions in s.trees) into themes of at
// least two pages: editions of one title first, then the rest by a shared
// prefix and suffix of their titles (audit.Theme). Trees of no theme are
// left out. The order is deterministic.
func (s *synth) themes(group []int) [][]int {
	byStem := map[string][]int{}
	var stems []string
	var rest []int
	for _, i := range group {
		t := s.trees[i]
		if audit.IsFileTitle(t.PageTitle) {
			continue
		}
		if th, ok := editionOf(t); ok {
			// A section that is only the page's edition ("2004" of
			// List of Russian films of 2004) says nothing the title
			// does not.
			sk := sectionKey(t)
			if sk == strings.ToLower(th.label) {
				sk = ""
			}
			k := th.stem + "|" + sk
			if byStem[k] == nil {
				stems = append(stems, k)
			}
			byStem[k] = append(byStem[k], i)
			continue
		}
		rest = append(rest, i)
	}
	slices.Sort(stems)
	var out [][]int
	for _, k := range stems {
		if pages(s, byStem[k]) >= 2 {
			out = append(out, byStem[k])
		} else {
			rest = append(rest, byStem[k]...)
		}
	}
	// The rest: by section and the title's first two words (a series'
	// titles vary after their head: "List of * submissions ...",
	// "National Register of Historic Places listings in *"), then
	// greedily within each bucket: a tree and every later tree whose
	// titles keep a nameable theme with the cluster's.
	buckets := map[string][]int{}
	var bkeys []string
	for _, i := range rest {
		t := s.trees[i]
		ws := strings.Fields(t.PageTitle)
		k := sectionKey(t) + "|" + strings.Join(ws[:min(2, len(ws))], " ")
		if buckets[k] == nil {
			bkeys = append(bkeys, k)
		}
		buckets[k] = append(buckets[k], i)
	}
	slices.Sort(bkeys)
	for _, k := range bkeys {
		b := buckets[k]
		slices.Sort(b)
		used := map[int]bool{}
		for x, i := range b {
			if used[i] {
				continue
			}
			cl := []int{i}
			titles := []string{s.trees[i].PageTitle}
			for _, j := range b[x+1:] {
				if used[j] {
					continue
				}
				next := append(slices.Clone(titles), s.trees[j].PageTitle)
				if _, ok := audit.Theme(next); ok {
					cl = append(cl, j)
					titles = next
				}
				if len(cl) == maxGroupTrees {
					break
				}
			}
			if pages(s, cl) >= 2 {
				for _, j := range cl {
					used[j] = true
				}
				out = append(out, cl)
			}
		}
	}
	return out
}

func pages(s *synth, ix []int) int {
	seen := map[string]bool{}
	for _, i := range ix {
		seen[s.trees[i].PageURL] = true
	}
	return len(seen)
}

// themePhrase names a set of trees of one theme as a question names a
// concept: the editions in the title's place ("the 1962, 1963 and 1965
// International Cross Country Championships"), or the slot's values in
// theirs ("the National Register of Historic Places listings in Wayne
// County, Michigan or Alger County, Michigan"), with the shared section.
// join is list or orList. ok is false when the titles share no theme.
//
// The shared section is left out where its words are all the titles'
// ("Submissions" of the lists of submissions for an Academy Award) and
// alone reports that each tree is its page's only table.
func themePhrase(ts []*graph.Tree, join func([]string) string, alone func(*graph.Tree) bool) (string, bool) {
	var labels []string
	seen := map[string]bool{}
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			labels = append(labels, l)
		}
	}
	var phrase string
	first, ok := editionOf(ts[0])
	same := ok
	for _, t := range ts[1:] {
		th, ok := editionOf(t)
		if !ok || th.stem != first.stem {
			same = false
		}
	}
	if same {
		for _, t := range ts {
			th, _ := editionOf(t)
			add(th.label)
		}
		slices.SortStableFunc(labels, func(a, b string) int { return leadNum(a) - leadNum(b) })
		title := ts[0].PageTitle
		phrase = title[:first.at] + join(labels) + title[first.at+len(first.label):]
	} else {
		titles := make([]string, len(ts))
		for i, t := range ts {
			titles[i] = t.PageTitle
		}
		pre, suf := audit.Affixes(titles)
		if _, ok := audit.Theme(titles); !ok {
			return "", false
		}
		for _, t := range titles {
			if len(pre)+len(suf) > len(t) {
				return "", false
			}
			add(strings.TrimSpace(t[len(pre) : len(t)-len(suf)]))
		}
		phrase = pre + join(labels) + suf
	}
	if strings.HasPrefix(phrase, "List of ") && len(labels) > 1 {
		phrase = "the lists" + phrase[len("List"):] // "the lists of Afghan, … or South African submissions"
	} else if strings.HasPrefix(phrase, "List of ") || strings.HasPrefix(phrase, "Lists of ") {
		phrase = "the l" + phrase[1:]
	} else {
		phrase = "the " + phrase
	}
	sec := ts[0].Section
	if sec == "" {
		sec = ts[0].Caption
	}
	sec = strings.Trim(strings.Join(strings.Fields(tableWord.ReplaceAllString(strings.ReplaceAll(sec, "|", ", "), "")), " "), " ,;:-–")
	sec = strings.ReplaceAll(sec, " ,", ",")
	said := wordsWithin(sec, ts[0].PageTitle) && !slices.ContainsFunc(ts, func(t *graph.Tree) bool { return !alone(t) })
	if sec != "" && !strings.EqualFold(sec, ts[0].PageTitle) && !said {
		phrase += " (" + lowerFirst(sec) + ")"
	}
	return phrase, true
}

// leadNum is the number an edition label starts with ("1962", "30th",
// "2012–13"), for ordering labels as numbers; 0 when none.
func leadNum(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// alonePage reports whether t is the only tree of its page.
func (s *synth) alonePage(t *graph.Tree) bool {
	return memo(&s.pageTrees, t.PageURL, func(url string) int {
		ids, err := s.g.TreesOfPage(url)
		if err != nil {
			return 2 // not known alone: its section is said
		}
		return len(ids)
	}) <= 1
}
