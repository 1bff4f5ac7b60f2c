package export

import "errors"

// ErrUnknownFormat is returned by Lookup for a name no format has.
var ErrUnknownFormat = errors.New("export: unknown format")
