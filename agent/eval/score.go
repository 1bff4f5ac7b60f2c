package eval

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/internal/textnorm"
	"github.com/leaper-dev/leaper/task"
)

// Scores grade one answer (and, when given, its trajectory) against a task.
type Scores struct {
	// Soft precision and recall over entities (WebLeaper §3.3): recall
	// averages, over the targets, the best similarity of an answer cell;
	// precision averages, over the answer cells, the best similarity of a
	// target. F = (1+ω²)PR/(ω²P+R).
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F         float64 `json:"f"`
	// WideSearch: success when the table matches exactly after
	// normalisation; row and item F1 after aligning rows on the key column.
	Success       bool    `json:"success"`
	RowPrecision  float64 `json:"row_precision"`
	RowRecall     float64 `json:"row_recall"`
	RowF1         float64 `json:"row_f1"`
	ItemPrecision float64 `json:"item_precision"`
	ItemRecall    float64 `json:"item_recall"`
	ItemF1        float64 `json:"item_f1"`
	// ValueOK, for a task with an aggregate, says whether the answer gives
	// its value (aggregateOK).
	ValueOK bool `json:"value_ok"`
	// Reward is what a trainer gets (/get_reward): F, and for a task with
	// an aggregate, F when the answer also gives the value and 0 when it
	// does not, so that a complete table with a wrong count scores 0.
	Reward float64 `json:"reward"`
	// From the trajectory, when one was given.
	ISR       float64 `json:"isr"`
	ISE       float64 `json:"ise"`
	ValidRate float64 `json:"valid_rate"`
	Steps     int     `json:"steps"`
}

// Scorer scores answers. The zero value uses ω = 1 and no aliases.
type Scorer struct {
	// Omega weighs recall against precision; default 1.
	Omega float64
	// Graph, when set, supplies the targets' aliases; *graph.Store
	// satisfies it.
	Graph Graph
}

// Graph is what the scorer reads from the store: the targets' entities,
// for their aliases.
type Graph interface {
	Entities(ids []uint32) ([]*graph.Entity, error)
}

// Score scores an answer with ω = 1 and no store: usable by a reward
// endpoint. traj may be nil.
func Score(t *task.Task, answer string, traj *agent.Trajectory) Scores {
	return (&Scorer{}).Score(t, answer, traj)
}

