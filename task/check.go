package task

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/leaper-dev/leaper/graph"
)

// ErrOtherStore is returned by CheckStore when tasks were synthesised on
// another store than the one given.
var ErrOtherStore = errors.New("the tasks were synthesised on another store")

// checkTargets is how many targets CheckStore looks up at most: enough to
// meet a task of every file in practice, few enough to take milliseconds.
const checkTargets = 256

// Entities is what CheckStore reads of a store: *graph.Store has it.
type Entities interface {
	Entities(ids []uint32) ([]*graph.Entity, error)
}

// CheckStore reports whether tasks come from the store g: their targets
// name entities by id, and each checked id must be an entity of g that
// bears the target's name (as its name or an alias). On another store the
// ids name other entities, and what reads them (hardness, aliases in
// scoring, the oracle) would be silently wrong. It looks up the first
// target of every task, then more, up to a few hundred; the error names
// the task and the target.
func CheckStore(tasks []*Task, g Entities) error {
	type ref struct {
		task *Task
		tg   Target
	}
	var refs []ref
	for round := 0; len(refs) < checkTargets; round++ {
		added := false
		for _, t := range tasks {
			if round < len(t.Targets) {
				refs = append(refs, ref{t, t.Targets[round]})
				added = true
				if len(refs) == checkTargets {
					break
				}
			}
		}
		if !added {
			break
		}
	}
	if len(refs) == 0 {
		return nil
	}
	ids := make([]uint32, len(refs))
	for i, r := range refs {
		ids[i] = r.tg.Entity
	}
	ents, err := g.Entities(ids)
	if err != nil && !errors.Is(err, graph.ErrNotFound) {
		return err
	}
	if errors.Is(err, graph.ErrNotFound) {
		// Some id is not in the store at all: find which, one by one.
		for _, r := range refs {
			if _, err := g.Entities([]uint32{r.tg.Entity}); errors.Is(err, graph.ErrNotFound) {
				return fmt.Errorf("%w: task %s: target %q is entity %d, which this store does not have", ErrOtherStore, r.task.ID, r.tg.Name, r.tg.Entity)
			} else if err != nil {
				return err
			}
		}
		return err
	}
	for i, r := range refs {
		e := ents[i]
		if e == nil || bears(e, r.tg.Name) {
			continue
		}
		return fmt.Errorf("%w: task %s: target %q is entity %d, which this store names %q", ErrOtherStore, r.task.ID, r.tg.Name, r.tg.Entity, e.Name)
	}
	return nil
}

// bears reports whether e has name as its name or an alias, up to case and
// spacing.
func bears(e *graph.Entity, name string) bool {
	n := strings.Join(strings.Fields(strings.ToLower(name)), " ")
	names := append([]string{e.Name}, e.Aliases...)
	for _, a := range names {
		// An answer names "Hereafter (film)" "Hereafter", and a cell
		// "Thai elephant (Elephas maximus)" "Thai elephant".
		if m := disambiguator.FindStringSubmatch(a); m != nil {
			names = append(names, m[1])
		}
	}
	for _, a := range names {
		if strings.Join(strings.Fields(strings.ToLower(a)), " ") == n {
			return true
		}
	}
	// A figure or a date as its column writes it: "342,551,365" for
	// 342551365, "2.0" for 2, "10 June 2015" for 2015-06-10.
	if f, ok := graph.FigureName(strings.TrimSpace(name)); ok && f == e.Name || graph.ValueForm(e.Name, strings.TrimSpace(name)) {
		return true
	}
	// "Great Britain" for "Great Britain at the 2004 Summer Olympics": a
	// nation's team at the games, as a medal table writes it.
	return n != "" && strings.HasPrefix(strings.ToLower(e.Name), n+" at the ")
}

// disambiguator matches an article title with Wikipedia's disambiguator.
var disambiguator = regexp.MustCompile(`^(.+\S)\s+\([^()]+\)$`)
