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
