//go:build unix

package index

import "syscall"

// offHeap maps n bytes of anonymous memory, or returns nil.
func offHeap(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	return b
}

func freeOffHeap(b []byte) { _ = syscall.Munmap(b) }
