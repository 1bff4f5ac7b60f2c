package graph

import (
	"encoding/json"
	"strings"
	"unsafe"
)

// decodeTree decodes a tree as Marshal writes it (the fields in any order,
// no whitespace), without encoding/json's reflection and validation pass:
// loading every tree of a store (synthesis does) is mostly this. Strings
// with escapes are decoded by encoding/json one by one, and any other form
// of tree goes through encoding/json whole, so the result is always
// encoding/json's.
func decodeTree(b []byte, t *Tree) error {
	if t.fast(b) == nil {
		return nil
	}
	*t = Tree{}
	return json.Unmarshal(b, t)
}

func (t *Tree) fast(b []byte) error {
	p := rowParser{b: b}
	if !p.lit("{") {
		return errRowSyntax
	}
	if p.lit("}") {
		return p.end()
	}
	for {
		k, ok := p.str()
		if !ok || !p.lit(":") {
			return errRowSyntax
		}
		var err error
		switch k {
		case "id":
			t.ID, err = p.u32()
		case "table_key":
			t.TableKey, err = p.s()
		case "source":
			t.Source, err = p.s()
		case "page_title":
			t.PageTitle, err = p.s()
		case "page_url":
			t.PageURL, err = p.s()
		case "table_index":
			var v uint32
			v, err = p.u32()
			t.TableIndex = int(v)
		case "section":
			t.Section, err = p.s()
		case "caption":
			t.Caption, err = p.s()
		case "group":
			t.Group, err = p.s()
		case "question":
			t.Question, err = p.u32s()
		case "key_header":
			t.KeyHeader, err = p.s()
		case "key_datatype":
			var s string
			s, err = p.s()
			t.KeyDatatype = Datatype(s)
		case "key_domain":
			t.KeyDomain, err = p.s()
		case "columns":
			t.Columns, err = p.columns()
		case "rows":
			t.Rows, err = p.rows()
		case "dropped":
			t.Dropped, err = p.strs()
		case "shown":
			t.Shown, err = p.shown()
		case "decimals":
			t.Decimals, err = p.decimals()
		case "grouped":
			t.Grouped, err = p.flags()
		case "comma":
			t.Comma, err = p.flags()
		case "untitled":
			t.Untitled, err = p.bool()
		case "cut":
			t.Cut, err = p.bool()
		case "twin_in_text":
			t.TwinInText, err = p.bool()
		case "stated":
			t.Stated, err = readObject(&p, p.key, p.s)
		case "several_keys":
			var v uint32
			v, err = p.u32()
			t.SeveralKeys = int(v)
		default:
			return errRowSyntax
		}
		if err != nil {
			return err
		}
		if p.lit("}") {
			return p.end()
		}
		if !p.lit(",") {
			return errRowSyntax
		}
	}
}

func (p *rowParser) end() error {
	if p.i != len(p.b) {
		return errRowSyntax
	}
	return nil
}

// str reads a JSON string without escapes, sharing b's bytes.
func (p *rowParser) str() (string, bool) {
	if !p.lit(`"`) {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			s := unsafe.String(&p.b[start], p.i-start)
			if p.i == start {
				s = ""
			}
			p.i++
			return s, true
		case c == '\\' || c < 0x20:
			return "", false
		}
		p.i++
	}
	return "", false
}

// s reads a JSON string, copied (b is the store's buffer); one with
// escapes (Marshal writes <, > and & as \u escapes) is decoded by
// encoding/json.
func (p *rowParser) s() (string, error) {
	start := p.i
	if s, ok := p.str(); ok {
		return strings.Clone(s), nil
	}
	p.i = start
	if !p.lit(`"`) {
		return "", errRowSyntax
	}
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				return "", errRowSyntax
			}
			return s, nil
		}
		p.i++
	}
	return "", errRowSyntax
}

func (p *rowParser) bool() (bool, error) {
	switch {
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	}
	return false, errRowSyntax
}

func (p *rowParser) u32() (uint32, error) {
	v, ok := p.num()
	if !ok {
		return 0, errRowSyntax
	}
	return v, nil
}

// u32s reads null or an array of numbers.
func (p *rowParser) u32s() ([]uint32, error) {
	if p.lit("null") {
		return nil, nil
	}
	if !p.lit("[") {
		return nil, errRowSyntax
	}
	out := []uint32{}
	if p.lit("]") {
		return out, nil
	}
	for {
		v, ok := p.num()
		if !ok {
			return nil, errRowSyntax
		}
		out = append(out, v)
		if p.lit("]") {
			return out, nil
		}
		if !p.lit(",") {
			return nil, errRowSyntax
		}
	}
}

