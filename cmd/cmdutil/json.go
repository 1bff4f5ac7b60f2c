package cmdutil

import (
	"encoding/json"
	"io"
)

// WriteJSON writes v as indented JSON, HTML unescaped, as every --json does.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
