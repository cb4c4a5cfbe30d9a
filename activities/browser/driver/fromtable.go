package driver

//lint:file-ignore SA1019 Each field is filled and read back on the exact node found; only an ElementHandle names that node.

import (
	"context"
	"fmt"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// A form filled from the page's table (plan.FromTable) is expanded here, as the step runs:
// the planner cannot see which fields the page has. Every field is matched before any is
// typed into, so that a field that cannot be filled exactly leaves the form untouched.

// textFields are the fields a value is typed into.
const textFields = `input:not([type]), input[type=text], input[type=email], input[type=number], input[type=tel], input[type=url], input[type=search], textarea`

// fieldLabelJS is whether a field can be typed into (shown, enabled, not read-only) and
// its label as a person reads it: its <label>, the elements aria-labelledby names, its
// aria-label, or else a <label> (or a text ending in a colon) just before it.
const fieldLabelJS = `(el) => {
  const text = (n) => (n ? n.innerText || n.textContent || "" : "");
  const usable = (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true })) && !el.disabled && !el.readOnly;
  let label = "";
  const by = el.getAttribute("aria-labelledby");
  if (el.labels && el.labels.length) label = text(el.labels[0]);
  else if (by) label = by.split(/\s+/).map((id) => text(el.ownerDocument.getElementById(id))).join(" ");
  else if (el.getAttribute("aria-label")) label = el.getAttribute("aria-label");
  else {
    const p = el.previousElementSibling;
    if (p && (p.tagName === "LABEL" || /:\s*$/.test(text(p)))) label = text(p);
  }
  return { usable, label: label.replace(/\s+/g, " ").trim() };
}`

// tableValueJS is the value beside each visible table cell whose whole text is the label
// (a trailing colon and case aside): the next cell of its row.
const tableValueJS = `(label) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().replace(/:$/, "").trim().toLowerCase();
  const want = norm(label);
  const values = [];
  for (const c of document.querySelectorAll("td, th")) {
    if (norm(c.innerText) !== want) continue;
    if (c.checkVisibility && !c.checkVisibility({ visibilityProperty: true })) continue;
    const next = c.nextElementSibling;
    if (!next || !/^(TD|TH)$/.test(next.tagName)) continue;
    values.push(next.innerText.replace(/\s+/g, " ").trim());
  }
  return values;
}`

// fromTable finds what the step fills, before it acts: each usable text field, its label
// and its label's one value in the table. Any field it cannot match exactly ends the
// attempt there, with the reason, and nothing typed.
func (at *attempt) fromTable(ctx context.Context, obs page.Observation) (*Outcome, error) {
	s := at.s
	refuse := func(why string) (*Outcome, error) {
		return s.without(ctx, at.out, obs, &plan.Feedback{Type: plan.WrongElement, Details: why})
	}
	els, err := s.page.QuerySelectorAll(textFields)
	if err != nil {
		return nil, fmt.Errorf("find the page's fields: %w", err)
	}
	var fills []tableFill
	for _, el := range els {
		var f struct {
			Usable bool   `json:"usable"`
			Label  string `json:"label"`
		}
		raw, err := el.Evaluate(fieldLabelJS)
		if err == nil {
			err = decode(raw, &f)
		}
		if err != nil {
			return nil, fmt.Errorf("read a field's label: %w", err)
		}
		if !f.Usable {
			continue
		}
		if f.Label == "" {
			return refuse(fmt.Sprintf("the %s text field has no label to look up in the table", plan.Ordinal(len(fills)+1)))
		}
		var values []string
		raw, err = s.page.Evaluate(tableValueJS, f.Label)
		if err == nil {
			err = decode(raw, &values)
		}
		if err != nil {
			return nil, fmt.Errorf("look up %q in the table: %w", f.Label, err)
		}
		switch {
		case len(values) == 0:
			return refuse(fmt.Sprintf("the field labelled %q has no row in the page's table", f.Label))
		case len(values) > 1:
			return refuse(fmt.Sprintf("the field labelled %q has %d rows in the page's table (%q): which one is meant is not clear", f.Label, len(values), values))
		case values[0] == "":
			return refuse(fmt.Sprintf("the row of %q in the page's table has no value", f.Label))
		}
		fills = append(fills, tableFill{el: el, label: f.Label, value: values[0]})
	}
	if len(fills) == 0 {
		return refuse("the page shows no text field to fill")
	}
	at.fills, at.out.Before = fills, obs
	return nil, nil
}

// fillFromTable types each field's value in place of what it held and reads each back:
// the step's check, field by field.
func fillFromTable(_ context.Context, a *action) *plan.Feedback {
	var done []string
	for _, f := range a.fills {
		a.note("typed %q into the field labelled %q (its row in the table)", f.value, f.label)
		if err := f.el.Fill(f.value, playwright.ElementHandleFillOptions{Timeout: timeout}); err != nil {
			return a.partly(done, a.failed(err))
		}
		got, err := fieldValue(f.el)
		if err != nil || page.Norm(got) != page.Norm(f.value) {
			return a.partly(done, &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("the field labelled %q holds %q, not %q", f.label, got, f.value),
				Suggestion: "the field may reformat or reject the value"})
		}
		done = append(done, f.label)
	}
	return nil
}

// partly says which fields were filled before one failed.
func (a *action) partly(done []string, fb *plan.Feedback) *plan.Feedback {
	if fb != nil && len(done) > 0 {
		fb.Details += fmt.Sprintf(" (filled before it: %s)", strings.Join(done, ", "))
	}
	return fb
}
