package driver

import (
	"fmt"
	"sync"

	"github.com/playwright-community/playwright-go"
)

// JavaScript dialogs are answered by a policy the run states: an alert is acknowledged; a
// confirm() is accepted only when the step asked for it (plan.Step.AcceptDialog, "click
// "Delete" and confirm"), otherwise dismissed; a prompt() and a leave-page question are
// dismissed. Each one is reported in the step's actions, with what the page asked.

// dialogs answers the page's dialogs: accept says the step acting now accepts a
// confirm(); answered are the dialogs answered since the step took them.
type dialogs struct {
	mu       sync.Mutex
	accept   bool
	answered notes
	// accepted is the question of the confirm() the step that acted last accepted, or "":
	// the "OK" a goal writes after that step is the answer already given.
	accepted string
}

// answer answers dialog d and notes it, with what the page asked, redacted.
func (ds *dialogs) answer(d playwright.Dialog, redact func(string) string) {
	ds.mu.Lock()
	accept := ds.accept
	ds.mu.Unlock()
	kind := d.Type()
	var err error
	answer := "dismissed"
	switch {
	case kind == "alert":
		err, answer = d.Accept(), "acknowledged"
	case kind == "confirm" && accept:
		err, answer = d.Accept(), "accepted, as the step asked"
		if err == nil {
			ds.mu.Lock()
			ds.accepted = redact(d.Message())
			ds.mu.Unlock()
		}
	default:
		err = d.Dismiss()
		if kind == "confirm" {
			answer = `dismissed (the step did not ask to confirm: write "click ... and confirm")`
		}
	}
	note := fmt.Sprintf("the page asked %q (%s): %s", redact(d.Message()), kind, answer)
	if err != nil {
		note += fmt.Sprintf(" — but answering failed: %v", err)
	}
	ds.answered.add(note)
}

// expect sets whether the step about to act accepts a confirm().
func (ds *dialogs) expect(accept bool) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ds.accept = accept
}

// acting says a step is about to act: what the step before it accepted is its own no more.
func (ds *dialogs) acting() {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ds.accepted = ""
}

// lastAccepted is the question of the confirm() the step that acted last accepted, or "".
func (ds *dialogs) lastAccepted() string {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	return ds.accepted
}
