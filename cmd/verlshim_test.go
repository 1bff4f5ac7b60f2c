package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/agent/eval/rewardhttp"
	"github.com/leaper-dev/leaper/ingest/storetest"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/leaper-dev/leaper/web/webtest"
)

// TestVerlRewardShim runs examples/leaper_reward.py with python3 against a
// real leaper serve (this binary as leaper, on a loopback port) and checks
// that its scores are the server's /reward F for the same answers.
func TestVerlRewardShim(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	store := storetest.SampleStore(t)
	tasksPath, _ := writeTasks(t, 2)
	tasks, err := task.ReadFile(tasksPath)
	if err != nil {
		t.Fatal(err)
	}
	tk := tasks[0]

	srv := leaper(t, "serve", "--store", store, "--addr", "127.0.0.1:0", "--tasks", tasksPath)
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "leaper serve: http://"); ok {
				addr <- "http://" + strings.Fields(rest)[0]
			}
		}
	}()
	var base string
	select {
	case base = <-addr:
	case <-time.After(60 * time.Second):
		t.Fatal("leaper serve did not start")
	}

	right := "<think>done</think><answer>\n" + answerTable(tk) + "\n</answer>"
	wrong := "<answer>| x |\n|---|\n| nobody |</answer>"
	// What the server itself says for the right answer.
	w := webtest.OpenWeb(t)
	want := (&eval.Scorer{Graph: w.Store().Graph()}).Score(tk, right, nil).F
	c := serve.NewClient(base, "")
	got, err := rewardhttp.PostReward(context.Background(), c, &rewardhttp.RewardRequest{TaskID: tk.ID, Answer: &right})
	if err != nil || got.F != want || want < 0.99 {
		t.Fatalf("/reward f = %v (%v), scorer %v", got, err, want)
	}

	script := `
import json, sys
sys.path.insert(0, sys.argv[1])
import leaper_reward as lr
args = json.loads(sys.stdin.read())
one = lr.compute_score("leaper", args["right"], "", {"task_id": args["id"]})
two = lr.compute_score("leaper", args["wrong"], args["id"])
batch = lr.compute_score_batch(["leaper"] * 2, [args["right"], args["wrong"]], [args["id"], args["id"]], None)
try:
    lr.compute_score("leaper", "x", "no-such-task")
    bad = "accepted"
except RuntimeError as e:
    bad = str(e)
print(json.dumps({"one": one, "two": two, "batch": batch, "bad": bad}))
`
	in, _ := json.Marshal(map[string]string{"right": right, "wrong": wrong, "id": tk.ID})
	cmd := exec.Command(py, "-c", script, filepath.Join("..", "examples"))
	cmd.Env = append(cmd.Environ(), "LEAPER_URL="+base)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	var res struct {
		One, Two float64
		Batch    []float64
		Bad      string
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("shim output %q: %v", out, err)
	}
	if res.One != want || res.Two != 0 || len(res.Batch) != 2 || res.Batch[0] != want || res.Batch[1] != 0 {
		t.Errorf("shim scores %+v, want %v for the right answer and 0 for the wrong one", res, want)
	}
	if !strings.Contains(res.Bad, "HTTP 400") || !strings.Contains(res.Bad, "no-such-task") {
		t.Errorf("unknown task: %q", res.Bad)
	}
}

// answerTable writes a task's answer as the markdown table a model would.
func answerTable(t *task.Task) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.Answer.Columns, " | ") + " |\n|")
	for range t.Answer.Columns {
		b.WriteString("---|")
	}
	for _, r := range t.Answer.Rows {
		b.WriteString("\n| " + strings.Join(r, " | ") + " |")
	}
	return b.String()
}
