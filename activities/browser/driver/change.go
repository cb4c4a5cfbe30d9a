package driver

import (
	"context"
	"time"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/visual"
)

// ChangeThreshold is the share of the frame's pixels that must change for WaitForChange
// to see a change when the page's structure did not change (the core spec's 2%).
const ChangeThreshold = 0.02

// WaitForChange is the core spec's wait_for_change: given the "before" screenshot and
// fingerprint, it waits for the page's requests to finish (bounded), then polls, until
// more than the threshold of the pixels changed or the page's fingerprint (URL, controls
// and their states, text) did — a dialog opening over a light page changes few pixels
// but always the controls — or the timeout passes. It returns the last observation and
// screenshot, and whether the page changed; when ctx ends it stops at once with ctx's error.
func (s *Session) WaitForChange(ctx context.Context, before []byte, fingerprint string, timeout time.Duration, threshold float64) (bool, page.Observation, []byte, error) {
	deadline := time.Now().Add(timeout)
	if err := s.traffic.idle(ctx, deadline); err != nil {
		return false, page.Observation{}, nil, err
	}
	base, err := visual.Decode(before)
	if err != nil {
		return false, page.Observation{}, nil, err
	}
	for {
		obs, err := s.Observe(ctx)
		if err != nil {
			return false, obs, nil, err
		}
		png, err := s.Screenshot(ctx)
		if err != nil {
			return false, obs, nil, err
		}
		if obs.Fingerprint != fingerprint {
			return true, obs, png, nil
		}
		if img, err := visual.Decode(png); err == nil {
			if changed, err := visual.Changed(base, img, threshold); err == nil && changed {
				return true, obs, png, nil
			}
		}
		if !time.Now().Before(deadline) {
			return false, obs, png, nil
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return false, obs, png, err
		}
	}
}
