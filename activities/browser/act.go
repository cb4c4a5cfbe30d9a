package browser

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered (in the page, a shadow root or a frame); only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// action is one attempt's action as its handler sees it.
type action struct {
	s     *Session
	step  plan.Step
	el    playwright.ElementHandle
	out   *Outcome
	opts  DoOptions
	phase func(activities.Phase)
	ref   string
}

func (a *action) note(format string, args ...any) {
	a.out.Actions = append(a.out.Actions, fmt.Sprintf(format, args...))
}

func (a *action) failed(err error) *plan.Feedback {
	if err != nil && a.s.page.IsClosed() {
		// The page closed itself on the click (a "Close this window" button): that is
		// the click's effect, not its failure.
		return nil
	}
	return actionFeedback(a.step, a.ref, err)
}

// timeout bounds one Playwright action on an element.
var timeout = playwright.Float(5000)

// handlers do each action on the page; a non-nil feedback means the action itself failed.
// What each action needs and how it is checked is in plan.Action.Spec.
var handlers = map[plan.Action]func(context.Context, *action) *plan.Feedback{
	plan.Click:    click,
	plan.Type:     typeText,
	plan.Select:   selectValue,
	plan.Check:    setChecked,
	plan.Press:    press,
	plan.Navigate: navigate,
	plan.Scroll:   scroll,
	plan.Wait:     wait,
	plan.Assert:   func(context.Context, *action) *plan.Feedback { return nil }, // looked at in check
	plan.Extract:  func(context.Context, *action) *plan.Feedback { return nil }, // read in check
	plan.Hover:    hover,
}

func hover(_ context.Context, a *action) *plan.Feedback {
	a.note("hovered over %s", a.ref)
	return a.failed(a.el.Hover(playwright.ElementHandleHoverOptions{Timeout: timeout}))
}

// act performs the step's action.
func (s *Session) act(ctx context.Context, step plan.Step, el playwright.ElementHandle, out *Outcome, opts DoOptions, phase func(activities.Phase)) *plan.Feedback {
	a := &action{s: s, step: step, el: el, out: out, opts: opts, phase: phase}
	if out.Target != nil {
		a.ref = out.Target.Ref()
	}
	if el == nil && opts.Point != nil && step.Action != plan.Click && step.Action != plan.Type {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s needs an element, not a point on the screen", step.Action)}
	}
	h, ok := handlers[step.Action]
	if !ok {
		return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("unknown action %q", step.Action)}
	}
	return h(ctx, a)
}

func click(ctx context.Context, a *action) *plan.Feedback {
	if p := a.opts.Point; p != nil {
		a.note("clicked at (%.0f, %.0f)", p[0], p[1])
		return a.failed(a.s.page.Mouse().Click(p[0], p[1]))
	}
	a.note("clicked %s", a.ref)
	if a.s.paces() {
		// A click a WAIT times: the browser's checks on the target (in view, still,
		// enabled, not covered) take from a few to hundreds of milliseconds, so they are
		// done first, and the click itself comes on time where they found the target.
		if err := a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout, Trial: playwright.Bool(true)}); err != nil {
			return a.failed(err)
		}
		if box, err := a.el.BoundingBox(); err == nil && box != nil {
			if err := a.s.keepPace(ctx); err != nil {
				return a.failed(err)
			}
			return a.failed(a.s.page.Mouse().Click(box.X+box.Width/2, box.Y+box.Height/2))
		}
		if err := a.s.keepPace(ctx); err != nil {
			return a.failed(err)
		}
	}
	return a.failed(a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}))
}

