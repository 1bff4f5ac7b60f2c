package load

import (
	"context"

	"github.com/leaper-dev/leaper/graph"
)

// SearchQueries draws up to n search queries from the store's trees, as
// the load's mix does with the same seed (leaper-bench search uses them).
func SearchQueries(ctx context.Context, g *graph.Store, n int, seed uint64) ([]string, error) {
	reqs, err := benchWorkload(ctx, g, "", n*2, seed)
	if err != nil {
		return nil, err
	}
	var queries []string
	for _, r := range reqs {
		if r.Endpoint == "search" && len(queries) < n {
			queries = append(queries, r.Query)
		}
	}
	return queries, nil
}
