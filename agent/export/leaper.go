package export

import (
	"io"

	"github.com/leaper-dev/leaper/agent"
)

// The leaper format: the trajectory itself, one JSONL line as
// agent.WriteTrajectory writes it (what rollout writes and filter keeps).
func init() { Register(leaperFormat{}) }

type leaperFormat struct{}

func (leaperFormat) Name() string { return "leaper" }

func (leaperFormat) Doc() string {
	return `leaper: the trajectory itself, one JSONL line as leaper rollout writes it.`
}

func (leaperFormat) NewWriter(w io.Writer) Writer { return leaperWriter{w} }

type leaperWriter struct{ w io.Writer }

func (l leaperWriter) Write(t *agent.Trajectory) error { return agent.WriteTrajectory(l.w, t) }
func (l leaperWriter) Close() error                    { return nil }
