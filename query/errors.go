package query

import (
	"errors"
	"fmt"
)

// Sentinel errors. Errors returned by this package wrap them; test with
// errors.Is.
var (
	// ErrUnknownRelation reports a relation name that matches no relation of
	// the store. The message lists close names.
	ErrUnknownRelation = errors.New("query: unknown relation")
	// ErrUnknownConstant reports a constant (or an entity reference) that
	// resolves to no entity.
	ErrUnknownConstant = errors.New("query: constant matches no entity")
	// ErrUnknownTree reports a tree reference that names no tree.
	ErrUnknownTree = errors.New("query: no tree")
	// ErrInvalid reports a query that parses but cannot be evaluated: a
	// variable used only in a filter, an aggregate over an unknown variable.
	ErrInvalid = errors.New("query: invalid query")
	// ErrNotNumeric reports an aggregate or comparison over a value that has
	// no numeric reading.
	ErrNotNumeric = errors.New("query: value is not numeric")
	// ErrNotTriples reports a query that uses parts of the language the
	// WebShaper triple form cannot express (filters, aggregates).
	ErrNotTriples = errors.New("query: not expressible as triples")
)

// SyntaxError reports where a query fails to parse. Pos is the 0-based
// byte offset into the source.
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("query: syntax error at offset %d: %s", e.Pos, e.Msg)
}