func typeText(ctx context.Context, a *action) *plan.Feedback {
	v, fb := a.typed()
	if fb != nil {
		return fb
	}
	// What the notes say: the placeholder of a secret, never its value.
	shown := a.step.Value
	if p := a.opts.Point; p != nil {
		// A TYPE sets the field's value, as Fill does on an element: what was in the
		// field is selected first, so that the typing replaces it.
		a.note("clicked at (%.0f, %.0f) and typed %q in place of what was there", p[0], p[1], shown)
		if err := a.s.page.Mouse().Click(p[0], p[1]); err != nil {
			return a.failed(err)
		}
		if err := a.s.page.Keyboard().Press("ControlOrMeta+A"); err != nil {
			return a.failed(err)
		}
		return a.failed(a.s.page.Keyboard().Type(v))
	}
	if a.el == nil {
		a.note("typed %q into the focused element", shown)
		return a.failed(a.s.page.Keyboard().Type(v))
	}
	if a.out.Target.Tag == "select" {
		a.note("selected %q in %s", shown, a.ref)
		_, err := selectOption(a.el, v)
		return a.failed(err)
	}
	if t := a.out.Target.Type; t == "date" || t == "time" || t == "month" || t == "datetime-local" {
		iso, ok := inputValue(t, v)
		if !ok {
			return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is a %s field, and %q cannot be read as one", a.ref, t, shown),
				Suggestion: "write the value as the field expects it, e.g. 2016-04-08 for a date or 08:22 for a time"}
		}
		a.note("typed %q into %s (as %s)", shown, a.ref, iso)
		a.out.typed = iso
		return a.failed(a.el.Fill(iso, playwright.ElementHandleFillOptions{Timeout: timeout}))
	}
	if when, ok := dateValue(v); ok && !plan.HasSecret(shown) {
		if ro, err := a.el.Evaluate(`(el) => el.readOnly === true`); err == nil && ro == true {
			return pickDate(ctx, a, when, shown)
		}
	}
	if a.out.Target.Secret && !plan.HasSecret(shown) {
		a.note("typed a secret (%d characters) into %s", len([]rune(v)), a.ref)
	} else {
		a.note("typed %q into %s", shown, a.ref)
	}
	return a.failed(a.el.Fill(v, playwright.ElementHandleFillOptions{Timeout: timeout}))
}

func selectValue(ctx context.Context, a *action) *plan.Feedback {
	v := a.step.Value
	switch t := a.out.Target; {
	case t.Tag == "select":
		labels, err := selectOption(a.el, v)
		if len(labels) > 1 {
			a.note("selected %s in %s", quoteAll(labels), a.ref)
			a.out.typed = strings.Join(labels, ", ")
		} else {
			a.note("selected %q in %s", v, a.ref)
		}
		return a.failed(err)
	case t.Editable() && t.Role != "combobox":
		// A field: the value is typed, or picked in its calendar when it takes no typing.
		return typeText(ctx, a)
	}
	return a.pickFromList(ctx)
}

func setChecked(_ context.Context, a *action) *plan.Feedback {
	want := !a.step.Unchecks()
	a.note("set %s to %s", a.ref, map[bool]string{true: "checked", false: "unchecked"}[want])
	return a.failed(a.el.SetChecked(want, playwright.ElementHandleSetCheckedOptions{Timeout: timeout}))
}

func press(_ context.Context, a *action) *plan.Feedback {
	if a.el != nil {
		if err := a.el.Focus(); err != nil {
			return a.failed(err)
		}
		a.note("pressed %s in %s", a.step.Value, a.ref)
	} else {
		a.note("pressed %s", a.step.Value)
	}
	return a.failed(a.s.page.Keyboard().Press(a.step.Value))
}

func navigate(ctx context.Context, a *action) *plan.Feedback {
	a.note("opened %s", a.step.Value)
	code, err := a.s.Goto(ctx, a.step.Value)
	var blocked *BlockedError
	if errors.As(err, &blocked) {
		a.out.Actions = append(a.out.Actions, "did not open it: "+blocked.Reason)
		return &plan.Feedback{Type: plan.PageState, Details: "not opened: " + blocked.Reason,
			Suggestion: "a run goes only to its start URL's site and the domains it allows (--allow-domain); internal addresses only with --allow-private"}
	}
	if err != nil {
		return &plan.Feedback{Type: plan.PageState, Details: err.Error(), Suggestion: "check the address"}
	}
	if code >= 400 {
		return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s answered HTTP %d", a.step.Value, code), Suggestion: "check the address, or whether the session is signed in"}
	}
	return nil
}

func scroll(_ context.Context, a *action) *plan.Feedback {
	if a.el != nil {
		if v := strings.ToLower(a.step.Value); v == "top" || v == "bottom" {
			// The element's own scroll: "to the bottom of the text area".
			a.note("scrolled %s to its %s", a.ref, v)
			if err := a.el.ScrollIntoViewIfNeeded(); err != nil {
				return a.failed(err)
			}
			_, err := a.el.Evaluate(`(el, v) => { el.scrollTop = v === "top" ? 0 : el.scrollHeight; }`, v)
			return a.failed(err)
		}
		a.note("scrolled %s into view", a.ref)
		return a.failed(a.el.ScrollIntoViewIfNeeded())
	}
	a.note("scrolled %s", a.step.Value)
	_, err := a.s.page.Evaluate(scrollJS, a.step.Value)
	return a.failed(err)
}

