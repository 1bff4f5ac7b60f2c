//go:build !unix

package index

// offHeap falls back to the Go heap where there is no mmap.
func offHeap(n int) []byte { return make([]byte, n) }

func freeOffHeap([]byte) {}
