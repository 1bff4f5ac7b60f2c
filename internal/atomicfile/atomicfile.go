// Package atomicfile writes a file whole or not at all: into a temporary
// file beside it, renamed over it once written.
//
// # Concurrency
//
// Two writers of one path race on its temporary file; callers write a
// path from one goroutine.
//
// # Caveats
//
// The rename is atomic on one file system; the data is not synced to disk
// before it, so a machine crash (not a process crash) may leave a short
// file.
package atomicfile

import (
	"bufio"
	"io"
	"os"
)

// Write writes path through write, buffered, into path+".tmp" and renames
// it over path; on any error the temporary file is removed and path is
// left as it was.
func Write(path string, write func(w io.Writer) error) error {
	tmp := path + ".tmp"
	fh, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(fh)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
