// Package notify posts a run's news to a webhook: only to destinations the worker's
// operator allows, matched on the URL's one normal form (Normalize, Within), and signed
// so that the receiver can tell the post is the workers' and new (Verify).
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
)

// Sender posts a run's news.
type Sender struct {
	// Allowed are the destinations the operator allows (from ParseAllowed): a post's
	// URL, normalised, must have the scheme, host and port of one, and its path must be
	// that one's or under it, on whole segments (Within).
	Allowed []*url.URL
	// Key signs each post: its delivery ID, timestamp and body.
	Key []byte
	// RunURL is a run's page in the Web UI.
	RunURL func(workflowID, runID string) string
	Client *http.Client
}

// Post is the body of a post.
type Post struct {
	// Delivery is the post's DeliveryHeader: the same on every retry of it.
	Delivery   string `json:"deliveryId"`
	Event      string `json:"event"`
	WorkflowID string `json:"workflowId"`
	RunID      string `json:"runId"`
	Status     string `json:"status"`
	Summary    string `json:"summary"`
	Step       int    `json:"step,omitempty"`
	UIURL      string `json:"uiUrl,omitempty"`
	// SentAt is the post's TimestampHeader.
	SentAt time.Time `json:"sentAt"`
}

// Allows reports whether the operator allows posts to raw.
func (s *Sender) Allows(raw string) bool {
	_, err := s.Destination(raw)
	return err == nil
}

// Destination is raw normalised, the URL a post is sent to, when the operator allows it;
// or why not. Posting the normalised URL, not raw, leaves the HTTP client nothing to read
// otherwise than the check did.
func (s *Sender) Destination(raw string) (*url.URL, error) {
	u, err := Normalize(raw)
	if err != nil {
		return nil, err
	}
	for _, a := range s.Allowed {
		// An entry is normalised again, so that one not from ParseAllowed is
		// matched as it means, or matches nothing.
		if a, err := allowedEntry(a.String()); err == nil && Within(u, a) {
			return u, nil
		}
	}
	return nil, errNotListed
}

var errNotListed = errors.New("their operator lists the destinations in WEBAGENT_NOTIFY_URLS")

// Notify posts in to its URL. A destination the operator does not allow, and a
// receiver's 4xx, are final; a network error or a 5xx is retried by Temporal.
func (s *Sender) Notify(ctx context.Context, in activities.NotifyInput) (activities.NotifyResult, error) {
	dest, err := s.Destination(in.URL)
	if len(s.Key) == 0 {
		dest, err = nil, errNotListed
	}
	if err != nil {
		return activities.NotifyResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("the workers do not allow webhooks to %s: %v", redact(in.URL), err), activities.ErrNotifyRefused, nil)
	}
	info := activity.GetInfo(ctx)
	id := deliveryID(info.WorkflowExecution.ID, info.WorkflowExecution.RunID, info.ActivityID, in.Event, in.Step)
	now := time.Now().UTC().Truncate(time.Second)
	body, _ := json.Marshal(Post{Delivery: id, Event: in.Event, WorkflowID: in.WorkflowID, RunID: in.RunID, Status: in.Status,
		Summary: in.Summary, Step: in.Step, UIURL: s.RunURL(in.WorkflowID, in.RunID), SentAt: now})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, dest.String(), bytes.NewReader(body))
	if err != nil {
		return activities.NotifyResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrNotifyRefused, nil)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(EventHeader, in.Event)
	req.Header.Set(DeliveryHeader, id)
	req.Header.Set(TimestampHeader, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(SignatureHeader, Sign(s.Key, id, now, body))
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

// redact is the URL without its query, which may hold a receiver's token, and without
// credentials.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "an unreadable URL"
	}
	u.RawQuery, u.ForceQuery, u.User, u.Fragment = "", false, nil, ""
	return u.String()
}
