package query

import (
	"fmt"
	"github.com/leaper-dev/leaper/task"
	"strconv"
	"strings"
)

// TargetVar is the name under which the target "?" of the triple form is
// held as a variable.
const TargetVar = "?"

// Kind is the kind of an Atom.
type Kind int

// Atom kinds.
const (
	// KindTriple is a knowledge projection [S, Rel, O].
	KindTriple Kind = iota
	// KindInTree binds S to the layer-2 (key) entities of the trees Trees.
	KindInTree
	// KindFilter keeps the values of Var whose numeric reading satisfies Op.
	KindFilter
)

// Comparison operators of a filter.
const (
	OpEq    = "="
	OpNe    = "!="
	OpLt    = "<"
	OpLe    = "<="
	OpGt    = ">"
	OpGe    = ">="
	OpRange = ".." // Lo <= v <= Hi
)

// Atom is one conjunct of a query.
type Atom struct {
	Kind Kind
	// S and O are the subject and object of a triple; S is the bound term
	// of in_tree.
	S, O task.Term
	// Rel is the relation of a triple: a standardised name (has_gold), a
	// full identity "name|datatype|domain", or free text.
	Rel string
	// Trees are the tree ids of in_tree.
	Trees []uint32
	// Not makes in_tree not_in_tree: S is a key of none of Trees (set
	// difference; S must be bound by another condition).
	Not bool
	// Var, Op, Lo and Hi describe a filter; Hi only for OpRange.
	Var    string
	Op     string
	Lo, Hi float64
}

// Aggregate operators: task's, so a task's Aggregate.Op and a query's
// head name the same functions.
const (
	AggCount     = task.AggCount
	AggSum       = task.AggSum
	AggAvg       = task.AggAvg
	AggMin       = task.AggMin
	AggMax       = task.AggMax
	AggTop       = task.AggTop
	AggBottom    = task.AggBottom
	AggDiff      = task.AggDiff
	AggMember    = task.AggMember
	AggCountDiff = task.AggCountDiff
)

// AggFunc is the aggregate function of a query's head (count, sum, top…); the
// computed value of an aggregation task is an Aggregate.
type AggFunc struct {
	Op string
	// K is the number of rows kept by top and bottom.
	K int
	// Vars are the operands: count/sum/avg/min/max(X): [X]; top/bottom(k,
	// X, Y): [X, Y] ordered by Y, or [Y]; diff(A, B): [A, B];
	// member(c, X): [X]; countdiff(X, a, b): [X].
	Vars []string
	// Const is member's constant.
	Const string
	// Trees are countdiff's two tree ids, a then b.
	Trees []uint32
}

// Query is a parsed formal query: a conjunction of atoms, the answer
// variables, and an optional aggregate. Build one with Parse or
// FromTriples.
type Query struct {
	// Select are the answer variables, in column order. Empty when Agg is
	// set: the aggregate decides the columns.
	Select []string
	Atoms  []Atom
	Agg    *AggFunc
}

// anonymous reports a variable the parser made up for an inline
// comparison; its name cannot be written in either syntax.
func anonymous(v string) bool { return strings.HasPrefix(v, "#") }

// termVar returns the variable a term names, if it is one.
func termVar(t task.Term) (string, bool) {
	switch {
	case t.Target:
		return TargetVar, true
	case t.Var != "":
		return t.Var, true
	}
	return "", false
}

// Vars returns the query's variables in order of first appearance,
// including "?" and the made-up variables of inline comparisons.
func (q *Query) Vars() []string {
	var out []string
	seen := map[string]bool{}
	add := func(v string) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, a := range q.Atoms {
		switch a.Kind {
		case KindTriple:
			if v, ok := termVar(a.S); ok {
				add(v)
			}
			if v, ok := termVar(a.O); ok {
				add(v)
			}
		case KindInTree:
			if v, ok := termVar(a.S); ok {
				add(v)
			}
		case KindFilter:
			add(a.Var)
		}
	}
	return out
}

// namedVars are the variables a user wrote.
func (q *Query) namedVars() []string {
	var out []string
	for _, v := range q.Vars() {
		if !anonymous(v) {
			out = append(out, v)
		}
	}
	return out
}

