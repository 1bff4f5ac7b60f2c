package serve

import "github.com/leaper-dev/leaper/agent"

// A *Client is an agent.Backend: agent.Run runs its rollouts against the
// server as against a *web.Web. Checked here, so that the server's package
// needs nothing of the agent's.
var _ agent.Backend = (*Client)(nil)