// shown reads null or an object of entity ids (as JSON keys) to strings.
func (p *rowParser) shown() (map[uint32]string, error) {
	return readObject(p, func() (uint32, bool) {
		if !p.lit(`"`) {
			return 0, false
		}
		id, ok := p.num()
		return id, ok && p.lit(`"`)
	}, p.s)
}

// decimals reads null or an object of relation names to small numbers.
func (p *rowParser) decimals() (map[string]int, error) {
	return readObject(p, p.key, func() (int, error) {
		v, ok := p.num()
		if !ok {
			return 0, errRowSyntax
		}
		return int(v), nil
	})
}

// flags reads null or an object of relation names to booleans.
func (p *rowParser) flags() (map[string]bool, error) { return readObject(p, p.key, p.bool) }

// key reads an object's string key.
func (p *rowParser) key() (string, bool) {
	k, err := p.s()
	return k, err == nil
}

// readObject reads null or a JSON object whose keys key reads and whose
// values val reads.
func readObject[K comparable, V any](p *rowParser, key func() (K, bool), val func() (V, error)) (map[K]V, error) {
	if p.lit("null") {
		return nil, nil
	}
	if !p.lit("{") {
		return nil, errRowSyntax
	}
	out := map[K]V{}
	if p.lit("}") {
		return out, nil
	}
	for {
		k, ok := key()
		if !ok || !p.lit(":") {
			return nil, errRowSyntax
		}
		v, err := val()
		if err != nil {
			return nil, err
		}
		out[k] = v
		if p.lit("}") {
			return out, nil
		}
		if !p.lit(",") {
			return nil, errRowSyntax
		}
	}
}

func (p *rowParser) strs() ([]string, error) {
	if p.lit("null") {
		return nil, nil
	}
	if !p.lit("[") {
		return nil, errRowSyntax
	}
	out := []string{}
	if p.lit("]") {
		return out, nil
	}
	for {
		s, err := p.s()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if p.lit("]") {
			return out, nil
		}
		if !p.lit(",") {
			return nil, errRowSyntax
		}
	}
}

func (p *rowParser) columns() ([]Column, error) {
	if p.lit("null") {
		return nil, nil
	}
	if !p.lit("[") {
		return nil, errRowSyntax
	}
	out := []Column{}
	if p.lit("]") {
		return out, nil
	}
	for {
		var c Column
		if !p.lit("{") {
			return nil, errRowSyntax
		}
		if !p.lit("}") {
			for {
				k, ok := p.str()
				if !ok || !p.lit(":") {
					return nil, errRowSyntax
				}
				var err error
				switch k {
				case "header":
					c.Header, err = p.s()
				case "relation":
					c.Relation, err = p.u32()
				case "name":
					c.Name, err = p.s()
				case "datatype":
					var s string
					s, err = p.s()
					c.Datatype = Datatype(s)
				case "domain":
					c.Domain, err = p.s()
				default:
					return nil, errRowSyntax
				}
				if err != nil {
					return nil, err
				}
				if p.lit("}") {
					break
				}
				if !p.lit(",") {
					return nil, errRowSyntax
				}
			}
		}
		out = append(out, c)
		if p.lit("]") {
			return out, nil
		}
		if !p.lit(",") {
			return nil, errRowSyntax
		}
	}
}

func (p *rowParser) rows() ([]Row, error) {
	if p.lit("null") {
		return nil, nil
	}
	if !p.lit("[") {
		return nil, errRowSyntax
	}
	out := []Row{}
	if p.lit("]") {
		return out, nil
	}
	for {
		// A row's extent: its object up to the matching brace (rows hold
		// no strings).
		start, depth := p.i, 0
		for ; p.i < len(p.b); p.i++ {
			c := p.b[p.i]
			if c == '{' || c == '[' {
				depth++
			} else if c == '}' || c == ']' {
				depth--
				if depth == 0 {
					p.i++
					break
				}
			} else if c == '"' && depth > 1 {
				return nil, errRowSyntax
			}
		}
		var r Row
		if err := r.fast(p.b[start:p.i]); err != nil {
			return nil, err
		}
		out = append(out, r)
		if p.lit("]") {
			return out, nil
		}
		if !p.lit(",") {
			return nil, errRowSyntax
		}
	}
}
