package export

import (
	"context"
)

// The skyrl format: parquet for SkyRL's search environment.
func init() { RegisterDataset(skyrl{}) }

// RewardSpec is SkyRL's reward_spec column (skyrl-gym's search env reads
// reward_spec["ground_truth"]).
type RewardSpec struct {
	Method      string      `parquet:"method" json:"method"`
	GroundTruth GroundTruth `parquet:"ground_truth" json:"ground_truth"`
}

// SkyRLRow is one row of the skyrl parquet file.
type SkyRLRow struct {
	DataSource string     `parquet:"data_source" json:"data_source"`
	Prompt     []Message  `parquet:"prompt,list" json:"prompt"`
	EnvClass   string     `parquet:"env_class" json:"env_class"`
	RewardSpec RewardSpec `parquet:"reward_spec" json:"reward_spec"`
	ExtraInfo  ExtraInfo  `parquet:"extra_info" json:"extra_info"`
}

type skyrl struct{}

func (skyrl) Name() string { return "skyrl" }
func (skyrl) Dir() bool    { return false }

func (skyrl) Doc() string {
	return `skyrl: parquet for SkyRL (skyrl-gym's search env): data_source, prompt,
env_class "search", reward_spec {method, ground_truth}, extra_info.`
}

func (skyrl) WriteDataset(ctx context.Context, src *Source, out string) error {
	if len(src.Tasks) == 0 {
		return ErrNoTasks
	}
	rows := make([]SkyRLRow, 0, len(src.Tasks))
	for i, t := range src.Tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows = append(rows, SkyRLRow{
			DataSource: src.dataSource("leaper"),
			// skyrl-gym's search env parses <search> and <answer> as
			// Search-R1 does.
			Prompt:     []Message{{Role: "user", Content: SearchR1Prompt(t)}},
			EnvClass:   "search",
			RewardSpec: RewardSpec{Method: "rule", GroundTruth: groundTruth(t)},
			ExtraInfo:  extraInfo(src, i, t),
		})
	}
	return writeParquet(out, rows)
}
