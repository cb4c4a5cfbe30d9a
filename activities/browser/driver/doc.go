// Package driver drives a run's web page in Chromium through Playwright: the pool of
// browsers a worker holds, one Session (a browser context and its page) per run, and one
// attempt at a plan.Step at a time — observe the page, find the step's target the way a
// person names it, act, settle, look again and check that the step did what it should.
//
// It knows nothing of Temporal or of the object store: activities/browser is the adapter
// that runs it as activities, heartbeats while it works and stores its screenshots and
// evidence. Any program may drive a page with it:
//
//	pool, err := driver.NewPool(driver.Config{DriverDir: dir, ExecutablePath: chromium, Headless: true}, log)
//	...
//	defer pool.Shutdown()
//	s, _, err := pool.Open(ctx, "run-1", driver.OpenOptions{URL: "https://example.com/"})
//	out, err := s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: "More information"}.WithTarget(), driver.DoOptions{WaitBudget: 3 * time.Second})
//	// out.OK, out.Feedback (what went wrong on the page), out.Before, out.After ...
//
// An error from Do means the browser failed or ctx ended; everything the page does wrong
// is in the Outcome. A session goes only where its OpenOptions.Sites allow, through an
// egress proxy of its own (internal/egress), and internal addresses only as far as
// Config.Internal grants them. Secrets typed into the page are masked in its
// observations and screenshots, and Session.Scrub takes them out of whatever the caller
// hands on.
//
// The parts, a file each: the pool (pool.go, spare.go, refill.go, occupancy.go, and on
// top start.go and open.go); the session and its parts (session.go, acquire.go; turn,
// traffic, dialogs, windows and follow, downloads, notes, shots and screenshot, pace,
// runfiles, sites, redact and scrub); an attempt (outcome.go: what goes in and comes
// out; attempt.go, without.go, and do.go on top, which runs its parts); the actions
// (act.go dispatches to the handlers in handlers.go, fields.go, drag.go, move.go,
// sortlist.go, upload.go, when.go, ...; what a handler is given is in action.go);
// targeting (target.go, textual.go, labelled.go, paging.go, reveal.go, refind.go);
// checks (check.go, change.go, read.go, seen.go). No file names anything of a file that
// names it back.
package driver
