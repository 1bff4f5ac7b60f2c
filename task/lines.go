package task

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// ReadFile reads tasks from a JSONL file; errors name the line.
func ReadFile(path string) ([]*Task, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Decode(f, path)
}

// Decode reads tasks, one JSON object per line; blank lines are
// allowed. name is used in errors. A file of trajectories (leaper rollout's
// output, easily passed for tasks) is refused by name rather than with the
// decoder's complaint about its answer field.
func Decode(r io.Reader, name string) ([]*Task, error) {
	ts, err := DecodeLinesOf[Task](r, name, KindTask)
	if err != nil {
		return nil, err
	}
	// Ids name tasks everywhere (rewards, trajectories, exports): two
	// synth runs of one variant and seed give the same ids to different
	// tasks, and their outputs concatenated must not pass.
	first := make(map[string]int, len(ts))
	for i, t := range ts {
		if j, dup := first[t.ID]; dup {
			return nil, fmt.Errorf("%s: task id %q twice (tasks %d and %d): tasks from several leaper synth runs need a --seed each", name, t.ID, j+1, i+1)
		}
		first[t.ID] = i
	}
	return ts, nil
}

// The kinds of JSON line leaper writes, as LineKind tells them apart.
const (
	KindTask       = "task"       // leaper synth's tasks
	KindTrajectory = "trajectory" // leaper rollout's trajectories
)

// LineKind says which of leaper's files a JSON line looks like it is from:
// KindTask when it has a task's keys (formalization, targets, trees) and
// none of a trajectory's (task_id, messages, steps), KindTrajectory for the
// reverse, "" when neither.
func LineKind(b []byte) string {
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) != nil {
		return ""
	}
	has := func(ks ...string) bool {
		for _, k := range ks {
			if _, ok := keys[k]; ok {
				return true
			}
		}
		return false
	}
	task, traj := has("formalization", "targets", "trees"), has("task_id", "messages", "steps")
	switch {
	case task && !traj:
		return KindTask
	case traj && !task:
		return KindTrajectory
	}
	return ""
}

// WrongKind is the error for a line of kind got where want was expected,
// or nil when the line is not plainly of the other kind.
func WrongKind(b []byte, want string) error {
	plural := map[string]string{KindTask: "a tasks file (leaper synth)", KindTrajectory: "a trajectories file (leaper rollout)"}
	bare := map[string]string{KindTask: "tasks (leaper synth)", KindTrajectory: "trajectories (leaper rollout)"}
	if got := LineKind(b); got != "" && got != want {
		return fmt.Errorf("this is %s, not %s", plural[got], bare[want])
	}
	return nil
}

// DecodeLines reads JSON Lines into values of T; blank lines are allowed.
// Errors name the line: "name:line: ...".
func DecodeLines[T any](r io.Reader, name string) ([]*T, error) {
	return DecodeLinesOf[T](r, name, "")
}

// notKind says why a line that does not decode is not of kind want.
func notKind(b []byte, want string) string {
	what := map[string]string{KindTask: "tasks as leaper synth writes them", KindTrajectory: "trajectories as leaper rollout writes them"}[want]
	if bytes.HasPrefix(b, []byte("PAR1")) {
		return "this is a parquet file; want JSON lines of " + what
	}
	// leaper export's JSON lines for other stacks.
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) == nil {
		for _, kf := range [][2]string{{"aug_answer", "asearcher"}, {"instance_id", "widesearch"}} {
			if _, ok := keys[kf[0]]; ok {
				return "this is leaper export --format " + kf[1] + "'s output; want JSON lines of " + what
			}
		}
	}
	return "want JSON lines of " + what
}

// DecodeLinesOf is DecodeLines for a file of lines of kind want (KindTask,
// KindTrajectory): a first line, or a line that does not decode, of the
// other kind is reported as such (WrongKind).
func DecodeLinesOf[T any](r io.Reader, name, want string) ([]*T, error) {
	return DecodeLinesValid[T](r, name, want, nil)
}

// DecodeLinesValid is DecodeLinesOf with valid run on every decoded value;
// its error is reported with the line.
func DecodeLinesValid[T any](r io.Reader, name, want string, valid func(*T) error) ([]*T, error) {
	var out []*T
	err := EachLine(r, name, want, valid, func(_ int, _ []byte, v *T) error {
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EachLine is DecodeLinesValid one line at a time: fn is called with each
// decoded value, its line number and the line itself (trimmed, valid only
// until fn returns). An error of fn stops the reading and is returned as
// it is.
func EachLine[T any](r io.Reader, name, want string, valid func(*T) error, fn func(line int, raw []byte, v *T) error) error {
	check := func(b []byte) error {
		if want == "" {
			return nil
		}
		return WrongKind(b, want)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	first := true
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if first {
			if err := check(b); err != nil {
				return fmt.Errorf("%s:%d: %w", name, line, err)
			}
			first = false
		}
		v := new(T)
		if err := json.Unmarshal(b, v); err != nil {
			if cerr := check(b); cerr != nil {
				err = cerr
			} else if want != "" {
				err = fmt.Errorf("%w (%s)", err, notKind(b, want))
			}
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if valid != nil {
			if err := valid(v); err != nil {
				return fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
		if err := fn(line, b, v); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
