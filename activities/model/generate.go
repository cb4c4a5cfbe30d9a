package model

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/webagent-dev/webagent/activities"
	"strings"

	"go.temporal.io/sdk/temporal"
	"google.golang.org/genai"
)

// Output is an answer the model gives: it says what is wrong with itself.
type Output interface {
	Validate() error
}

// Image is a picture attached to a prompt.
type Image struct {
	Label string // said in the text just before it
	PNG   []byte
}

// call is one structured request.
type call struct {
	role   Role
	cfg    RoleConfig
	system string
	user   string
	images []Image
	schema map[string]any
	// budget is what the run has left; the call stops before a try it cannot pay for.
	budget activities.Budget
}

// generate sends the call and decodes the answer into out. An answer that is not JSON, or
// does not validate, is sent back with the error, up to cfg.Repairs times. The usage
// counts every try, the failed ones too, and comes back with the error as well.
func (c *Client) generate(ctx context.Context, k call, out Output) (activities.Usage, error) {
	var u activities.Usage
	parts := []*genai.Part{genai.NewPartFromText(k.user)}
	for _, img := range k.images {
		parts = append(parts, genai.NewPartFromText(img.Label), genai.NewPartFromBytes(img.PNG, "image/png"))
	}
	contents := []*genai.Content{genai.NewContentFromParts(parts, genai.RoleUser)}
	cfg := generationConfig(k.cfg, len(k.images) > 0)
	cfg.SystemInstruction = genai.NewContentFromText(k.system, genai.RoleUser)
	cfg.ResponseMIMEType = "application/json"
	cfg.ResponseJsonSchema = k.schema
	var lastErr error
	for try := 0; try <= c.cfg.Repairs; try++ {
		resp, err := c.send(ctx, k.cfg, k.budget, &u, contents, cfg)
		if err != nil {
			return u, err
		}
		text := resp.Text()
		lastErr = decode(text, out)
		if lastErr == nil {
			return u, nil
		}
		contents = append(contents, answered(resp, text),
			genai.NewContentFromText(fmt.Sprintf("That answer cannot be used: %v. Answer again with only the JSON the schema describes.", lastErr), genai.RoleUser))
	}
	return u, temporal.NewNonRetryableApplicationError(
		fmt.Sprintf("the %s answer was still invalid after %d tries: %v", k.role, c.cfg.Repairs+1, lastErr), activities.ErrModelInvalidOutput, lastErr)
}

// answered is the model's own turn, sent back with a repair: its content as it came, every
// part with its thought signature, which a thinking model needs to carry on its reasoning.
func answered(resp *genai.GenerateContentResponse, text string) *genai.Content {
	if len(resp.Candidates) > 0 && resp.Candidates[0].Content != nil && len(resp.Candidates[0].Content.Parts) > 0 {
		ct := *resp.Candidates[0].Content
		ct.Role = genai.RoleModel
		return &ct
	}
	return genai.NewContentFromText(text, genai.RoleModel)
}

// generationConfig is a role's model settings: its thinking level for the models that
// take one, and its media resolution when the call has images. Gemini 3 models keep
// their default temperature, as Google advises (lower ones make them loop); older models
// get a low one, for answers that vary little.
func generationConfig(rc RoleConfig, images bool) *genai.GenerateContentConfig {
	cfg := &genai.GenerateContentConfig{}
	if takesThinkingLevel(rc.Model) {
		if rc.Thinking != "" {
			cfg.ThinkingConfig = &genai.ThinkingConfig{ThinkingLevel: rc.Thinking}
		}
	} else {
		temp := float32(0.2)
		cfg.Temperature = &temp
	}
	if images && rc.Media != "" && rc.Media != genai.MediaResolutionUnspecified {
		cfg.MediaResolution = rc.Media
	}
	return cfg
}

// count adds one call's tokens and cost to u.
func (c *Client) count(u *activities.Usage, model string, resp *genai.GenerateContentResponse) {
	u.Calls++
	c.status(model, resp)
	var in, out, thought int
	if m := resp.UsageMetadata; m != nil {
		in, out, thought = int(m.PromptTokenCount), int(m.CandidatesTokenCount), int(m.ThoughtsTokenCount)
	}
	u.InputTokens += in
	u.OutputTokens += out
	u.ThinkingTokens += thought
	c.cfg.Prices.price(u, model, in, out+thought)
}

func decode(text string, out Output) error {
	text = strings.TrimSpace(text)
	// Some models wrap JSON in a fence even when asked for JSON.
	text = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(text, "```json"), "```"), "```")
	if text == "" {
		return fmt.Errorf("the answer is empty")
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		return fmt.Errorf("the answer is not valid JSON for the schema: %v", err)
	}
	return out.Validate()
}

// blocked reports a prompt or an answer stopped by safety filters.
func blocked(resp *genai.GenerateContentResponse) error {
	if f := resp.PromptFeedback; f != nil && f.BlockReason != "" {
		return temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("gemini blocked the prompt (%s); the page or the goal may hold content the model will not handle", f.BlockReason), activities.ErrModelSafetyBlock, nil)
	}
	if len(resp.Candidates) > 0 {
		switch r := resp.Candidates[0].FinishReason; r {
		case genai.FinishReasonSafety, genai.FinishReasonProhibitedContent, genai.FinishReasonBlocklist, genai.FinishReasonSPII, genai.FinishReasonRecitation:
			return temporal.NewNonRetryableApplicationError(fmt.Sprintf("gemini stopped its answer (%s)", r), activities.ErrModelSafetyBlock, nil)
		}
	}
	return nil
}