// validate checks what both syntaxes must hold.
func (q *Query) validate() error {
	if len(q.Atoms) == 0 {
		return fmt.Errorf("%w: no conditions", ErrInvalid)
	}
	bound := map[string]bool{}
	for _, a := range q.Atoms {
		switch a.Kind {
		case KindTriple:
			if a.Rel == "" {
				return fmt.Errorf("%w: empty relation", ErrInvalid)
			}
			for _, t := range []task.Term{a.S, a.O} {
				if err := checkTerm(t); err != nil {
					return err
				}
				if v, ok := termVar(t); ok {
					bound[v] = true
				}
			}
		case KindInTree:
			v, ok := termVar(a.S)
			if !ok {
				return fmt.Errorf("%w: in_tree needs a variable", ErrInvalid)
			}
			if len(a.Trees) == 0 {
				return fmt.Errorf("%w: in_tree needs a tree id", ErrInvalid)
			}
			if !a.Not {
				bound[v] = true
			}
		}
	}
	for _, a := range q.Atoms {
		if a.Kind == KindFilter && !bound[a.Var] {
			return fmt.Errorf("%w: variable %s appears only in a comparison", ErrInvalid, a.Var)
		}
	}
	for _, v := range q.Select {
		if !bound[v] {
			return fmt.Errorf("%w: answer variable %s appears in no condition", ErrInvalid, v)
		}
	}
	if q.Agg != nil {
		for _, v := range q.Agg.Vars {
			if !bound[v] {
				return fmt.Errorf("%w: %s(%s): variable appears in no condition", ErrInvalid, q.Agg.Op, v)
			}
		}
		if q.Agg.Op == AggCountDiff && (len(q.Agg.Vars) != 1 || len(q.Agg.Trees) != 2) {
			return fmt.Errorf("%w: countdiff needs one variable and two tree ids", ErrInvalid)
		}
		if (q.Agg.Op == AggTop || q.Agg.Op == AggBottom) && q.Agg.K < 0 {
			return fmt.Errorf("%w: %s needs k >= 0", ErrInvalid, q.Agg.Op)
		}
	}
	if q.Agg == nil && len(q.Select) == 0 {
		return fmt.Errorf("%w: no answer variable", ErrInvalid)
	}
	return nil
}

func checkTerm(t task.Term) error {
	n := 0
	if t.Target {
		n++
	}
	if t.Var != "" {
		n++
	}
	if len(t.Consts) > 0 {
		n++
	}
	if n != 1 {
		return fmt.Errorf("%w: a term is one of a variable, constants or ?", ErrInvalid)
	}
	return nil
}

// FromTriples builds a query from WebShaper's triple form. A triple whose
// relation is "in_tree" and whose object lists tree ids ("C@12") is the
// in_tree predicate. The answer variables are chosen so that the answer
// table is the task's: when "?" is an object, the subjects of those triples
// then "?" (one row per subject with its value); when "?" is a subject,
// "?" alone; without "?", the variable T if there is one, else the first
// variable.
func FromTriples(ts []task.Triple) (*Query, error) {
	q := &Query{}
	for _, t := range ts {
		if r := strings.ToLower(strings.TrimSpace(t.R)); r == "in_tree" || r == "not_in_tree" {
			a := Atom{Kind: KindInTree, S: t.S, Not: r == "not_in_tree"}
			for _, c := range t.O.Consts {
				id, err := strconv.ParseUint(strings.TrimSpace(c), 10, 32)
				if err != nil {
					return nil, fmt.Errorf("%w: in_tree: %q is not a tree id", ErrInvalid, c)
				}
				a.Trees = append(a.Trees, uint32(id))
			}
			q.Atoms = append(q.Atoms, a)
			continue
		}
		q.Atoms = append(q.Atoms, Atom{Kind: KindTriple, S: t.S, Rel: t.R, O: t.O})
	}
	seen := map[string]bool{}
	target := false
	for _, a := range q.Atoms {
		if a.Kind == KindTriple && a.O.Target {
			target = true
			if v, ok := termVar(a.S); ok && v != TargetVar && !seen[v] {
				seen[v] = true
				q.Select = append(q.Select, v)
			}
		}
		if a.S.Target {
			target = true
		}
	}
	switch {
	case target:
		q.Select = append(q.Select, TargetVar)
	default:
		vs := q.Vars()
		for _, v := range vs {
			if v == "T" {
				q.Select = []string{"T"}
			}
		}
		if len(q.Select) == 0 && len(vs) > 0 {
			q.Select = []string{vs[0]}
		}
	}
	if err := q.validate(); err != nil {
		return nil, err
	}
	return q, nil
}

