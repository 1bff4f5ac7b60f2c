package synth

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/internal/chatretry"
	"github.com/leaper-dev/leaper/task"
	openai "github.com/sashabaranov/go-openai"
)

// ParaphraseRequest is what a Paraphraser rewrites: a template question
// and the phrases it must keep verbatim (the constants of the formal
// query).
type ParaphraseRequest struct {
	Variant  task.Variant
	Question string
	Keep     []string
}

// Paraphraser rewrites template questions into fluent ones. Run validates
// every answer (constants kept, no answer entity named) and keeps the
// template when the call fails or the check does.
type Paraphraser interface {
	Paraphrase(ctx context.Context, req ParaphraseRequest) (string, error)
}

// LLM is a Paraphraser over an OpenAI-compatible chat endpoint. A call
// that fails for good (a 4xx other than 429, or a transient failure past
// the retries) returns an error wrapping ErrEndpoint, which stops Run: a
// wrong key or URL is said at once, not counted task by task.
type LLM struct {
	client *openai.Client
	model  string
	seed   int
	// Timeout bounds one call; Retries is how many times a transient
	// failure (429, 5xx, a timeout, a broken connection, a reply without
	// choices) is retried, after Backoff doubled each time. NewLLM sets
	// 2 minutes, 5 and 1 second.
	Timeout time.Duration
	Retries int
	Backoff time.Duration
	// OnRetry, when set, hears of each retry: its number, the wait before
	// it and the failure.
	OnRetry func(retry int, wait time.Duration, err error)
}

// ErrEndpoint wraps a paraphrase call that failed for good.
var ErrEndpoint = errors.New("synth: paraphrase endpoint failed")

// NewLLM returns a paraphraser for the endpoint at baseURL ("" is
// OpenAI's) with the given model and key.
func NewLLM(baseURL, model, apiKey string, seed int64) *LLM {
	cfg := openai.DefaultConfig(apiKey)
	if baseURL != "" {
		cfg.BaseURL = strings.TrimSuffix(baseURL, "/")
	}
	return &LLM{client: openai.NewClientWithConfig(cfg), model: model, seed: int(seed),
		Timeout: 2 * time.Minute, Retries: 5, Backoff: time.Second}
}

const paraphrasePrompt = `You rewrite questions for an information-seeking benchmark.
Rewrite the user's question so that it reads naturally and fluently, as a person would ask it.
Rules:
- Keep its meaning exactly: the same conditions and the same requested attributes.
- Copy each of these phrases verbatim: %s
- Do not add any name, number or fact that is not in the question.
- For a question that describes an entity by clues, keep every clue and never guess who it is.
Reply with the rewritten question only.`

// Paraphrase asks the model for one rewrite at temperature 0.
func (l *LLM) Paraphrase(ctx context.Context, req ParaphraseRequest) (string, error) {
	keep := make([]string, len(req.Keep))
	for i, k := range req.Keep {
		keep[i] = `"` + k + `"`
	}
	if len(keep) == 0 {
		keep = []string{"(none)"}
	}
	seed := l.seed
	creq := openai.ChatCompletionRequest{
		Model: l.model,
		// go-openai leaves a zero temperature out of the request (the
		// server's default, often 1, would apply): the smallest positive
		// one is sent instead, as its documentation advises.
		Temperature: math.SmallestNonzeroFloat32,
		Seed:        &seed,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: fmt.Sprintf(paraphrasePrompt, strings.Join(keep, ", "))},
			{Role: openai.ChatMessageRoleUser, Content: req.Question},
		},
	}
	resp, attempts, err := chatretry.Do(ctx, chatretry.Policy{Timeout: l.Timeout, Retries: l.Retries,
		Backoff: l.Backoff, MaxBackoff: time.Minute, OnRetry: l.OnRetry},
		chatretry.Complete(l.client, creq))
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil {
		return "", fmt.Errorf("%w after %d attempt(s): %w", ErrEndpoint, attempts, err)
	}
	return strings.TrimSpace(resp.Choices[0].Message.Content), nil
}

