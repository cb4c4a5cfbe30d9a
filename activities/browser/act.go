package browser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/visual"
	"github.com/webagent-dev/webagent/plan"
)

// DoOptions tune one attempt at a step.
type DoOptions struct {
	// WaitBudget is how long to wait for a target, or an asserted text, to appear.
	WaitBudget time.Duration
	// SettleTimeout bounds the wait for the page to settle after acting.
	SettleTimeout time.Duration
	// Element, when set, is the index of the element to act on (a decision made
	// elsewhere, by the model), instead of resolving the target description here.
	Element *int
	// ElementWas is that element as the decision saw it: if the page changed since, the
	// same element (role and name, nearest box) is found again, or the attempt fails.
	ElementWas *Element
	// Point, when set, is where to click in the viewport (x, y), instead of an element.
	Point *[2]float64
	// OnPhase is told "observing", "acting", "checking", "waiting" as the attempt goes,
	// so the caller can heartbeat and know whether an interrupted attempt had acted.
	OnPhase func(phase string)
	// OnBefore gets the "before" screenshot and observation just before the action, so
	// that the caller can work on them (draw the numbered copy, store them) while the
	// page acts.
	OnBefore func(png []byte, obs Observation)
	// ChangeTimeout is how long a click that changed nothing waits for a late change
	// (WaitForChange) before the attempt says nothing happened. Default 1.5s.
	ChangeTimeout time.Duration
	// ExpectState, when set, is the state (Observation.State) the page must be in before
	// acting — a replayed step's check; within the wait budget, or the attempt fails
	// without acting.
	ExpectState string
}

// Outcome is what happened in one attempt at a step.
type Outcome struct {
	OK       bool
	Feedback *plan.Feedback
	// Acted reports whether the action was sent to the page.
	Acted bool
	// Mutated reports whether the page sent a state-changing request (POST, PUT, PATCH,
	// DELETE...) while acting: such a step must never be replayed.
	Mutated   bool
	Before    Observation
	BeforePNG []byte
	After     Observation
	AfterPNG  []byte
	Target    *Element
	// Candidates are the elements that matched equally well when the target was ambiguous.
	Candidates []Element
	Actions    []string
	Extracted  map[string]any
}

// Do makes one attempt at a step: observe, resolve the target DOM-first, act, settle,
// observe again and check that the step did what it should. Errors are reserved for a
// broken browser; everything the page does wrong is in the Outcome's Feedback.
func (s *Session) Do(step plan.Step, opts DoOptions) (*Outcome, error) {
	phase := opts.OnPhase
	if phase == nil {
		phase = func(string) {}
	}
	if opts.SettleTimeout == 0 {
		opts.SettleTimeout = 5 * time.Second
	}
	out := &Outcome{}
	phase("observing")
	obs, err := s.Observe()
	if err != nil {
		return nil, err
	}
	if opts.ExpectState != "" && obs.State() != opts.ExpectState {
		deadline := time.Now().Add(opts.WaitBudget)
		for obs.State() != opts.ExpectState && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
			if obs, err = s.Observe(); err != nil {
				return nil, err
			}
		}
		if got := obs.State(); got != opts.ExpectState {
			out.Before, out.After = obs, obs
			if out.BeforePNG, err = s.Screenshot(); err != nil {
				return nil, err
			}
			out.AfterPNG = out.BeforePNG
			out.Feedback = &plan.Feedback{Type: plan.PageState,
				Details:    fmt.Sprintf("the page is in state %q, but the step was learned in state %q", got, opts.ExpectState),
				Suggestion: "the site changed since the skill was learned: replan from here"}
			return out, nil
		}
	}
	var el playwright.ElementHandle
	needsElement := step.Action.NeedsTarget() && !(step.Action == plan.Type && step.TargetDescription == "")
	if opts.Point == nil && step.TargetDescription != "" && (needsElement || step.Action == plan.Press || step.Action == plan.Wait || step.Action == plan.Scroll) {
		if step.Action == plan.Wait {
			phase("waiting")
		}
		res, o, err := s.resolveWaiting(step, obs, opts)
		if err != nil {
			return nil, err
		}
		obs = o
		if !res.Resolved() {
			out.Before, out.After = obs, obs
			out.BeforePNG, err = s.Screenshot()
			if err != nil {
				return nil, err
			}
			out.AfterPNG = out.BeforePNG
			out.Candidates = res.Candidates
			out.Feedback = unresolved(step, res, opts.WaitBudget, obs)
			return out, nil
		}
		t := obs.Elements[res.Index]
		out.Target = &t
		if el, err = s.element(res.Index); err != nil {
			return nil, err
		}
	}
	out.Before = obs
	if out.BeforePNG, err = s.Screenshot(); err != nil {
		return nil, err
	}

	if opts.OnBefore != nil {
		opts.OnBefore(out.BeforePNG, out.Before)
	}
	phase("acting")
	m0 := s.Mutations()
	out.Acted = true
	fb := s.act(step, el, out, opts, phase)
	if step.Action != plan.Assert && step.Action != plan.Wait && step.Action != plan.Extract {
		s.Settle(opts.SettleTimeout)
	}
	phase("checking")
	out.Mutated = s.Mutations() > m0
	if out.After, err = s.Observe(); err != nil {
		return nil, err
	}
	if out.AfterPNG, err = s.Screenshot(); err != nil {
		return nil, err
	}
	if fb == nil && (step.Action == plan.Click || step.Action == plan.Press) && out.After.Fingerprint == out.Before.Fingerprint {
		// Nothing visible yet: some pages answer late (an animation, a slow request).
		if opts.ChangeTimeout == 0 {
			opts.ChangeTimeout = 1500 * time.Millisecond
		}
		_, obs, png, err := s.WaitForChange(out.BeforePNG, out.Before.Fingerprint, opts.ChangeTimeout, ChangeThreshold)
		if err != nil {
			return nil, err
		}
		out.After, out.AfterPNG = obs, png
		out.Mutated = s.Mutations() > m0
	}
	if fb == nil {
		fb = s.check(step, el, out, opts.WaitBudget)
	}
	out.Feedback = fb
	out.OK = fb == nil
	return out, nil
}

