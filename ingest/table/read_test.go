package table

import (
	"bytes"
	"testing"
)

func TestReadWhole(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 1000)
	for _, size := range []int64{-1, 0, 10, 9999, 10000, 10001, 1 << 20} {
		got, err := readWhole(bytes.NewReader(data), size)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("size %d: %d bytes, %v; want all %d", size, len(got), err, len(data))
		}
	}
}
