package page

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// A field said to be on a tab is resolved while that tab is the one open, and refused
// (naming why) while another is: a step does not open a tab nobody asked for.
func TestOnTheTabThatIsOpen(t *testing.T) {
	yes, no := true, false
	page := []Element{
		{Index: 0, Tag: "span", Role: "tab", Name: "Heading", Selected: &no},
		{Index: 1, Tag: "span", Role: "tab", Name: "Account", Selected: &yes},
		{Index: 2, Tag: "input", Role: "textbox", Name: "Account Number"},
	}
	if r := Resolve(`"Account Number" on the "Account" tab`, plan.Type, page); r.Index != 2 {
		t.Errorf("on the open tab: %+v", r)
	}
	for d, want := range map[string]string{
		`"Account Number" on the "Heading" tab`: `the tab "Heading" is not the one open`,
		`"Account Number" on the "Notes" tab`:   `the page shows no tab "Notes"`,
	} {
		if r := Resolve(d, plan.Type, page); r.Index != -1 || !strings.Contains(r.Reason, want) {
			t.Errorf("%s: %+v, want refused: %s", d, r, want)
		}
	}
}

// A word before a name says what kind of thing it is only when it is a word people call a
// list's items by, or the page uses it: "the workflow X" where the page says "workflow".
func TestAKindBeforeAName(t *testing.T) {
	page := []Element{
		{Index: 0, Tag: "button", Role: "button", Name: "Create workflow"},
		{Index: 1, Tag: "div", Role: "clickable", Name: "Invoice Sync (EU) Last updated just now", Text: "Invoice Sync (EU) Last updated just now"},
		{Index: 2, Tag: "button", Role: "button", Name: "Save"},
	}
	if r := Resolve("workflow Invoice Sync (EU)", plan.Click, page); r.Index != 1 {
		t.Errorf("the workflow Invoice Sync (EU): %+v", r)
	}
	for _, d := range []string{"the pipeline Invoice Sync (EU)", "the recipe Invoice Sync (EU)"} {
		if r := Resolve(d, plan.Click, page); r.Index != -1 {
			t.Errorf("%s: resolved to #%d, want refused", d, r.Index)
		}
	}
}
