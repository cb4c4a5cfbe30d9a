package browser

import (
	"fmt"

	"github.com/playwright-community/playwright-go"
)

// JavaScript dialogs are answered by a policy the run states: an alert is acknowledged; a
// confirm() is accepted only when the step asked for it (plan.Step.AcceptDialog, "click
// "Delete" and confirm"), otherwise dismissed; a prompt() and a leave-page question are
// dismissed. Each one is reported in the step's actions, with what the page asked.

func (s *Session) onDialog(d playwright.Dialog) {
	s.mu.Lock()
	accept := s.acceptDialog
	s.mu.Unlock()
	kind := d.Type()
	var err error
	answer := "dismissed"
	switch {
	case kind == "alert":
		err, answer = d.Accept(), "acknowledged"
	case kind == "confirm" && accept:
		err, answer = d.Accept(), "accepted, as the step asked"
	default:
		err = d.Dismiss()
		if kind == "confirm" {
			answer = `dismissed (the step did not ask to confirm: write "click ... and confirm")`
		}
	}
	note := fmt.Sprintf("the page asked %q (%s): %s", s.redact(d.Message()), kind, answer)
	if err != nil {
		note += fmt.Sprintf(" — but answering failed: %v", err)
	}
	s.mu.Lock()
	s.dialogs = append(s.dialogs, note)
	s.mu.Unlock()
}

// expectDialog sets whether the step about to act accepts a confirm().
func (s *Session) expectDialog(accept bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acceptDialog = accept
}