// Paraphrase outcomes, counted in Stats.Paraphrase.
const (
	ParaAccepted = "accepted"
	ParaFailed   = "call_failed"
	ParaEmpty    = "empty"
	ParaMissing  = "constant_missing"
	ParaLeak     = "leak"
	ParaTable    = "names_table" // the rewrite names a table or page (NamesTable)
	// ParaNumbers: the rewrite drops a number of the question or adds one
	// (a range's bound, a filter's threshold, an aggregate's value).
	ParaNumbers = "numbers_changed"
	ParaLong    = "too_long" // over three times the question's length
)

// paraphrase returns the model's rewrite of t.Question when it passes the
// checks, else the template. An error wrapping ErrEndpoint, or the context's, stops the run.
func (s *synth) paraphrase(ctx context.Context, d *draft, t *task.Task, st *Stats) (string, error) {
	q, err := s.paraphraseText(ctx, d, t, st)
	if errors.Is(err, ErrEndpoint) || ctx.Err() != nil {
		return "", err
	}
	if err != nil {
		st.Paraphrase[ParaFailed]++
		s.o.Logger.Debug("synth: paraphrase", "err", err)
		return t.Question, nil
	}
	return q, nil
}

// paraphraseText returns the model's rewrite of t.Question when it passes
// the checks, else the template.
func (s *synth) paraphraseText(ctx context.Context, d *draft, t *task.Task, st *Stats) (string, error) {
	keep := slices2keep(d)
	p, err := s.o.Paraphraser.Paraphrase(ctx, ParaphraseRequest{Variant: d.variant, Question: t.Question, Keep: keep})
	if err != nil {
		return "", err
	}
	// A reasoning model's thinking is not the question.
	if i := strings.LastIndex(p, "</think>"); i >= 0 {
		p = strings.TrimSpace(p[i+len("</think>"):])
	}
	if strings.TrimSpace(p) == "" {
		st.Paraphrase[ParaEmpty]++
		return t.Question, nil
	}
	if len(p) > 3*len(t.Question) {
		st.Paraphrase[ParaLong]++
		return t.Question, nil
	}
	lp := strings.ToLower(p)
	for _, k := range keep {
		if !containsWord(lp, strings.ToLower(k)) {
			st.Paraphrase[ParaMissing]++
			return t.Question, nil
		}
	}
	// The numbers are the question's conditions: the same ones, no more.
	if !maps.Equal(numbersOf(p), numbersOf(t.Question)) {
		st.Paraphrase[ParaNumbers]++
		return t.Question, nil
	}
	lq := strings.ToLower(t.Question)
	for _, h := range d.hidden {
		if n := strings.ToLower(s.name(h)); len(n) >= 3 && containsWord(lp, n) {
			st.Paraphrase[ParaLeak]++
			return t.Question, nil
		}
	}
	for _, tg := range t.Targets {
		n := strings.ToLower(strings.TrimSpace(tg.Name))
		if len(n) >= 3 && containsWord(lp, n) && !containsWord(lq, n) {
			st.Paraphrase[ParaLeak]++
			return t.Question, nil
		}
	}
	// An aggregate's value is the answer too (numbers are checked above).
	if a := t.Answer.Aggregate; a != nil {
		if v := strings.ToLower(strings.TrimSpace(a.Value)); v != "" && containsWord(lp, v) && !containsWord(lq, v) {
			st.Paraphrase[ParaLeak]++
			return t.Question, nil
		}
	}
	if NamesTable(p) {
		st.Paraphrase[ParaTable]++
		return t.Question, nil
	}
	st.Paraphrase[ParaAccepted]++
	return p, nil
}

// numberRE matches a number as written in a question: 4, 1,250, 27.5.
var numberRE = regexp.MustCompile(`[0-9]+(?:[.,][0-9]+)*`)

// numbersOf returns the numbers s writes.
func numbersOf(s string) map[string]bool {
	out := map[string]bool{}
	for _, n := range numberRE.FindAllString(s, -1) {
		out[strings.TrimRight(n, ".,")] = true
	}
	return out
}

// slices2keep lists what a paraphrase must keep: the live constants and
// the draft's other fixed phrases (range bounds).
func slices2keep(d *draft) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, sl := range d.slots {
		if sl.live {
			add(sl.text)
		}
	}
	for _, k := range d.keep {
		add(k)
	}
	return out
}
