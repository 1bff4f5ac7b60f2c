package export

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/leaper-dev/leaper/agent"
)

// Format is one export format. Each lives in a file of its own and
// registers itself in an init function.
type Format interface {
	// Name is the format's --format value.
	Name() string
	// Doc is a paragraph for --help: what one record holds.
	Doc() string
	// NewWriter starts an export to w.
	NewWriter(w io.Writer) Writer
}

// Writer writes the trajectories of one export.
type Writer interface {
	// Write writes one trajectory.
	Write(t *agent.Trajectory) error
	// Close finishes the export (a format that needs every trajectory
	// before it writes writes then); it does not close the io.Writer.
	Close() error
}

var (
	mu      sync.RWMutex
	formats = map[string]Format{}
)

// Register adds a format; a second format of the same name panics.
func Register(f Format) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := formats[f.Name()]; dup {
		panic("export: format " + f.Name() + " registered twice")
	}
	formats[f.Name()] = f
}

// Lookup returns the format of a name.
func Lookup(name string) (Format, error) {
	mu.RLock()
	f := formats[name]
	mu.RUnlock()
	if f == nil {
		return nil, fmt.Errorf("%w %q (want %s)", ErrUnknownFormat, name, strings.Join(Names(), ", "))
	}
	return f, nil
}

// Names are the registered formats' names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(formats))
	for n := range formats {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Lines is a Format that writes one JSON value per trajectory, one per
// line, HTML unescaped: most formats are this with their own Record.
type Lines struct {
	FormatName string
	Help       string
	// Record is the JSON value of one trajectory.
	Record func(t *agent.Trajectory) any
}

// Name implements Format.
func (l *Lines) Name() string { return l.FormatName }

// Doc implements Format.
func (l *Lines) Doc() string { return l.Help }

// NewWriter implements Format.
func (l *Lines) NewWriter(w io.Writer) Writer {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &linesWriter{enc: enc, record: l.Record}
}

type linesWriter struct {
	enc    *json.Encoder
	record func(*agent.Trajectory) any
}

func (w *linesWriter) Write(t *agent.Trajectory) error { return w.enc.Encode(w.record(t)) }
func (w *linesWriter) Close() error                    { return nil }
