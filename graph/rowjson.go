package graph

import (
	"encoding/json"
	"errors"
)

// errRowSyntax makes UnmarshalJSON fall back to encoding/json.
var errRowSyntax = errors.New("graph: row: unexpected JSON")

// rowJSON is Row without its UnmarshalJSON, for the fallback.
type rowJSON Row

// UnmarshalJSON decodes a row. Rows are most of a tree's bytes and of the
// time taken to load every tree (synthesis loads the whole store's), so
// the form Marshal writes, {"key":N,"values":[[N,...],...]}, is read by
// hand; anything else goes through encoding/json.
func (r *Row) UnmarshalJSON(b []byte) error {
	if err := r.fast(b); err == nil {
		return nil
	}
	var x rowJSON
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*r = Row(x)
	return nil
}

func (r *Row) fast(b []byte) error {
	p := rowParser{b: b}
	if !p.lit(`{"key":`) {
		return errRowSyntax
	}
	k, ok := p.num()
	if !ok || !p.lit(`,"values":`) {
		return errRowSyntax
	}
	var vals [][]uint32
	switch {
	case p.lit("null"):
	case p.lit("["):
		vals = [][]uint32{}
		if !p.lit("]") {
			for {
				var cell []uint32
				switch {
				case p.lit("null"):
				case p.lit("["):
					cell = []uint32{}
					if !p.lit("]") {
						for {
							v, ok := p.num()
							if !ok {
								return errRowSyntax
							}
							cell = append(cell, v)
							if p.lit("]") {
								break
							}
							if !p.lit(",") {
								return errRowSyntax
							}
						}
					}
				default:
					return errRowSyntax
				}
				vals = append(vals, cell)
				if p.lit("]") {
					break
				}
				if !p.lit(",") {
					return errRowSyntax
				}
			}
		}
	default:
		return errRowSyntax
	}
	if !p.lit("}") || p.i != len(b) {
		return errRowSyntax
	}
	r.Key, r.Values = k, vals
	return nil
}

type rowParser struct {
	b []byte
	i int
}

// lit consumes s when the input continues with it.
func (p *rowParser) lit(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// num consumes a decimal uint32 without sign, fraction or exponent.
func (p *rowParser) num() (uint32, bool) {
	start := p.i
	var v uint64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		v = v*10 + uint64(p.b[p.i]-'0')
		if v > 1<<32-1 {
			return 0, false
		}
		p.i++
	}
	n := p.i - start
	if n == 0 || n > 1 && p.b[start] == '0' {
		return 0, false
	}
	if p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		return 0, false
	}
	return uint32(v), true
}