// resolveWaiting resolves the step's target, looking again until it appears or the
// wait budget runs out; a target that several elements match is not waited for.
func (s *Session) resolveWaiting(step plan.Step, obs Observation, opts DoOptions) (Resolution, Observation, error) {
	if opts.Element != nil {
		return decided(*opts.Element, opts.ElementWas, obs), obs, nil
	}
	deadline := time.Now().Add(opts.WaitBudget)
	for {
		res := Resolve(step.TargetDescription, step.Action, obs.Elements)
		if res.Resolved() || len(res.Candidates) > 0 || !time.Now().Before(deadline) {
			return res, obs, nil
		}
		time.Sleep(200 * time.Millisecond)
		var err error
		if obs, err = s.Observe(); err != nil {
			return res, obs, err
		}
	}
}

// decided maps a decision made on an earlier observation onto this one.
func decided(i int, was *Element, obs Observation) Resolution {
	same := func(e Element) bool { return was == nil || (e.Role == was.Role && e.Name == was.Name) }
	if i >= 0 && i < len(obs.Elements) && same(obs.Elements[i]) {
		return Resolution{Index: i, Matched: "decision"}
	}
	if was != nil {
		best, dist := -1, 0
		for _, e := range obs.Elements {
			if !same(e) {
				continue
			}
			d := abs(e.Box.X-was.Box.X) + abs(e.Box.Y-was.Box.Y)
			if best < 0 || d < dist {
				best, dist = e.Index, d
			}
		}
		if best >= 0 {
			return Resolution{Index: best, Matched: "decision"}
		}
		return Resolution{Index: -1, Reason: fmt.Sprintf("the element the decision named (%s) is no longer on the page", was.Ref())}
	}
	return Resolution{Index: -1, Reason: fmt.Sprintf("element %d is not in the observation (0-%d)", i, len(obs.Elements)-1)}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func unresolved(step plan.Step, res Resolution, waited time.Duration, obs Observation) *plan.Feedback {
	if len(res.Candidates) > 0 {
		refs := make([]string, len(res.Candidates))
		for i, c := range res.Candidates {
			refs[i] = c.Ref()
			if c.Row != "" {
				refs[i] += fmt.Sprintf(" in row %q", truncate(c.Row, 40))
			}
		}
		return &plan.Feedback{
			Type:       plan.WrongElement,
			Details:    res.Reason,
			Suggestion: "name the one meant by its row, its container or its position (\"the second ...\", \"... in the row 'X'\")",
			Candidates: refs,
		}
	}
	return &plan.Feedback{
		Type:            plan.NotVisible,
		Details:         fmt.Sprintf("%s after waiting %s; the page %q shows %d controls", res.Reason, waited.Round(100*time.Millisecond), obs.Title, len(obs.Elements)),
		Suggestion:      "the page may need another step first (open a dialog, a menu or a tab), or the target is described differently on the page",
		ExpectedElement: step.TargetDescription,
	}
}

// act performs the step's action; a non-nil feedback means the action itself failed.
func (s *Session) act(step plan.Step, el playwright.ElementHandle, out *Outcome, opts DoOptions, phase func(string)) *plan.Feedback {
	ref := ""
	if out.Target != nil {
		ref = out.Target.Ref()
	}
	note := func(format string, args ...any) { out.Actions = append(out.Actions, fmt.Sprintf(format, args...)) }
	failed := func(err error) *plan.Feedback {
		return actionFeedback(step, ref, err)
	}
	timeout := playwright.Float(5000)
	if el == nil && opts.Point != nil && step.Action != plan.Click && step.Action != plan.Type {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s needs an element, not a point on the screen", step.Action)}
	}
	switch step.Action {
	case plan.Click:
		if opts.Point != nil {
			note("clicked at (%.0f, %.0f)", opts.Point[0], opts.Point[1])
			return failed(s.page.Mouse().Click(opts.Point[0], opts.Point[1]))
		}
		note("clicked %s", ref)
		return failed(el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}))
	case plan.Type:
		if opts.Point != nil {
			note("clicked at (%.0f, %.0f) and typed %q", opts.Point[0], opts.Point[1], step.Value)
			if err := s.page.Mouse().Click(opts.Point[0], opts.Point[1]); err != nil {
				return failed(err)
			}
			return failed(s.page.Keyboard().Type(step.Value))
		}
		if el == nil {
			note("typed %q into the focused element", step.Value)
			return failed(s.page.Keyboard().Type(step.Value))
		}
		if out.Target.Tag == "select" {
			note("selected %q in %s", step.Value, ref)
			return failed(selectOption(el, step.Value))
		}
		if out.Target.Secret {
			note("typed a secret (%d characters) into %s", len([]rune(step.Value)), ref)
		} else {
			note("typed %q into %s", step.Value, ref)
		}
		return failed(el.Fill(step.Value, playwright.ElementHandleFillOptions{Timeout: timeout}))
	case plan.Select:
		switch {
		case out.Target.Tag == "select":
			note("selected %q in %s", step.Value, ref)
			return failed(selectOption(el, step.Value))
		case out.Target.Editable() && out.Target.Role != "combobox":
			note("typed %q into %s", step.Value, ref)
			return failed(el.Fill(step.Value, playwright.ElementHandleFillOptions{Timeout: timeout}))
		}
		return s.pickFromList(step, el, ref, out, opts)
	case plan.Check:
		want := !step.Unchecks()
		note("set %s to %s", ref, map[bool]string{true: "checked", false: "unchecked"}[want])
		return failed(el.SetChecked(want, playwright.ElementHandleSetCheckedOptions{Timeout: timeout}))
	case plan.Press:
		if el != nil {
			if err := el.Focus(); err != nil {
				return failed(err)
			}
			note("pressed %s in %s", step.Value, ref)
		} else {
			note("pressed %s", step.Value)
		}
		return failed(s.page.Keyboard().Press(step.Value))
	case plan.Navigate:
		note("opened %s", step.Value)
		code, err := s.Goto(step.Value)
		if err != nil {
			return &plan.Feedback{Type: plan.PageState, Details: err.Error(), Suggestion: "check the address"}
		}
		if code >= 400 {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s answered HTTP %d", step.Value, code), Suggestion: "check the address, or whether the session is signed in"}
		}
		return nil
	case plan.Scroll:
		if el != nil {
			note("scrolled %s into view", ref)
			return failed(el.ScrollIntoViewIfNeeded())
		}
		note("scrolled %s", step.Value)
		_, err := s.page.Evaluate(scrollJS, step.Value)
		return failed(err)
	case plan.Wait:
		if step.TargetDescription != "" {
			note("waited for %s", ref)
			return nil
		}
		d, err := plan.ParseDuration(step.Value)
		if err != nil {
			return &plan.Feedback{Type: plan.Other, Details: err.Error()}
		}
		d = min(d, 5*time.Minute)
		note("waited %s", d)
		for end := time.Now().Add(d); time.Now().Before(end); {
			phase("waiting")
			time.Sleep(min(time.Until(end), time.Second))
		}
		return nil
	case plan.Assert, plan.Extract:
		return nil // looked at in check
	}
	return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("unknown action %q", step.Action)}
}

