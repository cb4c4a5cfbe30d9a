package driver

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered; only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"
	"fmt"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/plan"
)

// appendText adds the step's value after what the text field holds ("add the line "* 26
// December" at the end of the text box"): on a line of its own in a text area, after a
// space in a one-line field. The field is then set to the whole, and that whole is what
// the check reads back. A field that already ends with the value is left as it is: an
// attempt before this one may have added it (never added twice).
func appendText(_ context.Context, a *action) *plan.Feedback {
	v, fb := a.typed()
	if fb != nil {
		return fb
	}
	t := a.out.Target
	if t == nil || a.el == nil || !(t.Tag == "textarea" || (t.Tag == "input" && keyUpTypes[t.Type] && t.Type != "password")) {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is no text field: text is added only after what a text field holds", a.ref),
			Suggestion: "name the text box or text area to add the text to"}
	}
	old, err := a.el.InputValue(playwright.ElementHandleInputValueOptions{Timeout: timeout})
	if err != nil {
		return a.failed(err)
	}
	whole := joined(old, v, t.Tag == "textarea")
	a.out.typed = whole
	if strings.HasSuffix(strings.TrimRight(old, " \t\r\n"), v) {
		a.note("%s already ends with %q: nothing added", a.ref, v)
		a.out.typed = old
		return nil
	}
	a.note("added %q at the end of %s", v, a.ref)
	if err := a.el.Fill(whole, playwright.ElementHandleFillOptions{Timeout: timeout}); err != nil {
		return a.failed(err)
	}
	return a.failed(keyUp(a.el))
}

// joined is old with v after it: on a new line in a text area (after the line break old
// ends with, if it does), after a space in a one-line field.
func joined(old, v string, lines bool) string {
	switch {
	case old == "":
		return v
	case lines && strings.HasSuffix(old, "\n"):
		return old + v + "\n"
	case lines:
		return old + "\n" + v
	case strings.HasSuffix(old, " "):
		return old + v
	}
	return old + " " + v
}
