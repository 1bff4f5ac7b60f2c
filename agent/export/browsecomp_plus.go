package export

import "github.com/leaper-dev/leaper/agent"

// The browsecomp-plus format: one BrowseComp-Plus run record per trajectory.
func init() {
	Register(&Lines{
		FormatName: "browsecomp-plus",
		Help: `browsecomp-plus: one run record per trajectory: query_id, tool_call_counts,
status, retrieved_docids (the pages searched up or visited, in order), and
result (the final answer as output_text).`,
		Record: func(t *agent.Trajectory) any { return BrowseCompPlus(t) },
	})
}

// BCPRun is a BrowseComp-Plus run record.
type BCPRun struct {
	QueryID        string         `json:"query_id"`
	ToolCallCounts map[string]int `json:"tool_call_counts"`
	Status         string         `json:"status"`
	RetrievedDocs  []string       `json:"retrieved_docids"`
	Result         []BCPOutput    `json:"result"`
}

// BCPOutput is one output item of a run record.
type BCPOutput struct {
	Type   string `json:"type"`
	Output string `json:"output"`
}

// BrowseCompPlus converts a trajectory to a run record.
func BrowseCompPlus(t *agent.Trajectory) BCPRun {
	r := BCPRun{QueryID: t.TaskID, ToolCallCounts: map[string]int{}, Status: "completed", RetrievedDocs: []string{}}
	if t.End != agent.EndAnswer {
		r.Status = string(t.End)
	}
	seen := map[string]bool{}
	for _, s := range t.Steps {
		if s.Tool != "" && s.Error == "" {
			r.ToolCallCounts[s.Tool]++
		}
		for _, u := range s.URLs {
			if !seen[u] {
				seen[u] = true
				r.RetrievedDocs = append(r.RetrievedDocs, u)
			}
		}
	}
	r.Result = []BCPOutput{{Type: "output_text", Output: t.Answer}}
	return r
}
