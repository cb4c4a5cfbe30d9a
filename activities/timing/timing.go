// Package timing holds where a browser activity's time went, part by part, as the worker
// measured it: what a step's attempt and a browser's opening report beside their results,
// for a run's account of its time.
package timing

import "time"

// Step is where an attempt's time went, part by part, as the worker measured it. A part
// the attempt did not reach is zero.
type Step struct {
	// Look is observing the page and finding the step's target, waiting for it when it
	// is not there yet.
	Look time.Duration `json:"look,omitempty"`
	// Shot is the screenshot before the action (none when the last one still shows it).
	Shot time.Duration `json:"shot,omitempty"`
	// Intent is telling the run that the attempt may act, until the server has it.
	Intent time.Duration `json:"intent,omitempty"`
	// Act is the action itself, as Playwright carries it out.
	Act time.Duration `json:"act,omitempty"`
	// Settle is the page settling after the action, and a window it opened being followed.
	Settle time.Duration `json:"settle,omitempty"`
	// After is observing the page after the action and its screenshot, with the wait for
	// a late change.
	After time.Duration `json:"after,omitempty"`
	// Check is the step's check of its effect, and the outcome's finishing (dialogs,
	// windows and downloads the action brought).
	Check time.Duration `json:"check,omitempty"`
	// Store is storing the attempt's evidence once the browser's work is done (what was
	// not stored while the page acted).
	Store time.Duration `json:"store,omitempty"`
}

// Browser is the time the attempt spent on the page: all but storing its evidence.
func (t Step) Browser() time.Duration {
	return t.Look + t.Shot + t.Intent + t.Act + t.Settle + t.After + t.Check
}

// Open is where opening a browser session went.
type Open struct {
	// Wait is the time spent in line for one of the worker's browsers.
	Wait time.Duration `json:"wait,omitempty"`
	// Context is opening the browser context and its page, or taking the spare one.
	Context time.Duration `json:"context,omitempty"`
	// Load is installing the site policy and loading the start page.
	Load time.Duration `json:"load,omitempty"`
	// Spare says the context was the one kept open ahead.
	Spare bool `json:"spare,omitempty"`
}

// Stopwatch laps an activity's parts: each lap is the time since the one before.
type Stopwatch struct{ mark time.Time }

// Start starts the watch at t.
func Start(t time.Time) Stopwatch { return Stopwatch{mark: t} }

// Lap adds the time since the last lap (or the start) to into.
func (w *Stopwatch) Lap(into *time.Duration) {
	now := time.Now()
	*into += now.Sub(w.mark)
	w.mark = now
}
