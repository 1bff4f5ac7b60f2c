package store

import "errors"

// ErrClosed is returned by a second Close.
var ErrClosed = errors.New("store: closed")