// Score scores an answer text (the inside of <answer>, or a whole final
// message) against a task. traj may be nil.
func (sc *Scorer) Score(t *task.Task, answer string, traj *agent.Trajectory) Scores {
	var s Scores
	if a, ok := agent.ParseAnswer(answer); ok {
		answer = a
	}
	omega := sc.Omega
	if omega <= 0 {
		omega = 1
	}
	// Targets and their names.
	names := make([][]*term, len(t.Targets))
	var aliases map[uint32][]string
	if sc.Graph != nil {
		ids := make([]uint32, len(t.Targets))
		for i, tg := range t.Targets {
			ids[i] = tg.Entity
		}
		if ents, err := sc.Graph.Entities(ids); err == nil {
			aliases = map[uint32][]string{}
			for _, e := range ents {
				aliases[e.ID] = append([]string{e.Name}, e.Aliases...)
			}
		}
	}
	for i, tg := range t.Targets {
		names[i] = append(names[i], newTerm(tg.Name))
		for _, a := range aliases[tg.Entity] {
			names[i] = append(names[i], newTerm(a))
		}
	}
	// Targets and cells without a letter or digit ("—") are not entities.
	kept := names[:0]
	for _, ns := range names {
		if ns[0].norm != "" {
			kept = append(kept, ns)
		}
	}
	names = kept
	isName := map[string]bool{}
	for _, ns := range names {
		for _, n := range ns {
			isName[n.compact] = true
		}
	}
	pred := agent.ParseTable(answer)
	var cells []*term
	if pred != nil {
		for _, r := range pred.Rows {
			for _, c := range r {
				// A name may hold "; " itself: keep a cell whole when it is
				// one, and rejoin the parts of a name split with the others.
				if tm := newTerm(c); tm.norm != "" && isName[tm.compact] {
					cells = append(cells, tm)
					continue
				}
				parts := splitCell(c)
				for i := 0; i < len(parts); {
					j, tm := i+1, newTerm(parts[i])
					for k := min(len(parts), i+maxNameParts); k > i+1; k-- {
						if t := newTerm(strings.Join(parts[i:k], "; ")); t.norm != "" && isName[t.compact] {
							j, tm = k, t
							break
						}
					}
					if tm.norm != "" {
						cells = append(cells, tm)
					}
					i = j
				}
			}
		}
	} else if strings.TrimSpace(answer) != "" {
		for _, part := range strings.FieldsFunc(answer, func(r rune) bool { return r == '\n' || r == ';' || r == ',' }) {
			if strings.TrimSpace(part) != "" {
				if tm := newTerm(part); tm.norm != "" {
					cells = append(cells, tm)
				}
			}
		}
	}
	if len(names) > 0 && len(cells) > 0 {
		s.Precision, s.Recall = softPR(cells, names)
		if d := omega*omega*s.Precision + s.Recall; d > 0 {
			s.F = (1 + omega*omega) * s.Precision * s.Recall / d
		}
	}
	s.Reward = s.F
	switch agg := t.Answer.Aggregate; {
	case agg != nil && pred == nil:
		s.ValueOK = aggregateOK(answer, false, agg, keyNames(t))
		s.Success = s.ValueOK
		s.RowF1, s.ItemF1 = b2f(s.Success), b2f(s.Success)
		s.RowPrecision, s.RowRecall, s.ItemPrecision, s.ItemRecall = s.RowF1, s.RowF1, s.RowF1, s.RowF1
		s.Reward = s.F * b2f(s.ValueOK)
	case agg != nil:
		// The table and the value: the table is graded as any, and the
		// answer succeeds and earns its F only with the value right.
		wideSearch(&s, &agent.Table{Columns: t.Answer.Columns, Rows: t.Answer.Rows}, pred)
		s.ValueOK = aggregateOK(answer, true, agg, keyNames(t))
		s.Success = s.Success && s.ValueOK
		s.Reward = s.F * b2f(s.ValueOK)
	default:
		wideSearch(&s, &agent.Table{Columns: t.Answer.Columns, Rows: t.Answer.Rows}, pred)
	}
	if traj != nil {
		m := traj.Metrics
		s.ISR, s.ISE, s.ValidRate, s.Steps = m.ISR, m.ISE, m.ValidRate, m.Steps
	}
	return s
}

// softPR computes soft precision over the cells and soft recall over the
// targets (each with its names).
func softPR(cells []*term, names [][]*term) (p, r float64) {
	var flat []*term
	var owner []int
	for i, ns := range names {
		for _, n := range ns {
			flat = append(flat, n)
			owner = append(owner, i)
		}
	}
	for _, v := range bestOf(cells, flat) {
		p += v
	}
	bestT := make([]float64, len(names))
	for k, v := range bestOf(flat, cells) {
		bestT[owner[k]] = math.Max(bestT[owner[k]], v)
	}
	for _, v := range bestT {
		r += v
	}
	return p / float64(len(cells)), r / float64(len(names))
}

// bestOf returns, per query, its best similarity to any term of the pool.
// Only pairs that can score above zero are compared: equal without spaces,
// sharing a token, or both numbers or both dates; a query equal to a pool
// term without spaces scores 1 at once. Far cheaper than |queries|·|pool|
// on real answers.
func bestOf(queries, pool []*term) []float64 {
	byTok, byCompact := map[string][]int{}, map[string]bool{}
	var nums, dates []int
	for k, n := range pool {
		for _, t := range n.toks {
			if l := byTok[t]; len(l) == 0 || l[len(l)-1] != k {
				byTok[t] = append(l, k)
			}
		}
		byCompact[n.compact] = true
		if n.isNum {
			nums = append(nums, k)
		}
		if n.date != "" {
			dates = append(dates, k)
		}
	}
	out := make([]float64, len(queries))
	stamp := make([]int, len(pool))
	for qi, q := range queries {
		if q.norm == "" {
			continue
		}
		if byCompact[q.compact] {
			out[qi] = 1
			continue
		}
		best := 0.0
		try := func(k int) {
			if stamp[k] != qi+1 {
				stamp[k] = qi + 1
				best = math.Max(best, similarity(q, pool[k]))
			}
		}
		for _, t := range q.toks {
			for _, k := range byTok[t] {
				try(k)
			}
		}
		if q.isNum {
			for _, k := range nums {
				try(k)
			}
		}
		if q.date != "" {
			for _, k := range dates {
				try(k)
			}
		}
		out[qi] = best
	}
	return out
}

