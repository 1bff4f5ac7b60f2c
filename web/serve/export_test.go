package serve

import "github.com/leaper-dev/leaper/index"

func indexOpts(k int) index.SearchOptions { return index.SearchOptions{K: k} }
