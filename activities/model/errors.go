package model

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"google.golang.org/genai"

	"github.com/webagent-dev/webagent/activities"
)

// classify turns an API error into a Temporal error that says what retrying can do and,
// when it cannot, what to fix.
func classify(rc RoleConfig, err error) error {
	var api genai.APIError
	if !errors.As(err, &api) {
		var papi *genai.APIError
		if !errors.As(err, &papi) {
			// Network errors and timeouts: worth another try.
			return temporal.NewApplicationErrorWithCause("gemini did not answer: "+err.Error(), activities.ErrModelUnavailable, err)
		}
		api = *papi
	}
	msg := strings.TrimSpace(api.Message)
	switch {
	case api.Code == 401 || api.Code == 403 || (api.Code == 400 && strings.Contains(strings.ToLower(msg), "api key")):
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf(
			"gemini refused the credentials (HTTP %d: %s): check GEMINI_API_KEY, or the Vertex AI settings", api.Code, msg), activities.ErrModelAuth, err)
	case api.Code == 404:
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf(
			"gemini has no model %q (HTTP 404: %s): change %s", rc.Model, msg, rc.From), activities.ErrModelNotFound, err)
	case api.Code == 429:
		return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("gemini rate limit (HTTP 429: %s)", msg), activities.ErrModelRateLimited,
			temporal.ApplicationErrorOptions{NextRetryDelay: retryDelay(api), Cause: err})
	case api.Code >= 500:
		return temporal.NewApplicationErrorWithCause(fmt.Sprintf("gemini is unavailable (HTTP %d: %s)", api.Code, msg), activities.ErrModelUnavailable, err)
	case api.Code >= 400:
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("gemini refused the request (HTTP %d: %s)", api.Code, msg), activities.ErrModelBadRequest, err)
	}
	return temporal.NewApplicationErrorWithCause("gemini: "+err.Error(), activities.ErrModelUnavailable, err)
}

// retryDelay reads the delay a 429 asks for from its RetryInfo detail; 0 leaves the
// retry policy's backoff in charge.
func retryDelay(api genai.APIError) time.Duration {
	for _, d := range api.Details {
		t, _ := d["@type"].(string)
		if !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		s, _ := d["retryDelay"].(string)
		if dur, err := time.ParseDuration(s); err == nil && dur > 0 {
			return dur
		}
	}
	return 0
}
