package eval_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web/webtest"
)

func TestCheckStore(t *testing.T) {
	g := webtest.OpenWeb(t).Store().Graph()
	tasks := agenttest.Tasks(t, g, 3)
	if err := task.CheckStore(tasks, g); err != nil {
		t.Fatalf("the tasks' own store: %v", err)
	}
	// Case and spacing are not a different name.
	shout := *tasks[0]
	shout.Targets = append([]task.Target(nil), shout.Targets...)
	shout.Targets[0].Name = "  " + strings.ToUpper(shout.Targets[0].Name) + " "
	if err := task.CheckStore([]*task.Task{&shout}, g); err != nil {
		t.Errorf("name in capitals: %v", err)
	}
	for _, c := range []struct {
		name, want string
		doctor     func(*task.Target)
	}{
		{"renamed", "which this store names", func(tg *task.Target) { tg.Name = "Nobody Of That Name" }},
		{"missing", "which this store does not have", func(tg *task.Target) { tg.Entity = 1 << 30 }},
	} {
		// The doctored target is the last task's last: checked although
		// every task's first comes before it.
		bad := *tasks[2]
		bad.Targets = append([]task.Target(nil), bad.Targets...)
		c.doctor(&bad.Targets[len(bad.Targets)-1])
		err := task.CheckStore([]*task.Task{tasks[0], tasks[1], &bad}, g)
		if !errors.Is(err, task.ErrOtherStore) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), bad.ID) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
