// Package model is the agent's brain: Gemini through google.golang.org/genai, asked for
// JSON with a response schema in every call, with answers validated and repaired, errors
// classified by what retrying can do, and tokens counted.
package model

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"google.golang.org/genai"
)

// Default model names, per role.
const (
	DefaultPlanningModel  = "gemini-2.5-pro"
	DefaultDecisionModel  = "gemini-2.5-flash"
	DefaultEmbeddingModel = "gemini-embedding-001"
)

// Config says which models to use and how to reach them. Credentials come from the
// SDK's own environment: GEMINI_API_KEY (or GOOGLE_API_KEY), or Vertex AI through
// GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION.
type Config struct {
	// PlanningModel writes, rewrites and summarises plans and validates goals.
	PlanningModel string
	// DecisionModel decides and evaluates each step: cheaper and faster.
	DecisionModel string
	// EmbeddingModel embeds goal templates for the skills library.
	EmbeddingModel string
	// BaseURL overrides the API endpoint (GOOGLE_GEMINI_BASE_URL does the same).
	BaseURL string
	// Timeout bounds one HTTP request.
	Timeout time.Duration
	// Repairs is how often an invalid answer is sent back with its validation error.
	Repairs int
}

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
}

// New returns a client. The SDK's own retries are off: Temporal's retry policy is the one
// retry layer, so that every retry is visible in the workflow's history.
func New(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.PlanningModel == "" {
		cfg.PlanningModel = DefaultPlanningModel
	}
	if cfg.DecisionModel == "" {
		cfg.DecisionModel = DefaultDecisionModel
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
