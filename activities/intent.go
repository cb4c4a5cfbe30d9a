package activities

import "fmt"

// An attempt at a step that may act says so, durably, before it acts: the run then knows,
// whatever becomes of the worker, that the attempt may have acted, and never repeats it
// blindly (workflows/doubt.go). Heartbeats cannot say it: the SDK throttles them, and a
// late one could carry a stale "not acted".
//
// The attempt stores a small object (IntentKey) and waits for the store to have it; the
// run asks whether it is there (Intended) only when the attempt ended in an error — a
// lost worker, a failure — on any worker. Runs begun before did it with a signal to the
// run (ActingSignal), one more workflow task on the server for every action.

// IntentKey is the object attempt attempt of step seq stores under the run's key prefix
// right before it acts.
func IntentKey(prefix string, seq, attempt int) string {
	return fmt.Sprintf("%s/intents/%03d-%d.json", prefix, seq, attempt)
}

// Intended asks whether an attempt stored its intent to act (shared queue: any worker).
var Intended = Activity[IntendedInput, IntendedResult]{"Intended"}

// IntendedInput names the attempt: the run's key prefix, the step and the attempt.
type IntendedInput struct {
	KeyPrefix string `json:"keyPrefix"`
	Seq       int    `json:"seq"`
	Attempt   int    `json:"attempt"`
}

// IntendedResult says whether the object is there: the attempt may have acted.
type IntendedResult struct {
	Told bool `json:"told"`
}

// ActingSignal is the signal a browser step of a run begun before the intent object sends
// its workflow right before it acts, and waits for the server to accept.
const ActingSignal = "acting"

// ActingNotice is ActingSignal's payload, and the intent object's content.
type ActingNotice struct {
	Seq     int `json:"seq"`
	Attempt int `json:"attempt"`
}
