package index

import (
	"sync"
	"unsafe"
)

// arena hands out memory for the decoded posting lists outside the Go
// heap (offHeap): the lists live as long as the index, hold no pointers,
// and may take gigabytes, which would otherwise count against the heap
// limit a server's collector is paced by (leaper serve --max-memory) and
// make it collect without end. Memory is never handed back until free,
// which the index calls on Close, when no search runs.
type arena struct {
	mu     sync.Mutex
	chunks [][]byte // every mapping, unmapped by free
	rest   []byte   // unused tail of the last chunk
}

// arenaChunk is the size of the mappings small allocations are cut from.
const arenaChunk = 64 << 20

// bytes returns n zeroed bytes, 8-byte aligned, or nil when no memory can
// be mapped.
func (a *arena) bytes(n int) []byte {
	if n == 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	n8 := (n + 7) &^ 7
	if n8 > arenaChunk/4 {
		b := offHeap(n8)
		if b == nil {
			return nil
		}
		a.chunks = append(a.chunks, b)
		return b[:n:n]
	}
	if len(a.rest) < n8 {
		b := offHeap(arenaChunk)
		if b == nil {
			return nil
		}
		a.chunks = append(a.chunks, b)
		a.rest = b
	}
	b := a.rest[:n:n]
	a.rest = a.rest[n8:]
	return b
}

// uint32s returns n zeroed uint32s, or nil.
func (a *arena) uint32s(n int) []uint32 {
	b := a.bytes(4 * n)
	if b == nil {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), n)
}

// uint16s returns n zeroed uint16s, or nil.
func (a *arena) uint16s(n int) []uint16 {
	b := a.bytes(2 * n)
	if b == nil {
		return nil
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), n)
}

// float32s returns n zeroed float32s, or nil.
func (a *arena) float32s(n int) []float32 {
	b := a.bytes(4 * n)
	if b == nil {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n)
}

// free unmaps everything; nothing handed out may be used afterwards.
func (a *arena) free() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, b := range a.chunks {
		freeOffHeap(b)
	}
	a.chunks, a.rest = nil, nil
}
