package load

import "errors"

// ErrFailed is wrapped by Run's error when requests failed.
var ErrFailed = errors.New("load: requests failed")