const scrollJS = `(how) => {
  const [dir, n] = how.toLowerCase().split(/\s+/);
  const by = n ? parseInt(n, 10) : Math.round(window.innerHeight * 0.8);
  if (dir === "top") window.scrollTo(0, 0);
  else if (dir === "bottom") window.scrollTo(0, document.documentElement.scrollHeight);
  else if (dir === "up") window.scrollBy(0, -by);
  else window.scrollBy(0, by);
}`

func selectOption(el playwright.ElementHandle, v string) error {
	if _, err := el.SelectOption(playwright.SelectOptionValues{Labels: &[]string{v}}); err == nil {
		return nil
	}
	_, err := el.SelectOption(playwright.SelectOptionValues{ValuesOrLabels: &[]string{v}})
	return err
}

// pickFromList selects from a custom (non-<select>) dropdown: open it, then click the
// option whose text is the value.
func (s *Session) pickFromList(step plan.Step, el playwright.ElementHandle, ref string, out *Outcome, opts DoOptions) *plan.Feedback {
	out.Actions = append(out.Actions, fmt.Sprintf("opened %s", ref))
	if err := el.Click(); err != nil {
		return actionFeedback(step, ref, err)
	}
	s.Settle(opts.SettleTimeout)
	obs, err := s.Observe()
	if err != nil {
		return &plan.Feedback{Type: plan.Other, Details: err.Error()}
	}
	res := Resolve(strconv.Quote(step.Value)+" option", plan.Click, obs.Elements)
	if !res.Resolved() {
		return &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("opened %s but %s", ref, res.Reason), Suggestion: "check the option's exact text"}
	}
	opt, err := s.element(res.Index)
	if err != nil {
		return &plan.Feedback{Type: plan.Timing, Details: err.Error()}
	}
	out.Actions = append(out.Actions, fmt.Sprintf("picked %s", obs.Elements[res.Index].Ref()))
	return actionFeedback(step, ref, opt.Click())
}

