package driver

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered; only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// The handlers of the actions on a form's fields: typing, selecting, picking from a list.

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
	if t := a.out.Target; t.Chooser() && t.Tag != "input" && t.Tag != "textarea" && t.Tag != "select" && !t.Secret && !plan.HasSecret(shown) && t.Value != "" {
		// A list a script draws as a button showing its choice ("Manual Ordering"): what
		// is typed into it is the option to choose, by its exact text.
		return selectValue(ctx, a)
	}
	if t := a.out.Target; !t.FormControl() && !t.Secret && !plan.HasSecret(shown) {
		return typeIntoOpened(ctx, a, v, shown)
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
	if err := a.el.Fill(v, playwright.ElementHandleFillOptions{Timeout: timeout}); err != nil {
		return a.failed(err)
	}
	if t := a.out.Target; t.Tag == "textarea" || (t.Tag == "input" && keyUpTypes[t.Type]) {
		return a.failed(keyUp(a.el))
	}
	return nil
}

// keyUpTypes are the inputs of free text, where End only moves the caret (on a range it
// moves the slider to its end, on a date to a part's last value).
var keyUpTypes = map[string]bool{"": true, "text": true, "email": true, "password": true, "search": true, "tel": true, "url": true}

// keyUp gives a text field a key that changes nothing (End): a page that checks what was
// typed when a key goes up (MeshCentral's dialogs keep OK disabled until then) sees the
// typing a person's keys would have given it. Fill gives the input events only.
func keyUp(el playwright.ElementHandle) error {
	return el.Press("End", playwright.ElementHandlePressOptions{Timeout: timeout})
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
	case t.Role == "radiogroup":
		return a.pickRadio()
	}
	return a.pickFromList(ctx)
}

// radioLabelJS defines radioLabel(r), the label a radio button is known by: its
// aria-label, its label element, the label around it, its own text or, for a bare input,
// the text just after it. Choosing a radio (radioNamedJS) and reading which one a group
// holds (fieldValue) both name a radio by it, so what was chosen is what is read back.
const radioLabelJS = `const radioLabel = (r) => (r.getAttribute("aria-label") || (r.labels && r.labels[0] ? r.labels[0].innerText : "") ||
  (r.closest("label") ? r.closest("label").innerText : "") || r.innerText ||
  (r.nextElementSibling ? r.nextElementSibling.innerText : "") || "").replace(/\s+/g, " ").trim();`

// radioNamedJS finds, in a group of radio buttons, the ones whose label is v (its words,
// whatever their case and spacing), says how many, and when there is exactly one marks
// what to click for it (its label when the button itself is drawn away, as styled radios
// are).
const radioNamedJS = `(group, v) => {
  ` + radioLabelJS + `
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim().toLowerCase();
  const found = [...group.querySelectorAll("input[type=radio], [role=radio]")].filter((r) => norm(radioLabel(r)) === norm(v));
  for (const m of group.querySelectorAll("[data-webagent-pick]")) m.removeAttribute("data-webagent-pick");
  if (found.length !== 1) return found.length;
  const r = found[0], box = r.getBoundingClientRect(), st = getComputedStyle(r);
  const shown = box.width > 2 && box.height > 2 && st.visibility !== "hidden" && st.opacity !== "0";
  (shown ? r : (r.labels && r.labels[0]) || r.closest("label") || r).setAttribute("data-webagent-pick", "");
  return 1;
}`

