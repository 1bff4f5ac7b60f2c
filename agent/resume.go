package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/leaper-dev/leaper/internal/atomicfile"
)

// Resumed is what an output file of trajectories already holds, as
// Resume read it.
type Resumed struct {
	// Done are the ids of the tasks whose trajectories are in the file.
	Done map[string]bool
	// Retried is how many trajectories had ended in error and were taken
	// out of the file, so that their tasks run again.
	Retried int
}

// Resume readies path, a file that a run appends trajectories to, for a
// run that continues it: it reads the trajectories already there (none
// when path does not exist), cuts a torn last line (a killed run's), takes
// out the trajectories that ended in error (the model endpoint failed),
// rewriting the file whole or not at all, and returns the tasks done.
//
// Every whole line must be a trajectory: appending to a tasks file or a
// CSV would spoil it, so such a file is refused with an error naming its
// line, and left as it was. A torn last line is cut only when the rest is
// trajectories and it starts as one does.
func Resume(path string) (*Resumed, error) {
	r := &Resumed{Done: map[string]bool{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	whole, torn := b, []byte(nil)
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		whole, torn = b[:i+1], b[i+1:]
	}
	var kept bytes.Buffer
	err = EachTrajectory(bytes.NewReader(whole), path, func(t *Trajectory, line []byte) error {
		if t.End == EndError {
			r.Retried++
			return nil
		}
		r.Done[t.TaskID] = true
		kept.Write(line)
		kept.WriteByte('\n')
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(torn) > 0 && !bytes.HasPrefix(torn, []byte(`{"task_id":`)) {
		return nil, fmt.Errorf("%s:%d: %w", path, bytes.Count(whole, []byte("\n"))+1, ErrNotTrajectory)
	}
	switch {
	case r.Retried > 0:
		// The file without them, whole or not at all.
		err = atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(kept.Bytes()); return err })
	case len(torn) > 0:
		err = os.Truncate(path, int64(len(whole)))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
