// Package model is the agent's brain: Gemini through google.golang.org/genai, asked for
// JSON with a response schema in every call, with answers validated and repaired, errors
// classified by what retrying can do, and tokens counted.
package model

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"google.golang.org/genai"
)

// Configured reports whether the environment holds credentials for Gemini.
func Configured() bool {
	if os.Getenv("GEMINI_API_KEY") != "" || os.Getenv("GOOGLE_API_KEY") != "" {
		return true
	}
	switch strings.ToLower(os.Getenv("GOOGLE_GENAI_USE_VERTEXAI")) {
	case "1", "true", "yes":
		return true
	}
	return false
}

// Client calls Gemini.
type Client struct {
	gc  *genai.Client
	cfg Config
	// Log gets the warnings the API's answers carry: a model deprecated, or served by
	// another. Each is logged once per process. nil logs nowhere.
	Log    *slog.Logger
	warned sync.Map
}

// New returns a client. The SDK's own retries are off: Temporal's retry policy is the one
// retry layer, so that every retry is visible in the workflow's history.
func New(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Prices.Models == nil {
		cfg.Prices = DefaultPrices
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 90 * time.Second
	}
	if cfg.Repairs == 0 {
		cfg.Repairs = 2
	}
	one := int32(1)
	cc := &genai.ClientConfig{HTTPOptions: genai.HTTPOptions{
		BaseURL:      cfg.BaseURL,
		Timeout:      &cfg.Timeout,
		RetryOptions: &genai.HTTPRetryOptions{Attempts: &one},
	}}
	gc, err := genai.NewClient(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("gemini client: %w (set GEMINI_API_KEY, or the Vertex AI variables)", err)
	}
	return &Client{gc: gc, cfg: cfg}, nil
}

// GenAI is the underlying client, for embeddings.
func (c *Client) GenAI() *genai.Client { return c.gc }

// Config is the client's configuration, its defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// status logs, once per model, what an answer says of the model that gave it: that it is
// deprecated or retiring (the API's model status), or that another model answered in its
// place (a deprecated model routed to its replacement).
func (c *Client) status(model string, resp *genai.GenerateContentResponse) {
	if c.Log == nil {
		return
	}
	if st := resp.ModelStatus; st != nil {
		switch st.ModelStage {
		case genai.ModelStageLegacy, genai.ModelStageDeprecated, genai.ModelStageRetired:
			if _, seen := c.warned.LoadOrStore("stage "+model, true); !seen {
				args := []any{"model", model, "stage", st.ModelStage, "message", st.Message}
				if !st.RetirementTime.IsZero() {
					args = append(args, "retires", st.RetirementTime.Format(time.DateOnly))
				}
				c.Log.Warn("gemini says a configured model is being retired; choose a current one", args...)
			}
		}
	}
	if v := strings.TrimPrefix(resp.ModelVersion, "models/"); v != "" && !strings.HasPrefix(v, model) {
		if _, seen := c.warned.LoadOrStore("routed "+model, true); !seen {
			c.Log.Warn("gemini answered with another model than the one configured: the configured one was likely deprecated and routed", "configured", model, "answeredBy", v)
		}
	}
}
