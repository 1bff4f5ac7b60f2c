package query

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/leaper-dev/leaper/task"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse reads a query in either syntax. Source that starts with "[" is
// WebShaper's JSON triple form (see FromTriples); anything else is the
// compact form described in the package documentation. Errors are
// *SyntaxError for malformed text and wrap ErrInvalid for well-formed
// queries that make no sense (a variable used only in a comparison).
func Parse(src string) (*Query, error) {
	trimmed := strings.TrimLeft(src, " \t\r\n")
	if strings.HasPrefix(trimmed, "[") {
		return parseJSON(src, len(src)-len(trimmed))
	}
	p := &parser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	return p.parse()
}

func parseJSON(src string, start int) (*Query, error) {
	dec := json.NewDecoder(strings.NewReader(src))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return nil, &SyntaxError{Pos: start, Msg: "expected a JSON list of triples"}
	}
	var ts []task.Triple
	for dec.More() {
		off := int(dec.InputOffset())
		// InputOffset points after the previous token; skip the separator.
		for off < len(src) && strings.ContainsRune(" \t\r\n,", rune(src[off])) {
			off++
		}
		var t task.Triple
		if err := dec.Decode(&t); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, &SyntaxError{Pos: int(se.Offset), Msg: se.Error()}
			}
			return nil, &SyntaxError{Pos: off, Msg: strings.TrimPrefix(err.Error(), "query: ")}
		}
		ts = append(ts, t)
	}
	if _, err := dec.Token(); err != nil {
		return nil, &SyntaxError{Pos: int(dec.InputOffset()), Msg: "unterminated list of triples"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &SyntaxError{Pos: int(dec.InputOffset()), Msg: "text after the list of triples"}
	}
	if len(ts) == 0 {
		return nil, &SyntaxError{Pos: start, Msg: "empty list of triples"}
	}
	return FromTriples(ts)
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tQuotedVar // `name`
	tString
	tNumber
	tPunct // ( ) { } , : ? .. = != < <= > >=
)

type token struct {
	kind tokKind
	text string // identifier, unquoted string, number text or punctuation
	pos  int
}

type parser struct {
	src  string
	toks []token
	i    int
	anon int
}

func (p *parser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			p.toks = append(p.toks, token{tIdent, s[i:j], i})
			i = j
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j+1 < len(s) && s[j] == '.' && s[j+1] >= '0' && s[j+1] <= '9' {
				j++
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			p.toks = append(p.toks, token{tNumber, s[i:j], i})
			i = j
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return &SyntaxError{Pos: i, Msg: "unterminated string"}
			}
			u, err := strconv.Unquote(s[i : j+1])
			if err != nil {
				return &SyntaxError{Pos: i, Msg: "bad string: " + err.Error()}
			}
			p.toks = append(p.toks, token{tString, u, i})
			i = j + 1
		case c == '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return &SyntaxError{Pos: i, Msg: "unterminated `variable`"}
			}
			if j == 0 {
				return &SyntaxError{Pos: i, Msg: "empty `variable`"}
			}
			p.toks = append(p.toks, token{tQuotedVar, s[i+1 : i+1+j], i})
			i += j + 2
		case strings.HasPrefix(s[i:], ".."), strings.HasPrefix(s[i:], "!="), strings.HasPrefix(s[i:], "<="), strings.HasPrefix(s[i:], ">="):
			p.toks = append(p.toks, token{tPunct, s[i : i+2], i})
			i += 2
		case strings.IndexByte("(){},:?=<>", c) >= 0:
			p.toks = append(p.toks, token{tPunct, s[i : i+1], i})
			i++
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return &SyntaxError{Pos: i, Msg: fmt.Sprintf("unexpected character %q", r)}
		}
	}
	p.toks = append(p.toks, token{tEOF, "", len(s)})
	return nil
}

func (p *parser) peek() token        { return p.toks[p.i] }
func (p *parser) peekAt(k int) token { return p.toks[min(p.i+k, len(p.toks)-1)] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := p.peek()
	return t.kind == tPunct && t.text == text
}

