package agent

import "errors"

var (
	// ErrCacheMiss is returned in replay mode when the cache holds no
	// response for a request.
	ErrCacheMiss = errors.New("agent: model cache miss (record the run first with --cache-mode record)")
	// ErrReplayMiss is returned by Replay for a turn the recording does
	// not hold.
	ErrReplayMiss = errors.New("agent: replay: not in the recorded trajectories")
	// ErrModel is wrapped by model failures that outlived their retries or
	// cannot be retried.
	ErrModel = errors.New("agent: model request failed")
	// ErrNoModel is returned when a model policy has no ChatModel.
	ErrNoModel = errors.New("agent: no chat model configured")
	// ErrPolicy is returned for an unknown policy name.
	ErrPolicy = errors.New("agent: unknown policy")
	// ErrClosed is returned by a second Close.
	ErrClosed = errors.New("agent: closed")
	// ErrProtocol is returned for an unknown protocol name.
	ErrProtocol = errors.New("agent: unknown protocol (want text or native)")

	// ErrOptions reports options out of range, such as negative Workers.
	ErrOptions = errors.New("agent: bad options")
)