// actionFeedback turns a Playwright error into the evaluator's feedback.
func actionFeedback(step plan.Step, ref string, err error) *plan.Feedback {
	if err == nil {
		return nil
	}
	msg := err.Error()
	fb := &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("%s on %s failed: %s", strings.ToLower(string(step.Action)), ref, firstLine(msg)), ActualElement: ref}
	switch {
	case strings.Contains(msg, "intercepts pointer events"):
		fb.Type, fb.Suggestion = plan.NotVisible, "another element covers the target; close the overlay first"
	case strings.Contains(msg, "not visible"), strings.Contains(msg, "not attached"), strings.Contains(msg, "detached"):
		fb.Type, fb.Suggestion = plan.Timing, "the element changed while acting; look again"
	case strings.Contains(msg, "Timeout"):
		fb.Type, fb.Suggestion = plan.Timing, "the element did not become ready in time"
	case strings.Contains(msg, "not a <select>"), strings.Contains(msg, "not an <input>"), strings.Contains(msg, "did not find some options"):
		fb.Type, fb.Suggestion = plan.WrongElement, "the target is not the kind of control the step needs"
	}
	return fb
}

// check is the deterministic evaluator: did the step do what it should?
func (s *Session) check(step plan.Step, el playwright.ElementHandle, out *Outcome, budget time.Duration) *plan.Feedback {
	ref := ""
	if out.Target != nil {
		ref = out.Target.Ref()
	}
	changed := out.After.Fingerprint != out.Before.Fingerprint || out.After.URL != out.Before.URL || pixelsChanged(out.BeforePNG, out.AfterPNG)
	switch step.Action {
	case plan.Click:
		if !changed {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("clicked %s but nothing on the page changed", firstNonEmpty(ref, "the point")),
				Suggestion: "the click may have missed: another element may be the one meant", ActualElement: ref, ExpectedElement: step.TargetDescription}
		}
	case plan.Type, plan.Select:
		if el == nil {
			return nil
		}
		got, err := fieldValue(el)
		if err != nil {
			return &plan.Feedback{Type: plan.Timing, Details: fmt.Sprintf("could not read %s after typing: %v", ref, firstLine(err.Error()))}
		}
		if norm(got) != norm(step.Value) {
			if out.Target != nil && out.Target.Secret {
				return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s does not hold the secret that was typed", ref), ActualElement: ref}
			}
			return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s holds %q, not %q", ref, got, step.Value),
				Suggestion: "the field may reformat or reject the value, or another field is the one meant", ActualElement: ref}
		}
	case plan.Check:
		if el == nil {
			return nil
		}
		got, err := el.IsChecked()
		if err != nil || got == step.Unchecks() {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s is still %s", ref, map[bool]string{true: "checked", false: "unchecked"}[got]), ActualElement: ref}
		}
	case plan.Navigate:
		if !changed && !strings.EqualFold(step.Value, "reload") {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("the page is still %s", out.After.URL)}
		}
	case plan.Scroll:
		if out.After.ScrollY == out.Before.ScrollY && el == nil {
			at := out.After.ScrollY == 0 || out.After.ScrollY >= out.After.ScrollMax
			if !at {
				return &plan.Feedback{Type: plan.PageState, Details: "the page did not scroll"}
			}
			out.Actions = append(out.Actions, "the page was already at its end")
		}
	case plan.Assert:
		return s.checkText(step, out, budget)
	case plan.Extract:
		if el == nil {
			return nil
		}
		v, err := fieldValue(el)
		if err != nil || v == "" {
			v, _ = el.InnerText()
		}
		out.Extracted = map[string]any{firstNonEmpty(step.Value, "value"): strings.TrimSpace(v)}
		out.Actions = append(out.Actions, fmt.Sprintf("read %q from %s", truncate(v, 60), ref))
	}
	return nil
}

