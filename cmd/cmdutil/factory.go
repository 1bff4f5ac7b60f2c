package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/web"
)

// DefaultStore is the store directory used when --store is not given and
// LEAPER_STORE is unset.
const DefaultStore = "./leaper-data"

// IO are a command's streams.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Factory holds what commands share: streams, the store location and lazy
// openers, so --help never opens the store.
type Factory struct {
	IO    IO
	Store string
	// Web opens the store read-only, graph and index, and serves the
	// offline web over it.
	Web func() (*web.Web, error)
	// OpenStore opens the store read-only for reading its graph: the
	// graph alone (the store's Index is then nil) unless Web has opened
	// the whole store already. The store is the one type a command
	// meets; its graph is st.Graph().
	OpenStore func() (*store.Store, error)
	// IsTerminal reports whether stderr is a terminal (progress bars).
	IsTerminal bool
	web        *web.Web
	st, gst    *store.Store // the whole store; the graph alone
	// stopProfile ends --cpuprofile; Close calls it, so that a command
	// that fails (a build with skipped records exits 3) still leaves a
	// profile.
	stopProfile func()
}

// NewFactory returns a Factory over the process's streams.
func NewFactory() *Factory {
	f := NewFactoryIO(IO{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
	if fi, err := os.Stderr.Stat(); err == nil {
		f.IsTerminal = fi.Mode()&os.ModeCharDevice != 0
	}
	return f
}

// NewFactoryIO returns a Factory over the streams io, not a terminal.
func NewFactoryIO(io IO) *Factory {
	f := &Factory{IO: io}
	f.init()
	return f
}

// Opened reports whether the Factory opened the store, whole or its graph.
func (f *Factory) Opened() bool { return f.st != nil || f.gst != nil }

// Close closes what the lazy openers opened.
func (f *Factory) Close() error {
	if f.stopProfile != nil {
		f.stopProfile()
		f.stopProfile = nil
	}
	var errs []error
	for _, st := range []*store.Store{f.st, f.gst} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	f.web, f.st, f.gst = nil, nil, nil
	return errors.Join(errs...)
}

func (f *Factory) init() {
	f.Web = func() (*web.Web, error) {
		if f.web != nil {
			return f.web, nil
		}
		st, err := store.Open(f.Store, nil)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", f.Store, err)
		}
		w, err := web.New(st, nil)
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("open store %s: %w", f.Store, err)
		}
		f.st, f.web = st, w
		return w, nil
	}
	f.OpenStore = func() (*store.Store, error) {
		switch {
		case f.st != nil:
			return f.st, nil
		case f.gst != nil:
			return f.gst, nil
		}
		st, err := store.Open(f.Store, &store.Options{GraphOnly: true})
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", f.Store, err)
		}
		f.gst = st
		return st, nil
	}
}
