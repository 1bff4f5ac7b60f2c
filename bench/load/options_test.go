package load

import (
	"context"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/web"
)

// TestRunRefusesBadOptions checks that Run says what is wrong with its
// options before it loads anything.
func TestRunRefusesBadOptions(t *testing.T) {
	w := func() (*web.Web, error) { t.Fatal("Run opened the web before checking its options"); return nil, nil }
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, "Options.Web is nil"},
		{Options{Web: w, Clients: []int{0}}, "0 clients"},
		{Options{Web: w, Clients: []int{MaxClients + 1}}, "clients"},
		{Options{Web: w, Requests: -1}, "requests -1"},
		{Options{Web: w, Soak: -1}, "soak"},
		{Options{Web: w, Cache: -1}, "cache -1"},
	} {
		if err := Run(context.Background(), &tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%+v) = %v, want an error saying %q", tc.o, err, tc.want)
		}
	}
}
