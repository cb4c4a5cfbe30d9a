// Package notify posts a run's news to a webhook: only to destinations the worker's
// operator allows, signed so that the receiver can tell the post is the workers'.
package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
)

// Headers of a post.
const (
	// SignatureHeader is "sha256=" and the hex HMAC-SHA256 of the body with the key.
	SignatureHeader = "X-Webagent-Signature"
	// DeliveryHeader names the post; a retried post keeps it, so a receiver can drop repeats.
	DeliveryHeader = "X-Webagent-Delivery"
	EventHeader    = "X-Webagent-Event"
)

// Sender posts a run's news.
type Sender struct {
	// Allowed are the destinations the operator allows: a post's URL must have the
	// scheme, host and port of one, and its path must begin with that one's path.
	Allowed []*url.URL
	// Key signs each post's body.
	Key []byte
	// RunURL is a run's page in the Web UI.
	RunURL func(workflowID, runID string) string
	Client *http.Client
}

// Post is the body of a post.
type Post struct {
	Event      string    `json:"event"`
	WorkflowID string    `json:"workflowId"`
	RunID      string    `json:"runId"`
	Status     string    `json:"status"`
	Summary    string    `json:"summary"`
	Step       int       `json:"step,omitempty"`
	UIURL      string    `json:"uiUrl,omitempty"`
	SentAt     time.Time `json:"sentAt"`
}

// Allows reports whether the operator allows posts to raw.
func (s *Sender) Allows(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return false
	}
	for _, a := range s.Allowed {
		if strings.EqualFold(u.Scheme, a.Scheme) && strings.EqualFold(u.Host, a.Host) && strings.HasPrefix(u.EscapedPath(), a.EscapedPath()) {
			return true
		}
	}
	return false
}

// Notify posts in to its URL. A destination the operator does not allow, and a
// receiver's 4xx, are final; a network error or a 5xx is retried by Temporal.
func (s *Sender) Notify(ctx context.Context, in activities.NotifyInput) (activities.NotifyResult, error) {
	if len(s.Key) == 0 || !s.Allows(in.URL) {
		return activities.NotifyResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("the workers do not allow webhooks to %s: their operator lists the destinations in WEBAGENT_NOTIFY_URLS", redact(in.URL)), activities.ErrNotifyRefused, nil)
	}
	body, _ := json.Marshal(Post{Event: in.Event, WorkflowID: in.WorkflowID, RunID: in.RunID, Status: in.Status, Summary: in.Summary,
		Step: in.Step, UIURL: s.RunURL(in.WorkflowID, in.RunID), SentAt: time.Now().UTC()})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, in.URL, bytes.NewReader(body))
	if err != nil {
		return activities.NotifyResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrNotifyRefused, nil)
	}
	info := activity.GetInfo(ctx)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(EventHeader, in.Event)
	req.Header.Set(DeliveryHeader, fmt.Sprintf("%s/%s/%s", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, info.ActivityID))
	req.Header.Set(SignatureHeader, Sign(s.Key, body))
	resp, err := s.client().Do(req)
	if err != nil {
		return activities.NotifyResult{}, fmt.Errorf("post to %s: %w", redact(in.URL), errors.Unwrap(err))
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return activities.NotifyResult{Status: resp.StatusCode}, nil
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests:
		return activities.NotifyResult{Status: resp.StatusCode}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("the webhook %s refused the post: %s", redact(in.URL), resp.Status), activities.ErrNotifyRefused, nil)
	}
	return activities.NotifyResult{Status: resp.StatusCode}, fmt.Errorf("the webhook %s answered %s", redact(in.URL), resp.Status)
}

// Sign is the signature header's value for body.
func Sign(key, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// client never follows a redirect: the operator allowed the URL, not where it sends.
func (s *Sender) client() *http.Client {
	c := &http.Client{Timeout: 20 * time.Second}
	if s.Client != nil {
		cc := *s.Client
		c = &cc
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// redact is the URL without its query, which may hold a receiver's token.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the run's webhook URL"
	}
	u.RawQuery, u.User = "", nil
	return u.String()
}

// ParseAllowed reads the operator's list of destinations: URLs separated by commas.
func ParseAllowed(list string) ([]*url.URL, error) {
	var out []*url.URL
	for _, raw := range strings.Split(list, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" {
			return nil, fmt.Errorf("%q is not an http(s) URL without credentials or query", raw)
		}
		out = append(out, u)
	}
	return out, nil
}