// pickRadio chooses v in a group of radio buttons by clicking the one labelled v. None,
// or several, so labelled is the step's failure, with nothing clicked.
func (a *action) pickRadio() *plan.Feedback {
	n, err := a.el.Evaluate(radioNamedJS, a.step.Value)
	if err != nil {
		return a.failed(err)
	}
	if c, _ := n.(int); c != 1 {
		return &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("%s has %v radio buttons labelled %q, not one", a.ref, n, a.step.Value),
			Suggestion: "name the choice as the page labels it"}
	}
	// The one to click was marked, and is found as an element of the group: a handle's
	// own EvaluateHandle gives no element in this client.
	el, err := a.el.QuerySelector("[data-webagent-pick]")
	if err != nil {
		return a.failed(err)
	}
	if el == nil {
		return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("the radio button labelled %q in %s is gone", a.step.Value, a.ref)}
	}
	a.note("chose %q in %s", a.step.Value, a.ref)
	return a.failed(el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}))
}

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
	if t := a.out.Target; t != nil && t.Tag == "a" && t.Dest != "" && t.Expanded == nil {
		// A link to another page is no list: following it would go where no one asked.
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is a link to another page, not a list to choose %q from", a.ref, a.step.Value),
			Suggestion: "name the list the value is in as the page names it"}
	}
	if t := a.out.Target; t != nil && (t.Role == "columnheader" || t.Role == "rowheader") && t.Expanded == nil {
		// A table's header sorts the table (a request that may save the order): no list.
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is a table's header, not a list to choose %q from", a.ref, a.step.Value),
			Suggestion: "name the list the value is in as the page names it"}
	}
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
	res := page.Resolve(strconv.Quote(a.step.Value)+" option", plan.Click, a.choices(obs.Elements))
	if !res.Resolved() {
		return &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("opened %s but %s", a.ref, res.Reason), Suggestion: "check the option's exact text"}
	}
	if o := obs.Elements[res.Index]; o.Tag == "a" && o.Dest != "" {
		// A link to another page is no option of a list.
		return &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("opened %s but %q there is a link to another page, not an option", a.ref, a.step.Value),
			Suggestion: "check the option's exact text, or name the list the value is in"}
	}
	opt, err := a.s.element(res.Index)
	if err != nil {
		return &plan.Feedback{Type: plan.Timing, Details: err.Error()}
	}
	a.note("picked %s", obs.Elements[res.Index].Ref())
	return a.failed(opt.Click())
}

// choices are the elements a list opened shows to choose from: not the option it shows
// as its value inside its own box (a toolkit's select drawn as a table shows the chosen
// option there, and again in the list it opens).
func (a *action) choices(elems []page.Element) []page.Element {
	t := a.out.Target
	if t == nil {
		return elems
	}
	out := make([]page.Element, 0, len(elems))
	for _, e := range elems {
		if e.Role == "option" && within(e.Box, t.Box) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// within reports whether b lies inside o, to a pixel.
func within(b, o page.Box) bool {
	return b.X >= o.X-1 && b.Y >= o.Y-1 && b.X+b.W <= o.X+o.W+1 && b.Y+b.H <= o.Y+o.H+1
}

// activeEditableJS is the element the page has focused, through open shadow roots, when it
// takes typed text: a text field, a text area or an editable box; null otherwise.
const activeEditableJS = `() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return null;
  const field = el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && !["checkbox", "radio", "submit", "button", "reset", "file", "image", "range", "color", "hidden"].includes(el.type));
  return field || el.isContentEditable ? el : null;
}`

// stateful are the roles of controls a click changes, which never open a field to type in.
var stateful = map[string]bool{"slider": true, "switch": true, "checkbox": true, "radio": true, "menuitemcheckbox": true, "menuitemradio": true}

// typeIntoOpened types into the field a box opens when clicked: the target is named as the
// step says but is not a field (an editor's placeholder, "Type / to choose a block"), so it
// is clicked, and the text goes into the field the click focused. None focused within a
// second is the step's failure, with nothing typed.
func typeIntoOpened(ctx context.Context, a *action, v, shown string) *plan.Feedback {
	if stateful[a.out.Target.Role] {
		// A switch, a slider, a box or a radio button is changed by a click: clicking it
		// for a field would do what the step does not ask. Nothing is clicked.
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is a %s: it takes no typed text, and a click would change it", a.ref, a.out.Target.Role),
			Suggestion: "click it, tick it or choose its state in a step of its own, or name the field to type into", ActualElement: a.ref}
	}
	a.note("clicked %s, which is not a field, for the field it opens", a.ref)
	if err := a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}); err != nil {
		return a.failed(err)
	}
	for i := 0; i < 10; i++ {
		h, err := a.s.page.EvaluateHandle(activeEditableJS)
		if err != nil {
			return a.failed(err)
		}
		if el := h.AsElement(); el != nil {
			a.note("typed %q into the field it opened", shown)
			a.out.editor = el
			return a.failed(el.Fill(v, playwright.ElementHandleFillOptions{Timeout: timeout}))
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return a.failed(err)
		}
	}
	return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is not a field, and clicking it focused none", a.ref),
		Suggestion: "name the field to type into, or the control that shows it first", ActualElement: a.ref}
}
