package export

import "errors"

var (
	// ErrUnknownFormat is returned by Lookup for a name no format has.
	ErrUnknownFormat = errors.New("export: unknown format")
	// ErrNoTasks is returned by a dataset given no tasks.
	ErrNoTasks = errors.New("export: no tasks")
	// ErrNeedStore is returned by a dataset that reads pages given none.
	ErrNeedStore = errors.New("export: this format reads the store's pages")
)
