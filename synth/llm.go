package synth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/leaper-dev/leaper/query"
	openai "github.com/sashabaranov/go-openai"
)

// ParaphraseRequest is what a Paraphraser rewrites: a template question
// and the phrases it must keep verbatim (the constants of the formal
// query).
type ParaphraseRequest struct {
	Variant  query.Variant
	Question string
	Keep     []string
}

// Paraphraser rewrites template questions into fluent ones. Run validates
// every answer (constants kept, no answer entity named) and keeps the
// template when the call fails or the check does.
type Paraphraser interface {
	Paraphrase(ctx context.Context, req ParaphraseRequest) (string, error)
}

// LLM is a Paraphraser over an OpenAI-compatible chat endpoint.
type LLM struct {
	client *openai.Client
	model  string
	seed   int
}

// NewLLM returns a paraphraser for the endpoint at baseURL ("" is
// OpenAI's) with the given model and key.
func NewLLM(baseURL, model, apiKey string, seed int64) *LLM {
	cfg := openai.DefaultConfig(apiKey)
	if baseURL != "" {
		cfg.BaseURL = strings.TrimSuffix(baseURL, "/")
	}
	return &LLM{client: openai.NewClientWithConfig(cfg), model: model, seed: int(seed)}
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
	resp, err := l.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:       l.model,
		Temperature: 0,
		Seed:        &seed,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: fmt.Sprintf(paraphrasePrompt, strings.Join(keep, ", "))},
			{Role: openai.ChatMessageRoleUser, Content: req.Question},
		},
	})
	if err != nil {
		return "", fmt.Errorf("synth: paraphrase: %w", err)
	}
	if len(resp.Choices) == 0 {
		return "", errors.New("synth: paraphrase: no choices")
	}
	return strings.TrimSpace(resp.Choices[0].Message.Content), nil
}

// Paraphrase outcomes, counted in Stats.Paraphrase.
const (
	ParaAccepted = "accepted"
	ParaFailed   = "call_failed"
	ParaMissing  = "constant_missing"
	ParaLeak     = "leak"
	ParaTable    = "names_table" // the rewrite names a table or page (NamesTable)
)

// paraphrase returns the model's rewrite of t.Question when it passes the
// checks, else the template.
func (s *synth) paraphrase(ctx context.Context, d *draft, t *query.Task, st *Stats) string {
	keep := slices2keep(d)
	p, err := s.o.Paraphraser.Paraphrase(ctx, ParaphraseRequest{Variant: d.variant, Question: t.Question, Keep: keep})
	if err != nil || strings.TrimSpace(p) == "" {
		st.Paraphrase[ParaFailed]++
		s.o.Logger.Debug("synth: paraphrase", "err", err)
		return t.Question
	}
	lp := strings.ToLower(p)
	for _, k := range keep {
		if !strings.Contains(lp, strings.ToLower(k)) {
			st.Paraphrase[ParaMissing]++
			return t.Question
		}
	}
	lq := strings.ToLower(t.Question)
	for _, h := range d.hidden {
		if n := strings.ToLower(s.name(h)); len(n) >= 3 && containsWord(lp, n) {
			st.Paraphrase[ParaLeak]++
			return t.Question
		}
	}
	for _, tg := range t.Targets {
		n := strings.ToLower(strings.TrimSpace(tg.Name))
		if len(n) >= 3 && containsWord(lp, n) && !containsWord(lq, n) {
			st.Paraphrase[ParaLeak]++
			return t.Question
		}
	}
	if NamesTable(p) {
		st.Paraphrase[ParaTable]++
		return t.Question
	}
	st.Paraphrase[ParaAccepted]++
	return p
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
