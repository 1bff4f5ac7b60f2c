package web

import "errors"

var (
	// ErrClosed is returned by a second Close.
	ErrClosed = errors.New("web: closed")
	// ErrNoPage is returned by Page for a URL that is not an article URL
	// or names a page the store does not hold.
	ErrNoPage = errors.New("web: no such page")
)