// Triples returns the query in WebShaper's triple form. Filters and
// aggregates have no triple form: they give ErrNotTriples. The answer
// variables are not written; FromTriples derives them again.
func (q *Query) Triples() ([]task.Triple, error) {
	if q.Agg != nil {
		return nil, fmt.Errorf("%w: aggregate %s", ErrNotTriples, q.Agg.Op)
	}
	out := make([]task.Triple, 0, len(q.Atoms))
	for _, a := range q.Atoms {
		switch a.Kind {
		case KindTriple:
			out = append(out, task.Triple{S: a.S, R: a.Rel, O: a.O})
		case KindInTree:
			ids := make([]string, len(a.Trees))
			for i, t := range a.Trees {
				ids[i] = strconv.FormatUint(uint64(t), 10)
			}
			r := "in_tree"
			if a.Not {
				r = "not_in_tree"
			}
			out = append(out, task.Triple{S: a.S, R: r, O: task.C(ids...)})
		default:
			return nil, fmt.Errorf("%w: comparison on %s", ErrNotTriples, a.Var)
		}
	}
	return out, nil
}

// String writes the query in the compact syntax; Parse reads it back.
func (q *Query) String() string {
	var b strings.Builder
	if q.Agg != nil {
		b.WriteString(q.Agg.String())
	} else {
		for i, v := range q.Select {
			if i > 0 {
				b.WriteString(", ")
			}
			if v == TargetVar {
				b.WriteString("?")
				continue
			}
			b.WriteString("?" + fmtVar(v))
		}
	}
	b.WriteString(": ")
	// An inline comparison is a made-up variable with one filter.
	inline := map[string]Atom{}
	for _, a := range q.Atoms {
		if a.Kind == KindFilter && anonymous(a.Var) {
			inline[a.Var] = a
		}
	}
	first := true
	for _, a := range q.Atoms {
		if a.Kind == KindFilter && anonymous(a.Var) {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		switch a.Kind {
		case KindTriple:
			b.WriteString(fmtRel(a.Rel) + "(" + fmtTerm(a.S, inline) + ", " + fmtTerm(a.O, inline) + ")")
		case KindInTree:
			ids := make([]string, len(a.Trees))
			for i, t := range a.Trees {
				ids[i] = strconv.FormatUint(uint64(t), 10)
			}
			s := strings.Join(ids, ", ")
			if len(ids) > 1 {
				s = "{" + s + "}"
			}
			if a.Not {
				b.WriteString("not_")
			}
			b.WriteString("in_tree(" + fmtTerm(a.S, nil) + ", " + s + ")")
		case KindFilter:
			b.WriteString(fmtVar(a.Var) + " " + fmtCmp(a))
		}
	}
	return b.String()
}

// String writes the aggregate as in a query's head.
func (a *AggFunc) String() string {
	vs := make([]string, len(a.Vars))
	for i, v := range a.Vars {
		vs[i] = fmtVar(v)
	}
	switch a.Op {
	case AggTop, AggBottom:
		return a.Op + "(" + strconv.Itoa(a.K) + ", " + strings.Join(vs, ", ") + ")"
	case AggMember:
		return a.Op + "(" + fmtConst(a.Const) + ", " + strings.Join(vs, ", ") + ")"
	case AggCountDiff:
		for _, t := range a.Trees {
			vs = append(vs, strconv.FormatUint(uint64(t), 10))
		}
	}
	return a.Op + "(" + strings.Join(vs, ", ") + ")"
}

func fmtCmp(a Atom) string {
	if a.Op == OpRange {
		if a.Var != "" && !anonymous(a.Var) {
			return "in " + fmtNum(a.Lo) + ".." + fmtNum(a.Hi)
		}
		return fmtNum(a.Lo) + ".." + fmtNum(a.Hi)
	}
	return a.Op + " " + fmtNum(a.Lo)
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func fmtTerm(t task.Term, inline map[string]Atom) string {
	if t.Target {
		return "?"
	}
	if t.Var != "" {
		if f, ok := inline[t.Var]; ok {
			return fmtCmp(f)
		}
		return fmtVar(t.Var)
	}
	if len(t.Consts) == 1 {
		return fmtConst(t.Consts[0])
	}
	cs := make([]string, len(t.Consts))
	for i, c := range t.Consts {
		cs[i] = fmtConst(c)
	}
	return "{" + strings.Join(cs, ", ") + "}"
}

// fmtConst writes a constant as a number when it reads back as the same
// text, else quoted.
func fmtConst(c string) string {
	if isNumberLit(c) {
		return c
	}
	return strconv.Quote(c)
}

func isNumberLit(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0 && i+1 < len(s) && s[i+1] != '.':
			dot = true
		default:
			return false
		}
	}
	return digits > 0 && s[len(s)-1] != '.'
}

func fmtVar(v string) string {
	if isIdent(v) && !isKeyword(v) {
		return v
	}
	return "`" + strings.ReplaceAll(v, "`", "") + "`"
}

func fmtRel(r string) string {
	if isIdent(r) && !isKeyword(r) {
		return r
	}
	return strconv.Quote(r)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func isKeyword(s string) bool { return s == "in" || s == "in_tree" || s == "not_in_tree" }