func (p *parser) errf(t token, format string, a ...any) error {
	return &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf(format, a...)}
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of query"
	case tString:
		return strconv.Quote(t.text)
	case tQuotedVar:
		return "`" + t.text + "`"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) expect(text string) error {
	if !p.is(text) {
		return p.errf(p.peek(), "expected %q, found %s", text, describe(p.peek()))
	}
	p.next()
	return nil
}

// headEnd is the index of the ':' that ends the head, or -1.
func (p *parser) headEnd() int {
	depth := 0
	for i, t := range p.toks {
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "{":
			depth++
		case ")", "}":
			depth--
		case ":":
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func (p *parser) parse() (*Query, error) {
	q := &Query{}
	hasHead := false
	if end := p.headEnd(); end >= 0 {
		hasHead = true
		if err := p.parseHead(q, end); err != nil {
			return nil, err
		}
		p.next() // ':'
	}
	for {
		if p.peek().kind == tEOF {
			return nil, p.errf(p.peek(), "expected a condition, found end of query")
		}
		if err := p.parseAtom(q); err != nil {
			return nil, err
		}
		if p.peek().kind == tEOF {
			break
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
	if !hasHead {
		target := false
		for _, a := range q.Atoms {
			if a.Kind == KindTriple && (a.S.Target || a.O.Target) {
				target = true
			}
		}
		if target {
			ts, _ := q.Triples()
			fq, err := FromTriples(ts)
			if err == nil {
				q.Select = fq.Select
			}
		} else {
			q.Select = q.namedVars()
		}
	}
	if err := q.validate(); err != nil {
		return nil, &SyntaxError{Pos: 0, Msg: strings.TrimPrefix(err.Error(), "query: ")}
	}
	return q, nil
}

func (p *parser) parseHead(q *Query, end int) error {
	for p.i < end {
		t := p.peek()
		switch {
		case t.kind == tPunct && t.text == "?":
			p.next()
			if n := p.peek(); (n.kind == tIdent || n.kind == tQuotedVar) && p.i < end {
				p.next()
				q.Select = append(q.Select, n.text)
			} else {
				q.Select = append(q.Select, TargetVar)
			}
		case t.kind == tIdent && p.peekAt(1).kind == tPunct && p.peekAt(1).text == "(":
			if q.Agg != nil {
				return p.errf(t, "only one aggregate per query")
			}
			agg, err := p.parseAgg()
			if err != nil {
				return err
			}
			q.Agg = agg
		case t.kind == tIdent || t.kind == tQuotedVar:
			p.next()
			q.Select = append(q.Select, t.text)
		default:
			return p.errf(t, "expected an answer variable or aggregate, found %s", describe(t))
		}
		if p.i < end {
			if err := p.expect(","); err != nil {
				return err
			}
			if p.i == end {
				return p.errf(p.peek(), "expected an answer variable after ','")
			}
		}
	}
	if q.Agg != nil && len(q.Select) > 0 {
		return p.errf(p.toks[0], "an aggregate is the whole head: write either variables or one aggregate")
	}
	if q.Agg == nil && len(q.Select) == 0 {
		return p.errf(p.peek(), "empty head before ':'")
	}
	return nil
}

func (p *parser) variable() (string, error) {
	t := p.peek()
	if t.kind == tPunct && t.text == "?" {
		p.next()
		if n := p.peek(); n.kind == tIdent || n.kind == tQuotedVar {
			p.next()
			return n.text, nil
		}
		return TargetVar, nil
	}
	if t.kind == tIdent || t.kind == tQuotedVar {
		p.next()
		return t.text, nil
	}
	return "", p.errf(t, "expected a variable, found %s", describe(t))
}

func (p *parser) parseAgg() (*AggFunc, error) {
	name := p.next()
	p.next() // '('
	a := &AggFunc{Op: name.text}
	nvars := 0
	switch name.text {
	case AggCount, AggSum, AggAvg, AggMin, AggMax:
		nvars = 1
	case AggCountDiff:
		v, err := p.variable()
		if err != nil {
			return nil, err
		}
		a.Vars = []string{v}
		for range 2 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
			t := p.next()
			id, err := strconv.ParseUint(t.text, 10, 32)
			if t.kind != tNumber || err != nil {
				return nil, p.errf(t, "countdiff: expected a tree id, found %s", describe(t))
			}
			a.Trees = append(a.Trees, uint32(id))
		}
		return a, p.expect(")")
	case AggDiff:
		nvars = 2
	case AggTop, AggBottom:
		t := p.next()
		k, err := strconv.Atoi(t.text)
		if t.kind != tNumber || err != nil || k < 0 {
			return nil, p.errf(t, "%s: expected a row count, found %s", name.text, describe(t))
		}
		a.K = k
		if err := p.expect(","); err != nil {
			return nil, err
		}
	case AggMember:
		t := p.next()
		if t.kind != tString && t.kind != tNumber {
			return nil, p.errf(t, "member: expected a constant, found %s", describe(t))
		}
		a.Const = t.text
		if err := p.expect(","); err != nil {
			return nil, err
		}
		nvars = 1
	default:
		return nil, p.errf(name, "unknown aggregate %q (count, sum, avg, min, max, top, bottom, diff, member, countdiff)", name.text)
	}
	for {
		v, err := p.variable()
		if err != nil {
			return nil, err
		}
		a.Vars = append(a.Vars, v)
		if !p.is(",") {
			break
		}
		p.next()
	}
	if nvars == 0 { // top, bottom: one or two
		nvars = min(max(len(a.Vars), 1), 2)
	}
	if len(a.Vars) != nvars {
		return nil, p.errf(name, "%s takes %d variable(s), found %d", name.text, nvars, len(a.Vars))
	}
	return a, p.expect(")")
}

func (p *parser) parseAtom(q *Query) error {
	t := p.peek()
	n := p.peekAt(1)
	isCall := (t.kind == tIdent || t.kind == tString) && n.kind == tPunct && n.text == "("
	if isCall && t.kind == tIdent && (t.text == "in_tree" || t.text == "not_in_tree") {
		p.next()
		p.next()
		v, err := p.variable()
		if err != nil {
			return err
		}
		if err := p.expect(","); err != nil {
			return err
		}
		ids, err := p.treeIDs()
		if err != nil {
			return err
		}
		q.Atoms = append(q.Atoms, Atom{Kind: KindInTree, S: varTerm(v), Trees: ids, Not: t.text == "not_in_tree"})
		return p.expect(")")
	}
	if isCall {
		p.next()
		p.next()
		if strings.TrimSpace(t.text) == "" {
			return p.errf(t, "empty relation name")
		}
		s, err := p.term(q, false)
		if err != nil {
			return err
		}
		if err := p.expect(","); err != nil {
			return err
		}
		o, err := p.term(q, true)
		if err != nil {
			return err
		}
		// The comparison filter of an inline comparison follows its triple.
		atom := Atom{Kind: KindTriple, S: s, Rel: t.text, O: o}
		if len(q.Atoms) > 0 && o.Var != "" && anonymous(o.Var) {
			f := q.Atoms[len(q.Atoms)-1]
			q.Atoms[len(q.Atoms)-1] = atom
			q.Atoms = append(q.Atoms, f)
		} else {
			q.Atoms = append(q.Atoms, atom)
		}
		return p.expect(")")
	}
	if t.kind == tIdent || t.kind == tQuotedVar || t.kind == tPunct && t.text == "?" {
		v, err := p.variable()
		if err != nil {
			return err
		}
		op := p.peek()
		if op.kind == tIdent && op.text == "in" {
			p.next()
			lo, hi, err := p.rangeLit()
			if err != nil {
				return err
			}
			q.Atoms = append(q.Atoms, Atom{Kind: KindFilter, Var: v, Op: OpRange, Lo: lo, Hi: hi})
			return nil
		}
		if op.kind == tPunct && isCmp(op.text) {
			p.next()
			x, err := p.number()
			if err != nil {
				return err
			}
			q.Atoms = append(q.Atoms, Atom{Kind: KindFilter, Var: v, Op: op.text, Lo: x})
			return nil
		}
		return p.errf(op, "expected relation(subject, object), in_tree(X, id) or a comparison such as X >= 10, found %s after %s", describe(op), describe(t))
	}
	return p.errf(t, "expected a condition, found %s", describe(t))
}

func isCmp(s string) bool {
	switch s {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return true
	}
	return false
}

func varTerm(v string) task.Term {
	if v == TargetVar {
		return task.Term{Target: true}
	}
	return task.Term{Var: v}
}

func (p *parser) number() (float64, error) {
	t := p.next()
	if t.kind != tNumber {
		return 0, p.errf(t, "expected a number, found %s", describe(t))
	}
	f, err := strconv.ParseFloat(t.text, 64)
	if err != nil {
		return 0, p.errf(t, "bad number %s", t.text)
	}
	return f, nil
}

func (p *parser) rangeLit() (lo, hi float64, err error) {
	start := p.peek()
	if lo, err = p.number(); err != nil {
		return
	}
	if err = p.expect(".."); err != nil {
		return
	}
	if hi, err = p.number(); err != nil {
		return
	}
	if hi < lo {
		err = p.errf(start, "empty range %s..%s", fmtNum(lo), fmtNum(hi))
	}
	return
}

func (p *parser) treeIDs() ([]uint32, error) {
	one := func() (uint32, error) {
		t := p.next()
		id, err := strconv.ParseUint(t.text, 10, 32)
		if t.kind != tNumber || err != nil {
			return 0, p.errf(t, "expected a tree id, found %s", describe(t))
		}
		return uint32(id), nil
	}
	if !p.is("{") {
		id, err := one()
		return []uint32{id}, err
	}
	p.next()
	var ids []uint32
	for {
		id, err := one()
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
		if !p.is(",") {
			break
		}
		p.next()
	}
	return ids, p.expect("}")
}

// term reads a subject (object false) or object. Objects may also be a
// comparison or a range, which become a made-up variable and a filter.
func (p *parser) term(q *Query, object bool) (task.Term, error) {
	t := p.peek()
	switch {
	case t.kind == tPunct && t.text == "?", t.kind == tIdent, t.kind == tQuotedVar:
		v, err := p.variable()
		return varTerm(v), err
	case t.kind == tString:
		p.next()
		return task.C(t.text), nil
	case t.kind == tNumber:
		if object && p.peekAt(1).kind == tPunct && p.peekAt(1).text == ".." {
			lo, hi, err := p.rangeLit()
			if err != nil {
				return task.Term{}, err
			}
			return p.inline(q, Atom{Kind: KindFilter, Op: OpRange, Lo: lo, Hi: hi}), nil
		}
		p.next()
		return task.C(t.text), nil
	case t.kind == tPunct && t.text == "{":
		p.next()
		var cs []string
		for {
			c := p.next()
			if c.kind != tString && c.kind != tNumber {
				return task.Term{}, p.errf(c, "expected a constant in {...}, found %s", describe(c))
			}
			cs = append(cs, c.text)
			if !p.is(",") {
				break
			}
			p.next()
		}
		return task.C(cs...), p.expect("}")
	case object && t.kind == tPunct && isCmp(t.text):
		p.next()
		x, err := p.number()
		if err != nil {
			return task.Term{}, err
		}
		return p.inline(q, Atom{Kind: KindFilter, Op: t.text, Lo: x}), nil
	}
	return task.Term{}, p.errf(t, "expected a variable, a constant, {constants} or ?, found %s", describe(t))
}

// inline records a filter on a made-up variable; parseAtom moves it after
// the triple that uses the variable.
func (p *parser) inline(q *Query, f Atom) task.Term {
	p.anon++
	f.Var = "#" + strconv.Itoa(p.anon)
	q.Atoms = append(q.Atoms, f)
	return task.Term{Var: f.Var}
}

// MarshalJSON writes the query's triple form; see Triples.
func (q *Query) MarshalJSON() ([]byte, error) {
	ts, err := q.Triples()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ts); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
