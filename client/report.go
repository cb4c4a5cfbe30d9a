package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Report is what an ended run leaves to read: its output, and time-limited links to
// every object it stored (screenshots, element lists, its dataset) by key.
type Report struct {
	Result Result
	// URL is the run's page in the Web UI (its latest execution).
	URL   string
	Links map[string]string
	// Truncated says the run stored more objects than one answer carries.
	Truncated bool
}

// Report reads an ended run's output and links to what it stored, valid for ttl. A run
// still going is refused: its progress says how it stands.
func (r *Run) Report(ctx context.Context, ttl time.Duration) (*Report, error) {
	info, err := r.Info(ctx)
	if err != nil {
		return nil, err
	}
	if info.Execution == "running" {
		return nil, badInputf("run %s is still running: report it once it has ended (the progress query shows it now)", r.ID)
	}
	res, err := r.Result(ctx)
	if err != nil && !IsBadInput(err) {
		return nil, badInputf("run %s has no result to report: %v", r.ID, err)
	}
	shared, err := r.c.Share(ctx, res.Metadata.WorkflowID, res.Metadata.RunID, "", ttl)
	if err != nil {
		return nil, fmt.Errorf("get the run's screenshots: %w", err)
	}
	rep := &Report{Result: res, URL: info.URL, Links: map[string]string{}, Truncated: shared.Truncated}
	for _, o := range shared.Objects {
		rep.Links[o.Key] = o.URL
	}
	return rep, nil
}

// Screenshot is a step's screenshot from an ended run, as PNG: after the step (before,
// with before set), or the final page's with step 0.
func (r *Run) Screenshot(ctx context.Context, step int, before bool) ([]byte, error) {
	rep, err := r.Report(ctx, 5*time.Minute)
	if err != nil {
		return nil, err
	}
	key := rep.Result.Validation.FinalScreenshot
	if step != 0 {
		key = ""
		for _, s := range rep.Result.Steps {
			if s.Order == step {
				key = s.Evidence.AfterScreenshot
				if before {
					key = s.Evidence.BeforeScreenshot
				}
			}
		}
	}
	link, ok := rep.Links[key]
	if key == "" || !ok {
		return nil, badInputf("run %s kept no such screenshot of step %d (it has %d steps)", r.ID, step, len(rep.Result.Steps))
	}
	return Download(ctx, link, "the screenshot")
}

// Download reads what a link a worker shared points to (a screenshot, a report's file, a
// dataset's capture), at most 32 MiB; what names it in an error.
func Download(ctx context.Context, link, what string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", what, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download %s: %s", what, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 32<<20))
}