// MaxWait caps a WAIT step's duration.
const MaxWait = 5 * time.Minute

func wait(ctx context.Context, a *action) *plan.Feedback {
	if a.step.TargetDescription != "" {
		a.note("waited for %s", a.ref)
		return nil
	}
	d, err := plan.ParseDuration(a.step.Value)
	if err != nil {
		return &plan.Feedback{Type: plan.Other, Details: err.Error()}
	}
	d = min(d, MaxWait)
	a.phase(activities.PhaseWaiting)
	pause := a.s.paced(d, a.opts.PaceNext)
	if pause != d {
		a.note("waited %s after the last action (%s here)", d, pause.Round(time.Millisecond))
	} else {
		a.note("waited %s", d)
	}
	if err := sleep(ctx, pause); err != nil {
		return &plan.Feedback{Type: plan.Other, Details: "the wait was cut short: " + err.Error()}
	}
	return nil
}

const scrollJS = `(how) => {
  const [dir, n] = how.toLowerCase().split(/\s+/);
  const by = n ? parseInt(n, 10) : Math.round(window.innerHeight * 0.8);
  if (dir === "top") window.scrollTo(0, 0);
  else if (dir === "bottom") window.scrollTo(0, document.documentElement.scrollHeight);
  else if (dir === "up") window.scrollBy(0, -by);
  else window.scrollBy(0, by);
}`

// selectOption selects v in a <select>: the option labelled v, or else the one whose
// value is v. In a list that takes several options, "A, B and C" selects A, B and C when
// no one option is called that and each part is exactly one option's label; it returns
// the labels then. Anything else is refused, never a near match.
func selectOption(el playwright.ElementHandle, v string) ([]string, error) {
	var list struct {
		Multiple bool     `json:"multiple"`
		Labels   []string `json:"labels"`
	}
	if raw, err := el.Evaluate(`(el) => ({multiple: el.multiple, labels: [...el.options].map((o) => o.label)})`); err == nil {
		_ = decode(raw, &list)
	}
	count := map[string]int{}
	for _, l := range list.Labels {
		count[l]++
	}
	if count[v] > 0 {
		_, err := el.SelectOption(playwright.SelectOptionValues{Labels: &[]string{v}}, playwright.ElementHandleSelectOptionOptions{Timeout: timeout})
		return nil, err
	}
	if parts := plan.ListItems(v); list.Multiple && len(parts) > 1 {
		for _, p := range parts {
			if count[p] != 1 {
				return nil, fmt.Errorf("the list has no option %q, and not each of %s exactly once (no option %q)", v, quoteAll(parts), p)
			}
		}
		_, err := el.SelectOption(playwright.SelectOptionValues{Labels: &parts}, playwright.ElementHandleSelectOptionOptions{Timeout: timeout})
		return parts, err
	}
	// An option's value, or a label the page adds late.
	_, err := el.SelectOption(playwright.SelectOptionValues{ValuesOrLabels: &[]string{v}}, playwright.ElementHandleSelectOptionOptions{Timeout: timeout})
	return nil, err
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// pickFromList selects from a custom (non-<select>) dropdown: open it, then click the
// option whose text is the value.
func (a *action) pickFromList(ctx context.Context) *plan.Feedback {
	a.note("opened %s", a.ref)
	if err := a.el.Click(); err != nil {
		return a.failed(err)
	}
	if err := a.s.Settle(ctx, a.opts.SettleTimeout); err != nil {
		return &plan.Feedback{Type: plan.Other, Details: err.Error()}
	}
	obs, err := a.s.Observe(ctx)
	if err != nil {
		return &plan.Feedback{Type: plan.Other, Details: err.Error()}
	}
	res := page.Resolve(strconv.Quote(a.step.Value)+" option", plan.Click, obs.Elements)
	if !res.Resolved() {
		return &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("opened %s but %s", a.ref, res.Reason), Suggestion: "check the option's exact text"}
	}
	opt, err := a.s.element(res.Index)
	if err != nil {
		return &plan.Feedback{Type: plan.Timing, Details: err.Error()}
	}
	a.note("picked %s", obs.Elements[res.Index].Ref())
	return a.failed(opt.Click())
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

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return page.Truncate(s, 200)
}