var spaces = regexp.MustCompile(`\s+`)

// checkText waits, within the budget the attempt had, for the asserted text to be (or
// not be) on the page.
func (s *Session) checkText(step plan.Step, out *Outcome, budget time.Duration) *plan.Feedback {
	deadline := time.Now().Add(budget)
	for {
		text, err := s.VisibleText()
		if err != nil {
			return &plan.Feedback{Type: plan.Timing, Details: err.Error()}
		}
		found := ContainsText(NormalizeText(text), step.Value)
		if found != step.Negated {
			return nil
		}
		if !time.Now().Before(deadline) {
			if step.Negated {
				return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%q is still on the page", step.Value)}
			}
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%q is not on the page %q; it reads: %s", step.Value, out.After.Title, truncate(spaces.ReplaceAllString(text, " "), 200)),
				Suggestion: "an earlier step may not have done what it should"}
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func fieldValue(el playwright.ElementHandle) (string, error) {
	v, err := el.Evaluate(`(el) => el.tagName === "SELECT" ? (el.selectedOptions[0] ? el.selectedOptions[0].label : "") : ("value" in el ? String(el.value) : el.innerText)`)
	if err != nil {
		return "", err
	}
	s, _ := v.(string)
	return s, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return truncate(s, 200)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// pixelsChanged reports whether more than ChangeThreshold of the pixels differ.
func pixelsChanged(a, b []byte) bool {
	if string(a) == string(b) {
		return false
	}
	x, err := visual.Decode(a)
	if err != nil {
		return false
	}
	y, err := visual.Decode(b)
	if err != nil {
		return false
	}
	changed, err := visual.Changed(x, y, ChangeThreshold)
	return err == nil && changed
}

// NormalizeText prepares page text for ContainsText.
func NormalizeText(text string) string { return norm(spaces.ReplaceAllString(text, " ")) }

// ContainsText reports whether normalized page text holds want, ignoring case and spacing.
func ContainsText(page, want string) bool { return strings.Contains(page, norm(want)) }