// aggregateOK reports whether an answer gives an aggregate's value, in its
// text outside the table (all of it when there is no table): a number must
// be the only number there, exactly (a count of 157 is not 156, nor -9 a
// 9, nor "155 or 156" an answer); a member
// question is answered yes or no (the constant's own name aside); top and
// bottom must name every listed entity and no other of the set (keys, the
// set's names); any other value must be the text or appear in it as a run
// of words.
func aggregateOK(answer string, hasTable bool, a *task.Aggregate, keys []string) bool {
	rest := answer
	if hasTable {
		// Table lines, with or without their outer pipes, are not the value.
		var keep []string
		for _, l := range strings.Split(answer, "\n") {
			if !strings.Contains(l, "|") {
				keep = append(keep, l)
			}
		}
		rest = strings.Join(keep, "\n")
	}
	switch a.Op {
	case task.AggMember:
		return memberOK(rest, a)
	case task.AggTop, task.AggBottom:
		got := words(rest)
		want := map[string]bool{}
		for _, v := range strings.Split(a.Value, "; ") {
			want[v] = true
			if !containsRun(got, words(v)) {
				return false
			}
		}
		for _, k := range keys {
			if !want[k] && containsRun(got, words(k)) {
				return false
			}
		}
		return len(want) > 0
	}
	if v, err := strconv.ParseFloat(a.Value, 64); err == nil {
		// The value and no other number: a hedge ("155 or 156") or a
		// correction ("157, not 156") is not the answer.
		seen := false
		for _, m := range numberRE.FindAllStringSubmatch(rest, -1) {
			f, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
			if err != nil || f != v {
				return false
			}
			seen = true
		}
		return seen
	}
	if Similarity(rest, a.Value) >= 0.9 {
		return true
	}
	return containsRun(words(rest), words(a.Value))
}

// numberRE finds the numbers of a text, with their sign and thousands
// separators, standing alone (not the 1 of "Q1").
var numberRE = regexp.MustCompile(`(?:^|[^\pL\pN_.])(-?\d[\d,]*(?:\.\d+)?)(?:$|[^\pL\pN_])`)

// memberOK reads a yes or no from an answer to a member question, with the
// constant's name taken out (an entity called "No Doubt"); an answer with
// both, or neither, is not an answer.
func memberOK(rest string, a *task.Aggregate) bool {
	v, err := strconv.ParseBool(a.Value)
	if err != nil {
		return false
	}
	got := words(rest)
	if c := words(a.Column); len(c) > 0 {
		var kept []string
		for i := 0; i < len(got); i++ {
			if i+len(c) <= len(got) && slices.Equal(got[i:i+len(c)], c) {
				i += len(c) - 1
				continue
			}
			kept = append(kept, got[i])
		}
		got = kept
	}
	has := func(ws ...string) bool {
		for _, w := range ws {
			if slices.Contains(got, w) {
				return true
			}
		}
		return false
	}
	yes, no := has("yes", "true"), has("no", "false", "not")
	return yes != no && yes == v
}

// words are the words of s as the scorer compares them (norm).
func words(s string) []string { return strings.Fields(norm(s)) }

