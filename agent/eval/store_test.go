package eval_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/web/webtest"
)

func TestCheckStore(t *testing.T) {
	g := webtest.OpenWeb(t).Store().Graph()
	tasks := agenttest.Tasks(t, g, 3)
	if err := eval.CheckStore(tasks, g); err != nil {
		t.Fatalf("the tasks' own store: %v", err)
	}
	// Case and spacing are not a different name.
	shout := *tasks[0]
	shout.Targets = append([]query.Target(nil), shout.Targets...)
	shout.Targets[0].Name = "  " + strings.ToUpper(shout.Targets[0].Name) + " "
	if err := eval.CheckStore([]*query.Task{&shout}, g); err != nil {
		t.Errorf("name in capitals: %v", err)
	}
	for _, c := range []struct {
		name, want string
		doctor     func(*query.Target)
	}{
		{"renamed", "which this store names", func(tg *query.Target) { tg.Name = "Nobody Of That Name" }},
		{"missing", "which this store does not have", func(tg *query.Target) { tg.Entity = 1 << 30 }},
	} {
		// The doctored target is the last task's last: checked although
		// every task's first comes before it.
		bad := *tasks[2]
		bad.Targets = append([]query.Target(nil), bad.Targets...)
		c.doctor(&bad.Targets[len(bad.Targets)-1])
		err := eval.CheckStore([]*query.Task{tasks[0], tasks[1], &bad}, g)
		if !errors.Is(err, eval.ErrOtherStore) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), bad.ID) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
