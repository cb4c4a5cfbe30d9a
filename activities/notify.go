package activities

// Notify posts a run's news — it waits for a person, it ended — to the webhook its input
// names, when the worker's operator allows that destination (matched on the URL's normal
// form, on whole path segments), signed with HMAC-SHA256 over the post's delivery ID, time
// and body so that a receiver can refuse a replay (package notify's Verify).
var Notify = Activity[NotifyInput, NotifyResult]{"Notify"}

// ErrNotifyRefused: the worker's operator does not allow webhooks to the run's URL, or
// the receiver refused the post (a 4xx); retrying cannot help.
const ErrNotifyRefused = "NotifyRefused"

// Notify events.
const (
	NotifyWaiting = "waiting" // the run waits for a person
	NotifyEnded   = "ended"   // the run ended
)

// NotifyInput is one post: what happened to which run. It carries no secret and no page
// text: the status, a summary from the run's own words (its goal, a step's plan), and the
// step a person is asked about.
type NotifyInput struct {
	URL        string `json:"url"`
	Event      string `json:"event"`
	WorkflowID string `json:"workflowId"`
	RunID      string `json:"runId"`
	Status     string `json:"status"`
	Summary    string `json:"summary"`
	Step       int    `json:"step,omitempty"`
}

// NotifyResult is the receiver's HTTP status.
type NotifyResult struct {
	Status int `json:"status"`
}
