package table

import "fmt"

// ParseError reports a record or file that could not be read. It names the
// file and, where it has one, the line, so a user can find it.
type ParseError struct {
	File   string
	Line   int    // 1-based; 0 when the error is not about one line
	Reason string // short, stable, countable: "invalid json", "no table", ...
	Msg    string // detail
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Reason, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Reason, e.Msg)
}