// containsRun reports whether want occurs in got as consecutive tokens.
func containsRun(got, want []string) bool {
	if len(want) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(got); i++ {
		if slices.Equal(got[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// keyNames are the names in the first column of a task's answer table.
func keyNames(t *task.Task) []string {
	var out []string
	for _, r := range t.Answer.Rows {
		if len(r) > 0 {
			out = append(out, r[0])
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// cellMatch is WideSearch's item match: near-exact after normalisation,
// multi-valued cells ("a; b") compared as sets.
func (ts terms) cellMatch(a, b string) bool {
	if strings.TrimSpace(a) == strings.TrimSpace(b) {
		return true // an empty cell where one is expected is right too
	}
	whole := func() bool { return similarity(ts.get(a), ts.get(b)) >= 0.9 }
	pa, pb := splitCell(a), splitCell(b)
	if len(pa) != len(pb) || len(pa) < 2 {
		return whole()
	}
	sort.Strings(pa)
	sort.Strings(pb)
	for i := range pa {
		if similarity(ts.get(pa[i]), ts.get(pb[i])) < 0.9 {
			return whole()
		}
	}
	return true
}

// maxNameParts bounds the parts of a split cell rejoined into one name.
const maxNameParts = 8

func splitCell(c string) []string {
	var out []string
	for _, p := range strings.Split(c, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// wideSearch fills success, row and item precision/recall/F1.
func wideSearch(s *Scores, gold, pred *agent.Table) {
	ts := terms{}
	if pred == nil || len(gold.Rows) == 0 {
		s.Success = pred != nil && len(pred.Rows) == 0 && len(gold.Rows) == 0
		return
	}
	// Map gold columns to predicted ones: by name, else by position when
	// the widths agree.
	colOf := make([]int, len(gold.Columns))
	used := map[int]bool{}
	for i, g := range gold.Columns {
		colOf[i] = -1
		for j, p := range pred.Columns {
			if !used[j] && norm(g) == norm(p) {
				colOf[i], used[j] = j, true
				break
			}
		}
	}
	for i := range colOf {
		if colOf[i] < 0 && len(gold.Columns) == len(pred.Columns) && !used[i] {
			colOf[i], used[i] = i, true
		}
	}
	cell := func(r []string, j int) string {
		if j < 0 || j >= len(r) {
			return ""
		}
		return r[j]
	}
	// Align rows on the key (first gold column).
	taken := make([]bool, len(pred.Rows))
	var okRows, okItems int
	byKey := map[string][]int{}
	for j, p := range pred.Rows {
		k := ts.get(cell(p, colOf[0])).compact
		byKey[k] = append(byKey[k], j)
	}
	for _, g := range gold.Rows {
		best := -1
		for _, j := range byKey[ts.get(cell(g, 0)).compact] {
			if !taken[j] {
				best = j
				break
			}
		}
		for j := 0; best < 0 && j < len(pred.Rows); j++ {
			if !taken[j] && ts.cellMatch(cell(pred.Rows[j], colOf[0]), cell(g, 0)) {
				best = j
			}
		}
		if best < 0 {
			continue
		}
		taken[best] = true
		all := true
		for i := range gold.Columns {
			if ts.cellMatch(cell(pred.Rows[best], colOf[i]), cell(g, i)) {
				okItems++
			} else {
				all = false
			}
		}
		if all {
			okRows++
		}
	}
	if len(pred.Rows) > 0 {
		s.RowPrecision = float64(okRows) / float64(len(pred.Rows))
	}
	s.RowRecall = float64(okRows) / float64(len(gold.Rows))
	s.RowF1 = f1(s.RowPrecision, s.RowRecall)
	predItems := len(pred.Rows) * len(pred.Columns)
	if predItems > 0 {
		s.ItemPrecision = float64(okItems) / float64(predItems)
	}
	s.ItemRecall = float64(okItems) / float64(len(gold.Rows)*len(gold.Columns))
	s.ItemF1 = f1(s.ItemPrecision, s.ItemRecall)
	s.Success = okRows == len(gold.Rows) && len(pred.Rows) == len(gold.Rows) && len(pred.Columns) == len(gold.Columns)
}

func isYear(f float64) bool { return f == math.Trunc(f) && f >= 1000 && f <= 2999 }

// term is a prepared text for similarity.
type term struct {
	norm, compact string
	toks          []string
	num           float64
	isNum         bool
	date          string // YYYY-MM-DD when it reads as a date
}

func newTerm(s string) *term {
	n := norm(s)
	t := &term{norm: n, compact: strings.ReplaceAll(n, " ", ""), toks: strings.Fields(n)}
	if f, err := strconv.ParseFloat(numCleaner.Replace(strings.TrimSpace(s)), 64); err == nil {
		t.num, t.isNum = f, true
	}
	t.date = parseDate(strings.TrimSpace(s))
	return t
}

var numCleaner = strings.NewReplacer(",", "", "$", "", "%", "", " ", "")

// terms memoises prepared texts within one scoring.
type terms map[string]*term

func (ts terms) get(s string) *term {
	t, ok := ts[s]
	if !ok {
		t = newTerm(s)
		ts[s] = t
	}
	return t
}

// parseDate is an answer's date in ISO 8601, read as the build reads a
// table's (textnorm.ParseDate: "10 June 2015", "June 10, 2015", "23
// settembre 1981", "June 2015"), or written day/month/year; else "".
func parseDate(s string) string {
	if d, ok := textnorm.ParseDate(s); ok {
		return d
	}
	if len(s) == 10 && strings.Count(s, "/") == 2 {
		if d, err := time.Parse("02/01/2006", s); err == nil {
			return d.Format("2006-01-02")
		}
	}
	return ""
}

// norm lower-cases, folds common diacritics, turns punctuation into spaces
// and collapses them, and drops a leading article.
func norm(s string) string {
	var b strings.Builder
	space := true
	for _, r := range strings.ToLower(s) {
		r = fold(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
		} else if !space && r != '\'' && r != '’' {
			b.WriteByte(' ')
			space = true
		}
	}
	out := strings.TrimSpace(b.String())
	return strings.TrimPrefix(out, "the ")
}

var folds = map[rune]rune{'á': 'a', 'à': 'a', 'â': 'a', 'ä': 'a', 'ã': 'a', 'å': 'a', 'ą': 'a', 'ç': 'c', 'č': 'c', 'ć': 'c',
	'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e', 'ę': 'e', 'ě': 'e', 'í': 'i', 'ì': 'i', 'î': 'i', 'ï': 'i', 'ñ': 'n', 'ń': 'n', 'ň': 'n',
	'ó': 'o', 'ò': 'o', 'ô': 'o', 'ö': 'o', 'õ': 'o', 'ø': 'o', 'ő': 'o', 'ú': 'u', 'ù': 'u', 'û': 'u', 'ü': 'u', 'ů': 'u', 'ű': 'u',
	'ý': 'y', 'ÿ': 'y', 'ž': 'z', 'ź': 'z', 'ż': 'z', 'š': 's', 'ś': 's', 'ř': 'r', 'ł': 'l', 'đ': 'd', 'ď': 'd', 'ť': 't', 'ß': 's'}

func fold(r rune) rune {
	if f, ok := folds[r]; ok {
		return f
	}
	return r
}

// Similarity is the entity similarity s ∈ [0,1] of two texts: 1 when they
// are equal after normalisation or after removing spaces (text extraction
// loses them), near-match for numbers and dates, else token overlap (F1 of
// the token sets) or, when they share a token and one holds the other with
// spaces removed, the share of it that matches.
func Similarity(a, b string) float64 { return similarity(newTerm(a), newTerm(b)) }

func similarity(a, b *term) float64 {
	if a.norm == "" || b.norm == "" {
		return 0
	}
	if a.norm == b.norm || a.compact == b.compact {
		return 1
	}
	if a.isNum && b.isNum {
		d := math.Abs(a.num - b.num)
		m := math.Max(math.Abs(a.num), math.Abs(b.num))
		if isYear(a.num) && isYear(b.num) {
			return b2f(d == 0) // 1983 is not nearly 1993
		}
		switch {
		case d == 0:
			return 1
		case d <= 0.01*m:
			return 0.9
		case d <= 0.05*m:
			return 0.5
		}
		return 0
	}
	if a.date != "" && b.date != "" {
		switch {
		case a.date == b.date:
			return 1
		case a.date[:7] == b.date[:7]:
			return 0.5
		case a.date[:4] == b.date[:4]:
			return 0.3
		}
		return 0
	}
	// Token F1.
	common := 0
	var usedBuf [32]bool
	used := usedBuf[:0]
	if len(b.toks) <= len(usedBuf) {
		used = usedBuf[:len(b.toks)]
	} else {
		used = make([]bool, len(b.toks))
	}
	for _, t := range a.toks {
		for j, u := range b.toks {
			if !used[j] && u == t {
				used[j] = true
				common++
				break
			}
		}
	}
	v := 0.0
	if common > 0 {
		p, r := float64(common)/float64(len(a.toks)), float64(common)/float64(len(b.toks))
		v = 2 * p * r / (p + r)
	}
	short, long := a.compact, b.compact
	if len(short) > len(long) {
		short, long = long, short
	}
	if common > 0 && len(short) >= 4 && strings.Contains(long, short) {
		v = math.Max(v, 0.9*float64(len(short))/float64(len(long)))
	}
	return v
}
