package driver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// without ends an attempt that did not act: the page as it is, and why.
func (s *Session) without(ctx context.Context, out *Outcome, obs page.Observation, fb *plan.Feedback) (*Outcome, error) {
	png, err := s.Screenshot(ctx)
	if err != nil {
		return nil, err
	}
	out.Before, out.After, out.BeforePNG, out.AfterPNG, out.Feedback = obs, obs, png, png, fb
	return out, nil
}

func unresolved(step plan.Step, res page.Resolution, waited time.Duration, obs page.Observation) *plan.Feedback {
	if len(res.Candidates) > 0 {
		refs := make([]string, len(res.Candidates))
		for i, c := range res.Candidates {
			refs[i] = c.Ref()
			if c.Row != "" {
				refs[i] += fmt.Sprintf(" in row %q", page.Truncate(c.Row, 40))
			}
		}
		return &plan.Feedback{
			Type:       plan.WrongElement,
			Details:    res.Reason,
			Suggestion: "name the one meant by its row, its container or its position (\"the second ...\", \"... in the row 'X'\")",
			Candidates: refs,
		}
	}
	fb := &plan.Feedback{
		Type:            plan.NotVisible,
		Details:         fmt.Sprintf("%s after waiting %s; the page %q shows %d controls", res.Reason, waited.Round(100*time.Millisecond), obs.Title, len(obs.Elements)),
		Suggestion:      "the page may need another step first (open a dialog, a menu or a tab), or the target is described differently on the page",
		ExpectedElement: step.TargetDescription,
	}
	if obs.Truncated {
		fb.Details += fmt.Sprintf(" (of %d on the page: the list keeps an open dialog or menu and what is in view first)", obs.Total)
		fb.Suggestion = "scroll to the target first, or name it as the page does; " + fb.Suggestion
	}
	for _, c := range page.Closest(step.Parts(), obs.Elements, 3) {
		fb.Candidates = append(fb.Candidates, c.Ref())
	}
	if len(fb.Candidates) > 0 {
		fb.Details += "; the closest are " + strings.Join(fb.Candidates, ", ")
	}
	return fb
}

// alreadyOn reports a click on a page's link or tab ("On the Connect page, …": the page
// gone to by its link) where no such link is there, and the page shown is that page: its
// title, or a heading in sight, says its name and nothing else (the title's site name after
// a dash aside).
func alreadyOn(step plan.Step, obs page.Observation) bool {
	t := step.Parts()
	if step.Action != plan.Click || (t.Kind != "link" && t.Kind != "tab") || t.Name == "" || t.Row != "" || t.Container != "" {
		return false
	}
	name := page.Norm(strings.TrimSuffix(t.Name, " page"))
	title, _, _ := strings.Cut(obs.Title, " - ")
	title, _, _ = strings.Cut(title, " | ")
	if page.Norm(title) == name {
		return true
	}
	for _, b := range obs.Blocks {
		if b.Kind == "heading" && b.Where == "" && page.Norm(b.Text) == name {
			return true
		}
	}
	return false
}
