package web

import (
	"encoding/json"
	"errors"
	"strconv"
)

var (
	// ErrClosed is returned by a second Close.
	ErrClosed = errors.New("web: closed")
	// ErrNoPage is returned by Page for a URL that is not an article URL
	// or names a page the store does not hold.
	ErrNoPage = errors.New("web: no such page")
)

// JSONMessage says what is wrong with a request body that encoding/json
// refused, shortly, for a client: which field has the wrong type, or that
// the body is no JSON object. The HTTP servers and the endpoints mounted
// on them say it alike.
func JSONMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return "field " + strconv.Quote(te.Field) + " must be " + te.Type.String()
		}
		return "body must be a JSON object"
	}
	return err.Error()
}
