package rewardhttp

import (
	"context"

	"github.com/leaper-dev/leaper/agent/eval"
)

// Poster posts a request as JSON to a server's endpoint and decodes the
// answer; a web/serve *Client is one.
type Poster interface {
	PostJSON(ctx context.Context, path string, req, out any) error
}

// PostReward scores an answer (and optionally a trajectory) against a task
// through the server's POST /reward.
func PostReward(ctx context.Context, c Poster, req *RewardRequest) (*eval.Scores, error) {
	var sc eval.Scores
	if err := c.PostJSON(ctx, "/reward", req, &sc); err != nil {
		return nil, err
	}
	return &sc, nil
}
