package load

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// withDefaults checks o and returns a copy with its defaults filled in.
func (o *Options) withDefaults() (*Options, error) {
	c := *o
	if c.Web == nil {
		return nil, errors.New("load: Options.Web is nil")
	}
	if c.IO.Out == nil {
		c.IO.Out = io.Discard
	}
	if c.IO.ErrOut == nil {
		c.IO.ErrOut = io.Discard
	}
	if len(c.Clients) == 0 {
		c.Clients = []int{1, 8, 64}
	}
	for _, n := range c.Clients {
		if n < 1 || n > MaxClients {
			return nil, fmt.Errorf("load: %d clients is not a count in 1..%d", n, MaxClients)
		}
	}
	c.Requests = cmpOr(c.Requests, 2000)
	c.Rounds = cmpOr(c.Rounds, 3)
	c.Timeout = cmpOr(c.Timeout, 10*time.Minute)
	if c.Requests < 1 || c.Requests > MaxRequests || c.Soak < 0 || c.Soak > MaxSoak || c.Rounds < 1 || c.Cache < 0 || c.Workers < 0 {
		return nil, fmt.Errorf("load: options out of bounds: requests %d, soak %v, rounds %d, cache %d, workers %d", c.Requests, c.Soak, c.Rounds, c.Cache, c.Workers)
	}
	return &c, nil
}

// writeJSON writes v as indented JSON, HTML unescaped, as leaper's --json does.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
