// Package webtest opens the offline web of the sample store for tests.
package webtest

import (
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/web"
)

// OpenWeb opens the sample store's offline web, closed at cleanup.
func OpenWeb(t testing.TB) *web.Web {
	t.Helper()
	w, err := web.Open(storetest.SampleStore(t), nil)
	if err != nil {
		t.Fatalf("webtest: open web: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}
