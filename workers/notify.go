package main

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"go.temporal.io/sdk/worker"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/notify"
	"github.com/webagent-dev/webagent/internal/config"
)

// NotifyConfig are the webhooks the operator lets runs name: a run cannot make the
// worker post anywhere else.
type NotifyConfig struct {
	// Allowed are the destinations: WEBAGENT_NOTIFY_URLS, separated by commas; none by
	// default. Each is normalised as a run's URL is (notify.Normalize), and allows its own
	// scheme, host and port and its path's whole segments (notify.Within); an entry that
	// cannot be normalised, or has a query, stops the worker at start, so that the list
	// never means something else than it says.
	Allowed []*url.URL
	// Key signs every post's delivery ID, timestamp and body (HMAC-SHA256):
	// WEBAGENT_NOTIFY_KEY, at least 16 characters.
	Key []byte
}

func notifyFromEnv() (NotifyConfig, error) {
	allowed, err := notify.ParseAllowed(os.Getenv("WEBAGENT_NOTIFY_URLS"))
	if err != nil {
		return NotifyConfig{}, fmt.Errorf("WEBAGENT_NOTIFY_URLS: %w", err)
	}
	key := strings.TrimSpace(os.Getenv("WEBAGENT_NOTIFY_KEY"))
	if len(allowed) > 0 && len(key) < 16 {
		return NotifyConfig{}, errors.New("WEBAGENT_NOTIFY_KEY: webhooks are allowed (WEBAGENT_NOTIFY_URLS), so give the key that signs them, at least 16 characters")
	}
	return NotifyConfig{Allowed: allowed, Key: []byte(key)}, nil
}

// registerNotify registers the activity that posts runs' news to their webhooks.
func registerNotify(w worker.Worker, cfg NotifyConfig, t config.Temporal) {
	s := &notify.Sender{Allowed: cfg.Allowed, Key: cfg.Key, RunURL: t.RunURL}
	register(w, s.Notify, activities.Notify.Name)
}
